// GPU reference for scale_causal_mask_softmax: one 256-thread block per row; block reductions by warp
// shuffles then shared memory; every pass over the row is coalesced.
#define NEG_BIG (-3.402823466e+38f)

__device__ __forceinline__ float gelu_f(float v) { return 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); }
__device__ __forceinline__ float sigmoid_f(float v) { return 1.f / (1.f + expf(-v)); }
__device__ __forceinline__ float softplus_f(float v) { return v > 20.f ? v : log1pf(expf(v)); }
__device__ __forceinline__ float mish_f(float v) { return v * tanhf(softplus_f(v)); }

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v = fmaxf(v, cru_shfl_xor(v, o));
  return v;
}
// Block-wide reductions; every thread gets the result. sh holds one float per warp.
__device__ float block_sum(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_sum(lane < warps ? sh[lane] : 0.f);
  __syncthreads();
  return v;
}
__device__ float block_max(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_max(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_max(lane < warps ? sh[lane] : NEG_BIG);
  __syncthreads();
  return v;
}

extern "C" __global__ void scale_causal_mask_softmax_ref(const float* __restrict__ x, float* __restrict__ y, int C, float scale) {
  __shared__ float sh[32];
  const int i = blockIdx.x % C;
  const float* xr = x + (int64_t)blockIdx.x * C;
  float* yr = y + (int64_t)blockIdx.x * C;
  float m = NEG_BIG;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) m = fmaxf(m, xr[j] * scale);
  m = block_max(m, sh);
  float s = 0.f;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) s += expf(xr[j] * scale - m);
  const float inv = 1.f / block_sum(s, sh);
  for (int j = threadIdx.x; j < C; j += blockDim.x) yr[j] = j <= i ? expf(xr[j] * scale - m) * inv : 0.f;
}

/*@launch
launches:
  - kernel: scale_causal_mask_softmax_ref
    grid: R
    block: 256
    args: [x, y, i32(C), f32(scale)]
@*/
