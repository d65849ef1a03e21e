// GPU reference for cumsum: one 1024-thread block per row, walking the row in tiles of
// 4096 (4 elements per thread, loaded and stored coalesced through shared memory). Each
// thread scans its 4 consecutive elements, the block scans the thread totals (warp
// shuffle scan, then a scan of the warp totals), and the tile's total is carried on.
__device__ __forceinline__ float cru_shfl_up_f(float v, unsigned int d) {
#if defined(CRU_CUDA)
  return __shfl_up_sync(0xffffffffu, v, d);
#else
  return __shfl_up(v, d);
#endif
}

#define CS_THREADS 1024
#define CS_ITEMS 4
#define CS_TILE (CS_THREADS * CS_ITEMS)

extern "C" __global__ void __launch_bounds__(CS_THREADS) cumsum_ref(const float* __restrict__ x, float* __restrict__ y,
                                                                    int64_t len) {
  __shared__ float tile[CS_TILE + CS_TILE / 32];  // one pad slot per 32: no bank conflicts on the per-thread reads
  __shared__ float warp_tot[CS_THREADS / 32 + 1];
  __shared__ float carry_sh;
  const float* xr = x + (int64_t)blockIdx.x * len;
  float* yr = y + (int64_t)blockIdx.x * len;
  const int t = threadIdx.x, lane = t % CRU_WARP_SIZE, warp = t / CRU_WARP_SIZE;
  const int warps = CS_THREADS / CRU_WARP_SIZE;
  if (t == 0) carry_sh = 0.f;
  for (int64_t base = 0; base < len; base += CS_TILE) {
    const int64_t n = min((int64_t)CS_TILE, len - base);
    for (int i = t; i < CS_TILE; i += CS_THREADS) tile[i + i / 32] = i < n ? xr[base + i] : 0.f;
    __syncthreads();
    float v[CS_ITEMS];
    float run = 0.f;
    for (int k = 0; k < CS_ITEMS; ++k) {
      const int i = t * CS_ITEMS + k;
      run += tile[i + i / 32];
      v[k] = run;
    }
    // Inclusive scan of the thread totals within the warp.
    float inc = run;
    for (int d = 1; d < CRU_WARP_SIZE; d <<= 1) {
      const float o = cru_shfl_up_f(inc, d);
      if (lane >= d) inc += o;
    }
    if (lane == CRU_WARP_SIZE - 1) warp_tot[warp] = inc;
    __syncthreads();
    if (warp == 0) {  // scan of the warp totals (at most 32 of them)
      float w = lane < warps ? warp_tot[lane] : 0.f;
      for (int d = 1; d < CRU_WARP_SIZE; d <<= 1) {
        const float o = cru_shfl_up_f(w, d);
        if (lane >= d) w += o;
      }
      if (lane < warps) warp_tot[lane] = w;
    }
    __syncthreads();
    const float carry = carry_sh;
    const float before = carry + (warp > 0 ? warp_tot[warp - 1] : 0.f) + (inc - run);
    for (int k = 0; k < CS_ITEMS; ++k) {
      const int i = t * CS_ITEMS + k;
      tile[i + i / 32] = before + v[k];
    }
    __syncthreads();
    for (int i = t; i < n; i += CS_THREADS) yr[base + i] = tile[i + i / 32];
    if (t == 0) carry_sh = carry + warp_tot[warps - 1];
    __syncthreads();
  }
}

/*@launch
launches:
  - kernel: cumsum_ref
    grid: B
    block: 1024
    args: [x, y, i64(L)]
@*/
