// GPU reference for softmax: one 512-thread block per row; online (max, sum) statistics
// in one coalesced pass, then one pass writing exp(x - m) / s.
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

extern "C" __global__ void softmax_ref(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
  const float* xr = x + (int64_t)blockIdx.x * cols;
  float* yr = y + (int64_t)blockIdx.x * cols;
  const MaxSum st = row_stats(xr, cols);
  const float inv = 1.f / st.s;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = expf(xr[j] - st.m) * inv;
}

/*@launch
launches:
  - kernel: softmax_ref
    grid: B
    block: 512
    args: [x, y, i64(D)]
@*/
