// GPU reference for layer norm, three launches: partial row sums per chunk of 16384, per-row
// mean and 1/std, then a coalesced normalise pass over the same chunks.
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
// Row statistics in two launches, deterministic (no atomics), so long rows use the whole GPU:
//  row_partial: block b handles chunk b % chunks of row b / chunks and writes the sums of
//    (x - k) and (x - k)^2, where k = the row's first element (a shift that keeps the
//    variance from cancelling when the mean is large against the spread);
//  row_final: one block per row adds the partials in double and writes mean and 1/sqrt(var + eps).
extern "C" __global__ void row_partial(const float* __restrict__ x, float* __restrict__ part, int64_t len,
                                       int64_t chunk, int64_t chunks) {
  __shared__ float sh[32];
  const int64_t row = blockIdx.x / chunks, c = blockIdx.x % chunks;
  const float* xr = x + row * len;
  const float k = xr[0];
  const int64_t end = min(len, (c + 1) * chunk);
  float s = 0.f, ss = 0.f;
  for (int64_t j = c * chunk + threadIdx.x; j < end; j += blockDim.x) {
    const float d = xr[j] - k;
    s += d;
    ss += d * d;
  }
  s = block_sum(s, sh);
  ss = block_sum(ss, sh);
  if (threadIdx.x == 0) { part[2 * blockIdx.x] = s; part[2 * blockIdx.x + 1] = ss; }
}

extern "C" __global__ void row_final(const float* __restrict__ x, const float* __restrict__ part,
                                     float* __restrict__ stats, int64_t len, int64_t chunks, float eps) {
  __shared__ double shd[32];
  const int64_t row = blockIdx.x;
  double s = 0, ss = 0;
  for (int64_t c = threadIdx.x; c < chunks; c += blockDim.x) {
    s += part[2 * (row * chunks + c)];
    ss += part[2 * (row * chunks + c) + 1];
  }
  s = block_sum_d(s, shd);
  ss = block_sum_d(ss, shd);
  if (threadIdx.x == 0) {
    const double m = s / (double)len;
    double var = ss / (double)len - m * m;
    if (var < 0) var = 0;
    stats[2 * row] = (float)((double)x[row * len] + m);
    stats[2 * row + 1] = (float)(1.0 / sqrt(var + (double)eps));
  }
}

extern "C" __global__ void ln_apply(const float* __restrict__ x, const float* __restrict__ gamma,
                                    const float* __restrict__ beta, const float* __restrict__ stats,
                                    float* __restrict__ y, int64_t len, int64_t chunk, int64_t chunks) {
  const int64_t row = blockIdx.x / chunks, c = blockIdx.x % chunks;
  const float m = stats[2 * row], rstd = stats[2 * row + 1];
  const int64_t end = min(len, (c + 1) * chunk);
  for (int64_t j = c * chunk + threadIdx.x; j < end; j += blockDim.x)
    y[row * len + j] = (x[row * len + j] - m) * rstd * gamma[j] + beta[j];
}

/*@launch
scratch:
  part: {dtype: f32, count: 2 * R * ceil_div(C, 16384)}
  stats: {dtype: f32, count: 2 * R}
launches:
  - kernel: row_partial
    grid: R * ceil_div(C, 16384)
    block: 256
    args: [x, part, i64(C), i64(16384), i64(ceil_div(C, 16384))]
  - kernel: row_final
    grid: R
    block: 256
    args: [x, part, stats, i64(C), i64(ceil_div(C, 16384)), f32(eps)]
  - kernel: ln_apply
    grid: R * ceil_div(C, 16384)
    block: 256
    args: [x, gamma, beta, stats, y, i64(C), i64(16384), i64(ceil_div(C, 16384))]
@*/
