// Correct GPU candidate: one block per row, two passes (row sums, then the pointwise
// terms with the normalised P and Q), row values in scratch, one block averages them.
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

extern "C" __global__ void kl_row2(const float* __restrict__ p, const float* __restrict__ q,
                                   double* __restrict__ row_kl, int64_t cols) {
  __shared__ double sh[32];
  const float* pr = p + (int64_t)blockIdx.x * cols;
  const float* qr = q + (int64_t)blockIdx.x * cols;
  double sp = 0, sq = 0;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) { sp += pr[j]; sq += qr[j]; }
  sp = block_sum_d(sp, sh);
  sq = block_sum_d(sq, sh);
  const double isp = 1.0 / sp, isq = 1.0 / sq;
  double a = 0;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const double P = pr[j] * isp, Q = qr[j] * isq;
    a += Q * log(Q / P);
  }
  a = block_sum_d(a, sh);
  if (threadIdx.x == 0) row_kl[blockIdx.x] = a;
}

extern "C" __global__ void kl_avg(const double* __restrict__ row_kl, float* __restrict__ loss, int64_t rows) {
  __shared__ double sh[32];
  double s = 0;
  for (int64_t i = threadIdx.x; i < rows; i += blockDim.x) s += row_kl[i];
  s = block_sum_d(s, sh);
  if (threadIdx.x == 0) loss[0] = (float)(s / (double)rows);
}

/*@launch
scratch:
  row_kl: {dtype: f64, count: B}
launches:
  - kernel: kl_row2
    grid: B
    block: 512
    args: [predictions, targets, row_kl, i64(D)]
  - kernel: kl_avg
    grid: 1
    block: 256
    args: [row_kl, loss, i64(B)]
@*/
