// Correct GPU candidate: one block per row and an "online" softmax. Each thread keeps a
// running (max, sum of exp) over its strided elements, so the row is read twice (once to
// reduce, once to write) instead of three times as in the reference.
#define NEG_MAX (-3.402823466e+38f)

struct MaxSum { float m, s; };

// Merges two partial (max, sum of exp(x - max)) pairs.
__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
  const float m = fmaxf(a.m, b.m);
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ __forceinline__ MaxSum warp_merge(MaxSum v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) {
    MaxSum other = {cru_shfl_xor(v.m, o), cru_shfl_xor(v.s, o)};
    v = merge(v, other);
  }
  return v;
}

extern "C" __global__ void softmax_online(const float* __restrict__ x, float* __restrict__ y, int64_t cols) {
  __shared__ float sh_m[32], sh_s[32];
  const float* xr = x + (int64_t)blockIdx.x * cols;
  float* yr = y + (int64_t)blockIdx.x * cols;

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
  acc = warp_merge(acc);

  const float inv = 1.f / acc.s;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = expf(xr[j] - acc.m) * inv;
}

/*@launch
launches:
  - kernel: softmax_online
    grid: R
    block: 256
    args: [x, y, i64(C)]
@*/
