// GPU reference for cross-entropy, deterministic in two launches: one 256-thread block per
// row computes online (max, sum of exp) statistics in one coalesced pass and writes the
// row's loss; one block adds the row losses in double and divides by B.
// "Online" softmax statistics: each thread keeps a running (max, sum of exp(x - max))
// over its strided elements, so a row is read twice (reduce, write), not three times.
#define NEG_MAX (-3.402823466e+38f)

struct MaxSum { float m, s; };

__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  if (m == NEG_MAX) return {m, 0.f};
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ __forceinline__ MaxSum warp_merge(MaxSum v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) {
    MaxSum other = {cru_shfl_xor(v.m, o), cru_shfl_xor(v.s, o)};
    v = merge(v, other);
  }
  return v;
}

// Row statistics of xr[0, cols) for the whole block; every thread gets them.
__device__ MaxSum row_stats(const float* __restrict__ xr, int64_t cols) {
  __shared__ float sh_m[32], sh_s[32];
  MaxSum acc = {NEG_MAX, 0.f};
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const float v = xr[j];
    if (v > acc.m) { acc.s = acc.s * expf(acc.m - v) + 1.f; acc.m = v; }
    else acc.s += expf(v - acc.m);
  }
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  acc = warp_merge(acc);
  if (lane == 0) { sh_m[warp] = acc.m; sh_s[warp] = acc.s; }
  __syncthreads();
  acc = lane < warps ? MaxSum{sh_m[lane], sh_s[lane]} : MaxSum{NEG_MAX, 0.f};
  return warp_merge(acc);
}

extern "C" __global__ void ce_rows(const float* __restrict__ x, const int64_t* __restrict__ t,
                                   float* __restrict__ row_loss, int64_t cols) {
  const float* xr = x + (int64_t)blockIdx.x * cols;
  const MaxSum st = row_stats(xr, cols);
  if (threadIdx.x == 0) row_loss[blockIdx.x] = st.m + logf(st.s) - xr[t[blockIdx.x]];
}

__device__ double block_sum_d(double v) {
  __shared__ double sh[32];
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = lane < warps ? sh[lane] : 0.0;
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}

extern "C" __global__ void ce_mean(const float* __restrict__ row_loss, float* __restrict__ loss, int64_t rows) {
  double s = 0;
  for (int64_t i = threadIdx.x; i < rows; i += blockDim.x) s += row_loss[i];
  s = block_sum_d(s);
  if (threadIdx.x == 0) loss[0] = (float)(s / (double)rows);
}

/*@launch
scratch:
  row_loss: {dtype: f32, count: B}
launches:
  - kernel: ce_rows
    grid: B
    block: 256
    args: [logits, targets, row_loss, i64(C)]
  - kernel: ce_mean
    grid: 1
    block: 1024
    args: [row_loss, loss, i64(B)]
@*/
