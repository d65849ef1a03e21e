// GPU reference for gemm_bias_gelu_bf16: one tiled GEMM with the bias and the GELU epilogue
// fused into the store: one launch, y written once. 128 x 128 output tiles per block of 256
// threads, staged through shared memory in 32-wide K steps; every edge is guarded for any
// M, N, K (tiles past an edge are zero-filled, stores are bounds-checked).
// CUDA: tensor cores, the baseline a competent bf16 linear layer starts from: mma.sync
// m16n8k16 with bf16 inputs and f32 accumulators, fed by ldmatrix (inline PTX, what WMMA
// compiles to: <mma.h> cannot be included, the same source goes through hiprtc, which
// refuses it). x and W are both K-contiguous, so both tiles are stored [row][k] and W's is
// read as the column-major B operand. 8 warps as 2 x 4, each owning a 64 x 32 sub-tile (4 x
// 4 fragments of 16 x 8). Two shared-memory stages: the next K step's tiles are fetched
// into registers (16-byte loads where rows are 16-byte aligned, else guarded scalar loads)
// while the current one is multiplied. The epilogue (bias, GELU) runs in f32 on the
// accumulators, rounded once to bf16.
// HIP (hiprtc, no tensor-core PTX): the same tiles and launch with f32 FMAs, each thread
// holding an 8 x 8 block of outputs (rows ty + 16 p, columns tx + 16 q).
// f32 accumulation on both.
#define BM 128
#define BN 128

__device__ __forceinline__ float gelu_f(float v) { return 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); }

#if defined(CRU_CUDA)

#define BK 32
#define LDS (BK + 8)  // row stride of both tiles, elements: 80 bytes, 16-byte rows for ldmatrix, no bank conflicts

// Elements [col, col + 8) of row `row` of a rows x cols row-major matrix of 16-bit values,
// zeros outside it. vec: cols % 8 == 0 and the base is 16-byte aligned, so one 16-byte load.
__device__ __forceinline__ uint4 load8(const unsigned short* __restrict__ p, int row, int rows, int col, int cols,
                                       bool vec) {
  if (row >= rows || col >= cols) return make_uint4(0u, 0u, 0u, 0u);
  const unsigned short* q = p + (int64_t)row * cols + col;
  if (vec && col + 8 <= cols) return __ldg(reinterpret_cast<const uint4*>(q));
  unsigned int w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
  for (int e = 0; e < 8; ++e)
    if (col + e < cols) w[e >> 1] |= (unsigned int)q[e] << (16 * (e & 1));
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// Four 8 x 8 matrices of 16-bit values from shared memory; lane l gives the address of row
// l % 8 of matrix l / 8, and gets the row pair (l / 4, 2 (l % 4) + {0, 1}) of each.
__device__ __forceinline__ void ldsm_x4(unsigned int r[4], const unsigned short* p) {
  const unsigned int a = (unsigned int)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(a)
               : "memory");
}
// c (16 x 8, f32) += a (16 x 16, row-major) * b (16 x 8, column-major), bf16 inputs.
__device__ __forceinline__ void mma16816(float c[4], const unsigned int a[4], const unsigned int b[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

extern "C" __global__ void __launch_bounds__(256, 2) gemm_bias_gelu_bf16_ref(const __nv_bfloat16* __restrict__ X,
                                                                             const __nv_bfloat16* __restrict__ W,
                                                                             const __nv_bfloat16* __restrict__ b,
                                                                             __nv_bfloat16* __restrict__ Y, int M, int K, int N) {
  __shared__ __align__(128) unsigned short Xs[2][BM * LDS];  // Xs[s][m * LDS + k]: x's bf16 bits
  __shared__ __align__(128) unsigned short Ws[2][BN * LDS];  // Ws[s][n * LDS + k]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / 4, wn = warp % 4;  // the warp's sub-tile: rows wm * 64, columns wn * 32
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const unsigned short* Xg = reinterpret_cast<const unsigned short*>(X);
  const unsigned short* Wg = reinterpret_cast<const unsigned short*>(W);
  const bool xvec = K % 8 == 0 && ((unsigned long long)X & 15) == 0;
  const bool wvec = K % 8 == 0 && ((unsigned long long)W & 15) == 0;

  // Each thread moves two 8-element chunks of each 128 x 32 tile: rows tr, tr + 64 at k tk.
  const int tr = tid / (BK / 8), tk = tid % (BK / 8) * 8;
  uint4 rx[2], rw[2];

  float acc[4][4][4];  // [16-row block i][8-column block j][mma accumulator element]
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

  for (int l = 0; l < 2; ++l) {
    rx[l] = load8(Xg, m0 + tr + 64 * l, M, tk, K, xvec);
    rw[l] = load8(Wg, n0 + tr + 64 * l, N, tk, K, wvec);
  }
  for (int l = 0; l < 2; ++l) {
    *reinterpret_cast<uint4*>(&Xs[0][(tr + 64 * l) * LDS + tk]) = rx[l];
    *reinterpret_cast<uint4*>(&Ws[0][(tr + 64 * l) * LDS + tk]) = rw[l];
  }
  __syncthreads();

  int s = 0;
  for (int k0 = 0; k0 < K; k0 += BK, s ^= 1) {
    const bool more = K - k0 > BK;  // the same for the whole block
    if (more)                       // next tiles into registers, in flight during the MMAs
      for (int l = 0; l < 2; ++l) {
        rx[l] = load8(Xg, m0 + tr + 64 * l, M, k0 + BK + tk, K, xvec);
        rw[l] = load8(Wg, n0 + tr + 64 * l, N, k0 + BK + tk, K, wvec);
      }
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned int fa[4][4], fb[4][2];
#pragma unroll
      for (int i = 0; i < 4; ++i)  // rows 0-7 / 8-15 at k 0-7, then at k 8-15: a0..a3 of the mma
        ldsm_x4(fa[i], &Xs[s][(wm * 64 + i * 16 + (lane & 15)) * LDS + kk + (lane >> 4) * 8]);
#pragma unroll
      for (int j = 0; j < 2; ++j) {  // columns 0-7 at k 0-7 / 8-15, then columns 8-15: b0, b1 of two mmas
        unsigned int r[4];
        ldsm_x4(r, &Ws[s][(wn * 32 + j * 16 + (lane & 7) + (lane >> 4) * 8) * LDS + kk + ((lane >> 3) & 1) * 8]);
        fb[2 * j][0] = r[0], fb[2 * j][1] = r[1], fb[2 * j + 1][0] = r[2], fb[2 * j + 1][1] = r[3];
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) mma16816(acc[i][j], fa[i], fb[j]);
    }
    if (more)  // into the other stage: its last readers passed the previous barrier
      for (int l = 0; l < 2; ++l) {
        *reinterpret_cast<uint4*>(&Xs[s ^ 1][(tr + 64 * l) * LDS + tk]) = rx[l];
        *reinterpret_cast<uint4*>(&Ws[s ^ 1][(tr + 64 * l) * LDS + tk]) = rw[l];
      }
    __syncthreads();
  }

  // Accumulator element e of (i, j) is row i * 16 + lane / 4 (+ 8 for e >= 2), column
  // j * 8 + 2 (lane % 4) (+ 1 for odd e) of the warp's sub-tile: column pairs, stored as
  // one 4-byte word where N is even.
  const bool yvec = N % 2 == 0 && ((unsigned long long)Y & 3) == 0;
  unsigned short* Yg = reinterpret_cast<unsigned short*>(Y);
  float bias[4][2];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int gn = n0 + wn * 32 + j * 8 + 2 * (lane % 4);
    bias[j][0] = gn < N ? __bfloat162float(b[gn]) : 0.f;
    bias[j][1] = gn + 1 < N ? __bfloat162float(b[gn + 1]) : 0.f;
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int gm = m0 + wm * 64 + i * 16 + lane / 4 + h * 8;
      if (gm >= M) continue;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int gn = n0 + wn * 32 + j * 8 + 2 * (lane % 4);
        if (gn >= N) continue;
        const unsigned short lo = __bfloat16_as_ushort(__float2bfloat16(gelu_f(acc[i][j][2 * h] + bias[j][0])));
        const unsigned short hi = __bfloat16_as_ushort(__float2bfloat16(gelu_f(acc[i][j][2 * h + 1] + bias[j][1])));
        unsigned short* q = Yg + (int64_t)gm * N + gn;
        if (yvec) {
          *reinterpret_cast<unsigned int*>(q) = (unsigned int)lo | ((unsigned int)hi << 16);
        } else {
          q[0] = lo;
          if (gn + 1 < N) q[1] = hi;
        }
      }
    }
}

