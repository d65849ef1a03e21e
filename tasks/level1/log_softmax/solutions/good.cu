// Correct GPU candidate: one 256-thread block per row, three passes (max, sum, write).
// Block reductions: warp shuffles, then one value per warp through shared memory.
// Every thread of the block gets the result; `sh` needs one slot per warp (32 suffice).
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}
__device__ __forceinline__ double warp_sum_d(double v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v = fmaxf(v, cru_shfl_xor(v, o));
  return v;
}
__device__ float block_sum(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_sum(lane < warps ? sh[lane] : 0.f);
  __syncthreads();  // sh may be reused next
  return v;
}
__device__ double block_sum_d(double v, double* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_sum_d(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_sum_d(lane < warps ? sh[lane] : 0.0);
  __syncthreads();
  return v;
}
__device__ float block_max(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_max(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_max(lane < warps ? sh[lane] : -3.402823466e+38f);
  __syncthreads();
  return v;
}

extern "C" __global__ void log_softmax3(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
  __shared__ float sh[32];
  const float* xr = x + (int64_t)blockIdx.x * cols;
  float* yr = y + (int64_t)blockIdx.x * cols;
  float m = -3.402823466e+38f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
  m = block_max(m, sh);
  float s = 0.f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) s += expf(xr[j] - m);
  s = block_sum(s, sh);
  const float lse = m + logf(s);
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = xr[j] - lse;
}

/*@launch
launches:
  - kernel: log_softmax3
    grid: B
    block: 256
    args: [x, y, i64(D)]
@*/
