// GPU reference for attention: one block per (query, head, batch). The query row sits in shared
// memory; one warp per key computes a dot product with coalesced loads of K and a shuffle
// reduction; the S scores live in shared memory for the softmax; then threads over d sum
// p[j] * V[j][d] (coalesced along d). Deterministic, one launch.
#define NEG_BIG (-3.402823466e+38f)

__device__ __forceinline__ float gelu_f(float v) { return 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); }
__device__ __forceinline__ float sigmoid_f(float v) { return 1.f / (1.f + expf(-v)); }
__device__ __forceinline__ float softplus_f(float v) { return v > 20.f ? v : log1pf(expf(v)); }
__device__ __forceinline__ float mish_f(float v) { return v * tanhf(softplus_f(v)); }

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v = fmaxf(v, cru_shfl_xor(v, o));
  return v;
}
// Block-wide reductions; every thread gets the result. sh holds one float per warp.
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
__device__ float block_max(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_max(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_max(lane < warps ? sh[lane] : NEG_BIG);
  __syncthreads();
  return v;
}
extern "C" __global__ void attention_row(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                                         float* __restrict__ O, int S, int D) {
  const float scale = rsqrtf((float)D);
  extern __shared__ float smem[];
  float* p = smem;       // S scores
  float* q = smem + S;   // the query row
  __shared__ float sh[32];
  const int64_t head = ((int64_t)blockIdx.z * gridDim.y + blockIdx.y) * S * D;
  const int i = blockIdx.x;
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE, nw = blockDim.x / CRU_WARP_SIZE;
  for (int d = threadIdx.x; d < D; d += blockDim.x) q[d] = Q[head + (int64_t)i * D + d];
  __syncthreads();
  for (int j = warp; j < S; j += nw) {
    const float* kr = K + head + (int64_t)j * D;
    float s = 0.f;
    for (int d = lane; d < D; d += CRU_WARP_SIZE) s = fmaf(q[d], kr[d], s);
    s = warp_sum(s);
    if (lane == 0) p[j] = s * scale;
  }
  __syncthreads();
  float m = NEG_BIG;
  for (int j = threadIdx.x; j < S; j += blockDim.x) m = fmaxf(m, p[j]);
  m = block_max(m, sh);
  float sum = 0.f;
  for (int j = threadIdx.x; j < S; j += blockDim.x) { const float e = expf(p[j] - m); p[j] = e; sum += e; }
  const float inv = 1.f / block_sum(sum, sh);  // its barriers also publish p
  for (int d = threadIdx.x; d < D; d += blockDim.x) {
    const float* vc = V + head + d;
    float acc = 0.f;
    for (int j = 0; j < S; ++j) acc = fmaf(p[j], vc[(int64_t)j * D], acc);
    O[head + (int64_t)i * D + d] = acc * inv;
  }
}

/*@launch
launches:
  - kernel: attention_row
    grid: [S, Hh, B]
    block: 128
    smem: 4 * (S + D)
    args: [Q, K, V, O, i32(S), i32(D)]
@*/
