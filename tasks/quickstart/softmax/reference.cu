// GPU reference for softmax: one 256-thread block per row, three coalesced passes over the
// row (max, sum of exp, write). Block reductions: warp shuffle, then shared memory.
#define SOFTMAX_NEG_MAX (-3.402823466e+38f)

__device__ __forceinline__ float warp_max(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v = fmaxf(v, cru_shfl_xor(v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}

// Every thread of the block gets the result. `sh` holds one float per warp.
__device__ float block_max(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_max(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_max(lane < warps ? sh[lane] : SOFTMAX_NEG_MAX);
  __syncthreads();  // sh may be reused next
  return v;
}

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

extern "C" __global__ void softmax_ref(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
  __shared__ float sh[32];
  const float* xr = x + (int64_t)blockIdx.x * cols;
  float* yr = y + (int64_t)blockIdx.x * cols;

  float m = SOFTMAX_NEG_MAX;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
  m = block_max(m, sh);

  float s = 0.f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) s += expf(xr[j] - m);
  s = block_sum(s, sh);

  const float inv = 1.f / s;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = expf(xr[j] - m) * inv;
}

/*@launch
launches:
  - kernel: softmax_ref
    grid: R
    block: 256
    args: [x, y, i64(C)]
@*/
