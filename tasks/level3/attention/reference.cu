// GPU reference for attention: three launches, the heavy two register-blocked GEMMs.
//   1. attn_scores:  P = Q·K^T / sqrt(D) per (b, h) (K is S x D: an nn.Linear-style A·B^T), into
//      a scratch of B*Hh*S*S floats.
//   2. attn_softmax: one warp per row of P, in place: max, then e = exp(s - max) written back and
//      summed; 1 / sum goes to a second scratch (numerically stable softmax, unnormalised).
//   3. attn_output:  O = P·V (V is S x D, a plain A·B) per (b, h), each row scaled by its 1 / sum.
// Why: the previous one-block-per-query kernel (warp dot products, K and V re-read per query) ran
// at ~6x the time of PyTorch eager; the GEMM tile (gemm_tile) holds 128 x 128 outputs per block
// of 256 threads, 8 x 8 per thread, so every shared-memory value read feeds eight FMAs and the
// FMA units set the pace. The (b, h) index is folded into blockIdx.x with the tiles of one head adjacent, so any
// B * Hh works (no gridDim.z limit) and a head's Q, K, V tiles are reused from L2. All offsets
// into the S x S and S x D slices of a head are 64-bit.
#define NEG_BIG (-3.402823466e+38f)

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v = fmaxf(v, cru_shfl_xor(v, o));
  return v;
}

// The GEMM: A (M x K, row-major) times B, where B is N x K (KN = false: A·B^T, nn.Linear's
// layout) or K x N (KN = true: plain A·B), 128 x 128 output tiles per block of 256 threads
// (tx = tid % 16, ty = tid / 16), K staged through shared memory 16 at a time. Thread (tx, ty)
// owns rows ty * 4 + {0..3} and 64 + ty * 4 + {0..3}, columns tx * 4 + {0..3} and
// 64 + tx * 4 + {0..3} of the tile; per k it reads them as four 16-byte shared loads (the two
// of A are broadcasts within a warp, the two of B contiguous: no bank conflicts) and does 64
// FMAs. Both tiles are stored k-major (As[k][m], Bs[k][n]), rows padded to 132 floats (16-byte
// aligned). Loads: A and an N x K B: 16 consecutive threads read 16 consecutive k of one row;
// a K x N B: 128 consecutive threads read 128 consecutive n of one k row (coalesced either
// way); 8 values of each per thread per K step, fetched into registers while the previous
// step's FMAs run. Partial tiles are zero-filled and stores bounds-checked, so any M, K, N
// works. Each output is one f32 fmaf chain over k in increasing order, from 0.
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
// v[l] = P[k0 + 2 l][n] of a K x N row-major matrix, 0 outside it.
__device__ __forceinline__ void gemm_fetch_kn(const float* __restrict__ P, int K, int N, int k0, int n, float v[8]) {
#pragma unroll
  for (int l = 0; l < 8; ++l) {
    const int k = k0 + 2 * l;
    v[l] = (k < K && n < N) ? P[(int64_t)k * N + n] : 0.f;
  }
}

// Tile offsets of the row of acc[i][.] and the column of acc[.][j] for this thread.
__device__ __forceinline__ int gemm_row(int i) { return (i >> 2) * 64 + (int)(threadIdx.x >> 4) * 4 + (i & 3); }
__device__ __forceinline__ int gemm_col(int j) { return (j >> 2) * 64 + (int)(threadIdx.x & 15) * 4 + (j & 3); }

