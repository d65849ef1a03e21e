// GPU reference for lstm_cell: two tiled GEMMs into gate scratch (the first adds both biases,
// the second adds the first's result in its store), then one coalesced pointwise kernel for the
// gates and the cell update.
// The GEMM (gemm_tile) is register-blocked: 128 x 128 output tiles per block of 256 threads,
// each thread holding an 8 x 8 block of outputs, so every shared-memory value read feeds
// eight FMAs and the FMA units, not shared memory, set the pace (the 32 x 32 tile it replaces
// ran ~4x slower than PyTorch eager on H200). Each partial GEMM is one f32 fmaf chain over k in
// increasing order, combined as before: results are bitwise unchanged.
__device__ __forceinline__ float sigmoid_f(float v) { return 1.f / (1.f + expf(-v)); }

// The GEMM: X (M x K) times W^T (W is N x K, nn.Linear's layout), 128 x 128 output tiles per
// block of 256 threads (tx = tid % 16, ty = tid / 16), K staged through shared memory 16 at
// a time. Thread (tx, ty) owns rows ty * 4 + {0..3} and 64 + ty * 4 + {0..3}, columns
// tx * 4 + {0..3} and 64 + tx * 4 + {0..3} of the tile; per k it reads them as four 16-byte
// shared loads (the two of X are broadcasts within a warp, the two of W contiguous: no bank
// conflicts) and does 64 FMAs. Both tiles are stored k-major (Xs[k][m], Ws[k][n]), rows padded
// to 132 floats (16-byte aligned). Loads: 16 consecutive threads read 16 consecutive k of one
// row (coalesced), 8 rows of X and 8 of W per thread per K step, fetched into registers while
// the previous step's FMAs run. Partial tiles are zero-filled and stores bounds-checked, so any
// M, K, N works. Each output is one f32 fmaf chain over k in increasing order, from 0.
// Launch bounds (256, 2): at most 128 registers (no spills on sm_90), two blocks per SM.
#define GEMM_BM 128
#define GEMM_BN 128
#define GEMM_BK 16
#define GEMM_LD (GEMM_BM + 4)

// v[l] = P[r0 + 16 l][k] of a rows x K row-major matrix, 0 outside it.
__device__ __forceinline__ void gemm_fetch(const float* __restrict__ P, int rows, int K, int r0, int k, float v[8]) {
#pragma unroll
  for (int l = 0; l < 8; ++l) {
    const int r = r0 + 16 * l;
    v[l] = (r < rows && k < K) ? P[(int64_t)r * K + k] : 0.f;
  }
}

// Tile offsets of the row of acc[i][.] and the column of acc[.][j] for this thread.
__device__ __forceinline__ int gemm_row(int i) { return (i >> 2) * 64 + (int)(threadIdx.x >> 4) * 4 + (i & 3); }
__device__ __forceinline__ int gemm_col(int j) { return (j >> 2) * 64 + (int)(threadIdx.x & 15) * 4 + (j & 3); }

// acc[i][j] = sum over k of X[m0 + gemm_row(i)][k] * W[n0 + gemm_col(j)][k] (0 past the edges).
__device__ __forceinline__ void gemm_tile(const float* __restrict__ X, const float* __restrict__ W, int M, int K,
                                          int N, int m0, int n0, float acc[8][8]) {
  __shared__ __align__(16) float Xs[GEMM_BK][GEMM_LD];  // Xs[k][m - m0]
  __shared__ __align__(16) float Ws[GEMM_BK][GEMM_LD];  // Ws[k][n - n0]
  const int tid = threadIdx.x;
  const int tx = tid & 15, ty = tid >> 4;  // compute: the 8 x 8 block above
  const int lk = tid & 15, lr = tid >> 4;  // loads: column lk of tile rows lr + 16 l
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  float ra[8], rb[8];
  gemm_fetch(X, M, K, m0 + lr, lk, ra);
  gemm_fetch(W, N, K, n0 + lr, lk, rb);
  for (int k0 = 0; k0 < K; k0 += GEMM_BK) {
#pragma unroll
    for (int l = 0; l < 8; ++l) {
      Xs[lk][lr + 16 * l] = ra[l];
      Ws[lk][lr + 16 * l] = rb[l];
    }
    __syncthreads();
    if (k0 + GEMM_BK < K) {  // the next K step, in flight during this one's FMAs
      gemm_fetch(X, M, K, m0 + lr, k0 + GEMM_BK + lk, ra);
      gemm_fetch(W, N, K, n0 + lr, k0 + GEMM_BK + lk, rb);
    }
#pragma unroll
    for (int k = 0; k < GEMM_BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&Xs[k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&Xs[k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Ws[k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Ws[k][64 + tx * 4]);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();  // everyone is done with the tiles before the next step overwrites them
  }
}

// Y = X·W^T + b1 + b2 (M x N).
extern "C" __global__ void __launch_bounds__(256, 2) gates_x(const float* __restrict__ X, const float* __restrict__ W, const float* __restrict__ b1,
                                                             const float* __restrict__ b2, float* __restrict__ Y, int M, int K, int N) {
  const int m0 = blockIdx.y * GEMM_BM, n0 = blockIdx.x * GEMM_BN;
  float acc[8][8];
  gemm_tile(X, W, M, K, N, m0, n0, acc);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int r = m0 + gemm_row(i);
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < 8; ++j) {  // over j, the 16 threads of a row cover 64 consecutive columns
      const int c = n0 + gemm_col(j);
      if (c < N) Y[(int64_t)r * N + c] = (acc[i][j] + b1[c] + b2[c]);
    }
  }
}

// Y = X·W^T + prev (M x N).
extern "C" __global__ void __launch_bounds__(256, 2) gates_h(const float* __restrict__ X, const float* __restrict__ W, const float* __restrict__ prev,
                                                             float* __restrict__ Y, int M, int K, int N) {
  const int m0 = blockIdx.y * GEMM_BM, n0 = blockIdx.x * GEMM_BN;
  float acc[8][8];
  gemm_tile(X, W, M, K, N, m0, n0, acc);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int r = m0 + gemm_row(i);
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int c = n0 + gemm_col(j);
      if (c < N) Y[(int64_t)r * N + c] = (acc[i][j] + prev[(int64_t)r * N + c]);
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
  grid: [ceil_div(4 * Hd, 128), ceil_div(B, 128)]
  block: 256
  args: [x, Wih, bih, bhh, gx, i32(B), i32(I), i32(4 * Hd)]
- kernel: gates_h
  grid: [ceil_div(4 * Hd, 128), ceil_div(B, 128)]
  block: 256
  args: [h, Whh, gx, g, i32(B), i32(Hd), i32(4 * Hd)]
- kernel: lstm_pointwise
  grid: min(ceil_div(B * Hd, 256), sm_count * 8)
  block: 256
  args: [g, c, h1, c1, i64(B), i64(Hd)]
@*/