#else  // HIP: f32 FMAs on the same 128 x 128 tiles

#define BK 16

extern "C" __global__ void __launch_bounds__(256) gemm_bias_gelu_bf16_ref(const __nv_bfloat16* __restrict__ X,
                                                                          const __nv_bfloat16* __restrict__ W,
                                                                          const __nv_bfloat16* __restrict__ b,
                                                                          __nv_bfloat16* __restrict__ Y, int M, int K, int N) {
  __shared__ float Xs[BK][BM + 1];  // Xs[k][m]; the +1 spreads transposing stores over banks
  __shared__ float Ws[BK][BN + 1];  // Ws[k][n] = W[n][k]
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[8][8];
  for (int p = 0; p < 8; ++p)
    for (int q = 0; q < 8; ++q) acc[p][q] = 0.f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int l = 0; l < 8; ++l) {  // 128 x 16 of x and of W: 8 elements per thread each, k fastest
      const int e = tid + 256 * l;
      const int r = e / BK, kk = e % BK, gk = k0 + kk;
      const int gm = m0 + r, gn = n0 + r;
      Xs[kk][r] = (gm < M && gk < K) ? __bfloat162float(X[(int64_t)gm * K + gk]) : 0.f;
      Ws[kk][r] = (gn < N && gk < K) ? __bfloat162float(W[(int64_t)gn * K + gk]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[8], w[8];
      for (int p = 0; p < 8; ++p) a[p] = Xs[k][ty + 16 * p];
      for (int q = 0; q < 8; ++q) w[q] = Ws[k][tx + 16 * q];
      for (int p = 0; p < 8; ++p)
        for (int q = 0; q < 8; ++q) acc[p][q] = fmaf(a[p], w[q], acc[p][q]);
    }
    __syncthreads();
  }
  for (int q = 0; q < 8; ++q) {
    const int gn = n0 + tx + 16 * q;
    if (gn >= N) continue;
    const float bn = __bfloat162float(b[gn]);
    for (int p = 0; p < 8; ++p) {
      const int gm = m0 + ty + 16 * p;
      if (gm < M) Y[(int64_t)gm * N + gn] = __float2bfloat16(gelu_f(acc[p][q] + bn));
    }
  }
}

#endif

/*@launch
launches:
- kernel: gemm_bias_gelu_bf16_ref
  grid: [ceil_div(N, 128), ceil_div(M, 128)]
  block: 256
  args: [x, W, b, y, i32(M), i32(K), i32(N)]
@*/
