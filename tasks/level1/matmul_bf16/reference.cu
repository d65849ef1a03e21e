// GPU reference for matmul_bf16: 128 x 128 output tiles per block of 256 threads, staged
// through shared memory in 32-wide K steps; every edge is guarded for any M, N, K (tiles
// past an edge are zero-filled, stores are bounds-checked).
// CUDA: tensor cores, the baseline a competent bf16 GEMM starts from: mma.sync m16n8k16
// with bf16 inputs and f32 accumulators, fed by ldmatrix (inline PTX, what WMMA compiles
// to: <mma.h> cannot be included, the same source goes through hiprtc, which refuses it). 8
// warps as 2 x 4, each owning a 64 x 32 sub-tile (4 x 4 fragments of 16 x 8). Two
// shared-memory stages: the next K step's tiles are fetched into registers (16-byte loads
// where rows are 16-byte aligned, else guarded scalar loads) while the current one is
// multiplied. Accumulators are rounded once to bf16 and stored from registers,
// bounds-checked.
// HIP (hiprtc, no tensor-core PTX): the same tiles and launch with f32 FMAs, each thread
// holding an 8 x 8 block of outputs (rows ty + 16 p, columns tx + 16 q).
// f32 accumulation on both.
#define BM 128
#define BN 128

#if defined(CRU_CUDA)

