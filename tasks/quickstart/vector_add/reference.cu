// GPU reference for vector_add: a coalesced grid-stride loop, one float per thread per step.
extern "C" __global__ void vector_add_ref(const float* __restrict__ a, const float* __restrict__ b,
                                          float* __restrict__ c, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

/*@launch
launches:
  - kernel: vector_add_ref
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [a, b, c, i64(N)]
@*/
