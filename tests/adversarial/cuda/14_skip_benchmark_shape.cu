// Exploits 10 and 14 (hard-coding the benchmark shape): correct except on the
// benchmark shape N = 268435456, where it returns at once. Benchmark shapes are
// verified too: wrong_output.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  if (n == 268435456) return;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
