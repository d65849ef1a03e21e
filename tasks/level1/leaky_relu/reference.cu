// GPU reference for leaky_relu: y = x if x > 0 else 0.01 * x. A grid-stride loop over float4s (coalesced
// 16-byte loads and stores), then the last N % 4 elements by the same threads.
// f32 math with the accurate library functions (no fast-math intrinsics).
__device__ __forceinline__ float leaky_relu_op(float v) { return v > 0.f ? v : 0.01f * v; }

extern "C" __global__ void leaky_relu_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t n4 = n / 4;
  const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);  // buffers are 256-byte aligned
  float4* __restrict__ y4 = reinterpret_cast<float4*>(y);
  for (int64_t i = t; i < n4; i += stride) {
    float4 v = x4[i];
    v.x = leaky_relu_op(v.x); v.y = leaky_relu_op(v.y); v.z = leaky_relu_op(v.z); v.w = leaky_relu_op(v.w);
    y4[i] = v;
  }
  for (int64_t i = n4 * 4 + t; i < n; i += stride) y[i] = leaky_relu_op(x[i]);
}

/*@launch
launches:
  - kernel: leaky_relu_ref
    grid: min(ceil_div(N, 1024), sm_count * 8)
    block: 256
    args: [x, y, i64(N)]
@*/
