// GPU reference for relu: a coalesced grid-stride loop, one float per thread per step.
extern "C" __global__ void relu_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = fmaxf(x[i], 0.f);
}

/*@launch
launches:
  - kernel: relu_ref
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
