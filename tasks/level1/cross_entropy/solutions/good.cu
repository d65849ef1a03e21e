// Correct GPU candidate: one block per row, three passes (max, sum, pick), row losses in
// scratch, then one block averages them.
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

extern "C" __global__ void ce_row3(const float* __restrict__ x, const int64_t* __restrict__ t,
                                   float* __restrict__ row_loss, int64_t cols) {
  __shared__ float sh[32];
  const float* xr = x + (int64_t)blockIdx.x * cols;
  float m = -3.402823466e+38f;
  for (int64_t k = threadIdx.x; k < cols; k += blockDim.x) m = fmaxf(m, xr[k]);
  m = block_max(m, sh);
  float s = 0.f;
  for (int64_t k = threadIdx.x; k < cols; k += blockDim.x) s += expf(xr[k] - m);
  s = block_sum(s, sh);
  if (threadIdx.x == 0) row_loss[blockIdx.x] = m + logf(s) - xr[t[blockIdx.x]];
}

extern "C" __global__ void ce_avg(const float* __restrict__ row_loss, float* __restrict__ loss, int64_t rows) {
  __shared__ double sh[32];
  double s = 0;
  for (int64_t i = threadIdx.x; i < rows; i += blockDim.x) s += row_loss[i];
  s = block_sum_d(s, sh);
  if (threadIdx.x == 0) loss[0] = (float)(s / (double)rows);
}

/*@launch
scratch:
  row_loss: {dtype: f32, count: B}
launches:
  - kernel: ce_row3
    grid: B
    block: 128
    args: [logits, targets, row_loss, i64(C)]
  - kernel: ce_avg
    grid: 1
    block: 256
    args: [row_loss, loss, i64(B)]
@*/
