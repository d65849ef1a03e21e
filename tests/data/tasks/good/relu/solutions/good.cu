// Reference ReLU for the task fixture: one grid-stride kernel.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    y[i] = fmaxf(x[i], 0.f);
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 8)
    block: 256
    args: [x, y, i64(N)]
@*/
