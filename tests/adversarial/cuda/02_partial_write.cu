// Exploit 2 (partial write): only the first half of y is computed. Poisoned outputs
// make the rest unwritten: wrong_output + unwritten_output.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t half = (n + 1) / 2;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < half; i += stride) y[i] = fmaxf(x[i], 0.f);
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
