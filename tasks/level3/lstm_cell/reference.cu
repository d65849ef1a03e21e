// GPU reference for lstm_cell: two tiled GEMMs into a gate scratch (the second adds the first
// in its epilogue), then one coalesced pointwise kernel for the cell update.
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

extern "C" __global__ void gates_x(const float* __restrict__ X, const float* __restrict__ W, const float* __restrict__ b1, const float* __restrict__ b2, float* __restrict__ Y,
                                  int M, int K, int N) {
  __shared__ float Xs[32][33];
  __shared__ float Ws[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int k = k0 + tx;
    for (int r = ty; r < 32; r += 8) {
      Xs[r][tx] = (row0 + r < M && k < K) ? (X[(int64_t)(row0 + r) * K + k]) : 0.f;
      Ws[r][tx] = (col0 + r < N && k < K) ? (W[(int64_t)(col0 + r) * K + k]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < 32; ++kk) {
      const float w = Ws[tx][kk];
      for (int q = 0; q < 4; ++q) acc[q] = fmaf(Xs[ty + q * 8][kk], w, acc[q]);
    }
    __syncthreads();
  }
  const int c = col0 + tx;
  for (int q = 0; q < 4; ++q) {
    const int r = row0 + ty + q * 8;
    if (r < M && c < N) {
      const float v = acc[q];
      Y[(int64_t)r * N + c] = (v + b1[c] + b2[c]);
    }
  }
}

extern "C" __global__ void gates_h(const float* __restrict__ X, const float* __restrict__ W, const float* __restrict__ prev, float* __restrict__ Y,
                                  int M, int K, int N) {
  __shared__ float Xs[32][33];
  __shared__ float Ws[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int k = k0 + tx;
    for (int r = ty; r < 32; r += 8) {
      Xs[r][tx] = (row0 + r < M && k < K) ? (X[(int64_t)(row0 + r) * K + k]) : 0.f;
      Ws[r][tx] = (col0 + r < N && k < K) ? (W[(int64_t)(col0 + r) * K + k]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < 32; ++kk) {
      const float w = Ws[tx][kk];
      for (int q = 0; q < 4; ++q) acc[q] = fmaf(Xs[ty + q * 8][kk], w, acc[q]);
    }
    __syncthreads();
  }
  const int c = col0 + tx;
  for (int q = 0; q < 4; ++q) {
    const int r = row0 + ty + q * 8;
    if (r < M && c < N) {
      const float v = acc[q];
      Y[(int64_t)r * N + c] = (v + prev[(int64_t)r * N + c]);
    }
  }
}
extern "C" __global__ void lstm_pointwise(const float* __restrict__ G, const float* __restrict__ c, float* __restrict__ h1,
                                          float* __restrict__ c1, int64_t B, int64_t Hd) {
  const int64_t n = B * Hd, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int64_t b = i / Hd, u = i % Hd;
    const float* g = G + b * 4 * Hd + u;
    const float ig = sigmoid_f(g[0]), fg = sigmoid_f(g[Hd]), gg = tanhf(g[2 * Hd]), og = sigmoid_f(g[3 * Hd]);
    const float cn = fg * c[i] + ig * gg;
    c1[i] = cn;
    h1[i] = og * tanhf(cn);
  }
}

/*@launch
scratch:
  gx: {dtype: f32, count: B * 4 * Hd}
  g: {dtype: f32, count: B * 4 * Hd}
launches:
- kernel: gates_x
  grid: [ceil_div(4 * Hd, 32), ceil_div(B, 32)]
  block: [32, 8]
  args: [x, Wih, bih, bhh, gx, i32(B), i32(I), i32(4 * Hd)]
- kernel: gates_h
  grid: [ceil_div(4 * Hd, 32), ceil_div(B, 32)]
  block: [32, 8]
  args: [h, Whh, gx, g, i32(B), i32(Hd), i32(4 * Hd)]
- kernel: lstm_pointwise
  grid: min(ceil_div(B * Hd, 256), sm_count * 8)
  block: 256
  args: [g, c, h1, c1, i64(B), i64(Hd)]
@*/