// acc[i][j] = sum over k of A[m0 + gemm_row(i)][k] * B(k, n0 + gemm_col(j)) (0 past the edges).
template <bool KN>
__device__ __forceinline__ void gemm_tile(const float* __restrict__ A, const float* __restrict__ B, int M, int K,
                                          int N, int m0, int n0, float acc[8][8]) {
  __shared__ __align__(16) float As[GEMM_BK][GEMM_LD];  // As[k][m - m0]
  __shared__ __align__(16) float Bs[GEMM_BK][GEMM_LD];  // Bs[k][n - n0]
  const int tid = threadIdx.x;
  const int tx = tid & 15, ty = tid >> 4;  // compute: the 8 x 8 block above
  const int lk = tid & 15, lr = tid >> 4;  // loads of A (and an N x K B): column lk of tile rows lr + 16 l
  const int bn = tid & 127, bk = tid >> 7;  // loads of a K x N B: column bn of tile k rows bk + 2 l
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  float ra[8], rb[8];
  gemm_fetch(A, M, K, m0 + lr, lk, ra);
  if (KN) gemm_fetch_kn(B, K, N, bk, n0 + bn, rb);
  else gemm_fetch(B, N, K, n0 + lr, lk, rb);
  for (int k0 = 0; k0 < K; k0 += GEMM_BK) {
#pragma unroll
    for (int l = 0; l < 8; ++l) {
      As[lk][lr + 16 * l] = ra[l];
      if (KN) Bs[bk + 2 * l][bn] = rb[l];
      else Bs[lk][lr + 16 * l] = rb[l];
    }
    __syncthreads();
    if (k0 + GEMM_BK < K) {  // the next K step, in flight during this one's FMAs
      gemm_fetch(A, M, K, m0 + lr, k0 + GEMM_BK + lk, ra);
      if (KN) gemm_fetch_kn(B, K, N, k0 + GEMM_BK + bk, n0 + bn, rb);
      else gemm_fetch(B, N, K, n0 + lr, k0 + GEMM_BK + lk, rb);
    }
#pragma unroll
    for (int k = 0; k < GEMM_BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[k][64 + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[k][64 + tx * 4]);
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

// Launch 1: P[bh][i][j] = (Q[bh][i] . K[bh][j]) * rsqrt(D). blockIdx.x = (bh * tiles + tm) * tiles + tn.
extern "C" __global__ void __launch_bounds__(256, 2) attn_scores(const float* __restrict__ Q, const float* __restrict__ K,
                                                                 float* __restrict__ P, int S, int D) {
  const int tiles = (S + GEMM_BM - 1) / GEMM_BM;
  const int64_t t = blockIdx.x;
  const int tn = (int)(t % tiles), tm = (int)((t / tiles) % tiles);
  const int64_t bh = t / ((int64_t)tiles * tiles);
  const int m0 = tm * GEMM_BM, n0 = tn * GEMM_BN;
  float acc[8][8];
  gemm_tile<false>(Q + bh * S * D, K + bh * S * D, S, D, S, m0, n0, acc);
  const float scale = rsqrtf((float)D);
  float* __restrict__ Ph = P + bh * S * S;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int r = m0 + gemm_row(i);
    if (r >= S) continue;
#pragma unroll
    for (int j = 0; j < 8; ++j) {  // over j, the 16 threads of a row cover 64 consecutive columns
      const int c = n0 + gemm_col(j);
      if (c < S) Ph[(int64_t)r * S + c] = acc[i][j] * scale;
    }
  }
}

// Launch 2: for each of the rows rows of P (length S), one warp: m = max, p = exp(p - m) in
// place, rinv[row] = 1 / sum of p.
extern "C" __global__ void attn_softmax(float* __restrict__ P, float* __restrict__ rinv, int64_t rows, int S) {
  const int lane = threadIdx.x % CRU_WARP_SIZE;
  const int64_t wpb = blockDim.x / CRU_WARP_SIZE;
  for (int64_t row = blockIdx.x * wpb + threadIdx.x / CRU_WARP_SIZE; row < rows; row += (int64_t)gridDim.x * wpb) {
    float* __restrict__ p = P + row * S;
    float m = NEG_BIG;
    for (int j = lane; j < S; j += CRU_WARP_SIZE) m = fmaxf(m, p[j]);
    m = warp_max(m);
    float sum = 0.f;
    for (int j = lane; j < S; j += CRU_WARP_SIZE) {
      const float e = expf(p[j] - m);
      p[j] = e;
      sum += e;
    }
    sum = warp_sum(sum);
    if (lane == 0) rinv[row] = 1.f / sum;
  }
}

// Launch 3: O[bh][i][d] = (sum over j of P[bh][i][j] * V[bh][j][d]) * rinv[bh * S + i].
// blockIdx.x = (bh * tilesM + tm) * tilesN + tn.
extern "C" __global__ void __launch_bounds__(256, 2) attn_output(const float* __restrict__ P, const float* __restrict__ V,
                                                                 const float* __restrict__ rinv, float* __restrict__ O, int S, int D) {
  const int tilesM = (S + GEMM_BM - 1) / GEMM_BM, tilesN = (D + GEMM_BN - 1) / GEMM_BN;
  const int64_t t = blockIdx.x;
  const int tn = (int)(t % tilesN), tm = (int)((t / tilesN) % tilesM);
  const int64_t bh = t / ((int64_t)tilesM * tilesN);
  const int m0 = tm * GEMM_BM, n0 = tn * GEMM_BN;
  const int64_t head = bh * S * D;
  float* __restrict__ Oh = O + head;
  float acc[8][8];
  gemm_tile<true>(P + bh * S * S, V + head, S, S, D, m0, n0, acc);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int r = m0 + gemm_row(i);
    if (r >= S) continue;
    const float inv = rinv[bh * S + r];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const int c = n0 + gemm_col(j);
      if (c < D) Oh[(int64_t)r * D + c] = acc[i][j] * inv;
    }
  }
}

/*@launch
scratch:
  P: {dtype: f32, count: B * Hh * S * S}
  rinv: {dtype: f32, count: B * Hh * S}
launches:
- kernel: attn_scores
  grid: ceil_div(S, 128) * ceil_div(S, 128) * B * Hh
  block: 256
  args: [Q, K, P, i32(S), i32(D)]
- kernel: attn_softmax
  grid: ceil_div(B * Hh * S * warp_size, 256)
  block: 256
  args: [P, rinv, i64(B * Hh * S), i32(S)]
- kernel: attn_output
  grid: ceil_div(S, 128) * ceil_div(D, 128) * B * Hh
  block: 256
  args: [P, V, rinv, O, i32(S), i32(D)]
@*/
