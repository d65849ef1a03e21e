// GPU reference for MSE, deterministic in two launches: up to 1024 blocks each reduce a
// coalesced grid-stride slice (double per thread, warp shuffles, shared memory) to one
// partial; one block adds the partials in order and divides.
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

extern "C" __global__ void mse_partial(const float* __restrict__ p, const float* __restrict__ t,
                                       double* __restrict__ part, int64_t n) {
  __shared__ double sh[32];
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  double s = 0;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float d = p[i] - t[i];
    s += (double)(d * d);
  }
  s = block_sum_d(s, sh);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

extern "C" __global__ void mse_final(const double* __restrict__ part, float* __restrict__ loss, int64_t count, int64_t n) {
  __shared__ double sh[32];
  double s = 0;
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) s += part[i];
  s = block_sum_d(s, sh);
  if (threadIdx.x == 0) loss[0] = (float)(s / (double)n);
}

/*@launch
scratch:
  part: {dtype: f64, count: 1024}
launches:
  - kernel: mse_partial
    grid: min(ceil_div(B * D, 256), 1024)
    block: 256
    args: [predictions, targets, part, i64(B * D)]
  - kernel: mse_final
    grid: 1
    block: 256
    args: [part, loss, i64(min(ceil_div(B * D, 256), 1024)), i64(B * D)]
@*/