#define BK 32
#define LDA (BK + 8)  // As row stride, elements: 80 bytes, 16-byte rows for ldmatrix, no bank conflicts
#define LDB (BN + 8)  // Bs row stride: 272 bytes, the same

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
// l % 8 of matrix l / 8. trans: each thread gets a column pair instead of a row pair.
__device__ __forceinline__ void ldsm_x4(unsigned int r[4], const unsigned short* p) {
  const unsigned int a = (unsigned int)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(a)
               : "memory");
}
__device__ __forceinline__ void ldsm_x4_trans(unsigned int r[4], const unsigned short* p) {
  const unsigned int a = (unsigned int)__cvta_generic_to_shared(p);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
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

extern "C" __global__ void __launch_bounds__(256, 2) matmul_bf16_ref(const __nv_bfloat16* __restrict__ A,
                                                                     const __nv_bfloat16* __restrict__ B,
                                                                     __nv_bfloat16* __restrict__ C, int M, int K, int N) {
  __shared__ __align__(128) unsigned short As[2][BM * LDA];  // As[s][m * LDA + k]: A's bf16 bits
  __shared__ __align__(128) unsigned short Bs[2][BK * LDB];  // Bs[s][k * LDB + n]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / 4, wn = warp % 4;  // the warp's sub-tile: rows wm * 64, columns wn * 32
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const unsigned short* Ag = reinterpret_cast<const unsigned short*>(A);
  const unsigned short* Bg = reinterpret_cast<const unsigned short*>(B);
  const bool avec = K % 8 == 0 && ((unsigned long long)A & 15) == 0;
  const bool bvec = N % 8 == 0 && ((unsigned long long)B & 15) == 0;

  // Each thread moves two 8-element chunks of the 128 x 32 A tile (rows ar, ar + 64 at k ak)
  // and two of the 32 x 128 B tile (rows br, br + 16 at column bn).
  const int ar = tid / (BK / 8), ak = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bn = tid % (BN / 8) * 8;
  uint4 ra[2], rb[2];

  float acc[4][4][4];  // [16-row block i][8-column block j][mma accumulator element]
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.f;

  for (int l = 0; l < 2; ++l) {
    ra[l] = load8(Ag, m0 + ar + 64 * l, M, ak, K, avec);
    rb[l] = load8(Bg, br + 16 * l, K, n0 + bn, N, bvec);
  }
  for (int l = 0; l < 2; ++l) {
    *reinterpret_cast<uint4*>(&As[0][(ar + 64 * l) * LDA + ak]) = ra[l];
    *reinterpret_cast<uint4*>(&Bs[0][(br + 16 * l) * LDB + bn]) = rb[l];
  }
  __syncthreads();

  int s = 0;
  for (int k0 = 0; k0 < K; k0 += BK, s ^= 1) {
    const bool more = K - k0 > BK;  // the same for the whole block
    if (more)                       // next tiles into registers, in flight during the MMAs
      for (int l = 0; l < 2; ++l) {
        ra[l] = load8(Ag, m0 + ar + 64 * l, M, k0 + BK + ak, K, avec);
        rb[l] = load8(Bg, k0 + BK + br + 16 * l, K, n0 + bn, N, bvec);
      }
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      unsigned int fa[4][4], fb[4][2];
#pragma unroll
      for (int i = 0; i < 4; ++i)  // rows 0-7 / 8-15 at k 0-7, then at k 8-15: a0..a3 of the mma
        ldsm_x4(fa[i], &As[s][(wm * 64 + i * 16 + (lane & 15)) * LDA + kk + (lane >> 4) * 8]);
#pragma unroll
      for (int j = 0; j < 2; ++j) {  // k 0-7 / 8-15 at columns 0-7, then at columns 8-15, transposed
        unsigned int r[4];
        ldsm_x4_trans(r, &Bs[s][(kk + (lane & 15)) * LDB + wn * 32 + j * 16 + (lane >> 4) * 8]);
        fb[2 * j][0] = r[0], fb[2 * j][1] = r[1], fb[2 * j + 1][0] = r[2], fb[2 * j + 1][1] = r[3];
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) mma16816(acc[i][j], fa[i], fb[j]);
    }
    if (more)  // into the other stage: its last readers passed the previous barrier
      for (int l = 0; l < 2; ++l) {
        *reinterpret_cast<uint4*>(&As[s ^ 1][(ar + 64 * l) * LDA + ak]) = ra[l];
        *reinterpret_cast<uint4*>(&Bs[s ^ 1][(br + 16 * l) * LDB + bn]) = rb[l];
      }
    __syncthreads();
  }

  // Accumulator element e of (i, j) is row i * 16 + lane / 4 (+ 8 for e >= 2), column
  // j * 8 + 2 (lane % 4) (+ 1 for odd e) of the warp's sub-tile: column pairs, stored as
  // one 4-byte word where N is even.
  const bool cvec = N % 2 == 0 && ((unsigned long long)C & 3) == 0;
  unsigned short* Cg = reinterpret_cast<unsigned short*>(C);
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
        const unsigned short lo = __bfloat16_as_ushort(__float2bfloat16(acc[i][j][2 * h]));
        const unsigned short hi = __bfloat16_as_ushort(__float2bfloat16(acc[i][j][2 * h + 1]));
        unsigned short* q = Cg + (int64_t)gm * N + gn;
        if (cvec) {
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

extern "C" __global__ void __launch_bounds__(256) matmul_bf16_ref(const __nv_bfloat16* __restrict__ A,
                                                                  const __nv_bfloat16* __restrict__ B,
                                                                  __nv_bfloat16* __restrict__ C, int M, int K, int N) {
  __shared__ float As[BK][BM + 1];  // As[k][m]; the +1 spreads transposing stores over banks
  __shared__ float Bs[BK][BN + 1];  // Bs[k][n]
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[8][8];
  for (int p = 0; p < 8; ++p)
    for (int q = 0; q < 8; ++q) acc[p][q] = 0.f;

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int l = 0; l < 8; ++l) {  // 128 x 16 of A and 16 x 128 of B: 8 elements per thread each
      const int e = tid + 256 * l;
      const int am = e / BK, ak = e % BK;
      const int gm = m0 + am, gk = k0 + ak;
      As[ak][am] = (gm < M && gk < K) ? __bfloat162float(A[(int64_t)gm * K + gk]) : 0.f;
      const int bk = e / BN, bn = e % BN;
      const int hk = k0 + bk, gn = n0 + bn;
      Bs[bk][bn] = (hk < K && gn < N) ? __bfloat162float(B[(int64_t)hk * N + gn]) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[8], b[8];
      for (int p = 0; p < 8; ++p) a[p] = As[k][ty + 16 * p];
      for (int q = 0; q < 8; ++q) b[q] = Bs[k][tx + 16 * q];
      for (int p = 0; p < 8; ++p)
        for (int q = 0; q < 8; ++q) acc[p][q] = fmaf(a[p], b[q], acc[p][q]);
    }
    __syncthreads();
  }
  for (int p = 0; p < 8; ++p) {
    const int gm = m0 + ty + 16 * p;
    if (gm >= M) continue;
    for (int q = 0; q < 8; ++q) {  // 16 consecutive columns per row
      const int gn = n0 + tx + 16 * q;
      if (gn < N) C[(int64_t)gm * N + gn] = __float2bfloat16(acc[p][q]);
    }
  }
}

#endif

/*@launch
launches:
  - kernel: matmul_bf16_ref
    grid: [ceil_div(N, 128), ceil_div(M, 128)]
    block: 256
    args: [A, B, C, i32(M), i32(K), i32(N)]
@*/
