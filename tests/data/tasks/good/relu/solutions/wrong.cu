// Wrong on purpose: negative values pass through.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    y[i] = x[i];
}
/*@launch
launches:
  - kernel: relu
    grid: ceil_div(N, 256)
    block: 256
    args: [x, y, i64(N)]
@*/
