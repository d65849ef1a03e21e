// Cheats on purpose: zeroes its input after writing the output.
extern "C" __global__ void relu(float* __restrict__ x, float* __restrict__ y, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    y[i] = fmaxf(x[i], 0.f);
    x[i] = 0.f;
  }
}
/*@launch
launches:
  - kernel: relu
    grid: ceil_div(N, 256)
    block: 256
    args: [x, y, i64(N)]
@*/
