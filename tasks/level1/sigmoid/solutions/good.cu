// Correct GPU candidate: one float per thread per step of a grid-stride loop.
__device__ __forceinline__ float op(float v) { return 1.f / (1.f + expf(-v)); }

extern "C" __global__ void sigmoid_scalar(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = op(x[i]);
}

/*@launch
launches:
  - kernel: sigmoid_scalar
    grid: min(ceil_div(N, 256), sm_count * 32)
    block: 256
    args: [x, y, i64(N)]
@*/
