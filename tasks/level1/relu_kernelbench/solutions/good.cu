// Correct GPU candidate: float4 loads and stores over the first N/4*4 elements, then a
// small tail kernel for the last N % 4. (cudaMalloc-style buffers are 16-byte aligned.)
extern "C" __global__ void relu4(const float4* __restrict__ x, float4* __restrict__ y, int64_t n4) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 v = x[i];
    v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
    y[i] = v;
  }
}

extern "C" __global__ void relu_tail(const float* __restrict__ x, float* __restrict__ y, int64_t begin, int64_t n) {
  const int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.f);
}

/*@launch
launches:
  - kernel: relu4
    grid: max(1, min(ceil_div(N / 4, 256), sm_count * 8))
    block: 256
    args: [x, y, i64(N / 4)]
  - kernel: relu_tail
    grid: 1
    block: 32
    args: [x, y, i64(N / 4 * 4), i64(N)]
@*/
