// Correct GPU candidate: one element per thread per step with __hmul.
extern "C" __global__ void mul_f16(const __half* __restrict__ a, const __half* __restrict__ b,
                                   __half* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = __hmul(a[i], b[i]);
}

/*@launch
launches:
  - kernel: mul_f16
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [a, b, y, i64(N)]
@*/
