// Correct GPU candidate: one element per thread per grid-stride step.
extern "C" __global__ void scale(const float* __restrict__ A, const float* __restrict__ s, float* __restrict__ C,
                                 int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) C[i] = A[i] * s[0];
}

/*@launch
launches:
  - kernel: scale
    grid: min(ceil_div(M * N, 256), sm_count * 32)
    block: 256
    args: [A, s, C, i64(M * N)]
@*/
