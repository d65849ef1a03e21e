// GPU reference for matmul_square: 64 x 64 output tiles staged through shared memory in 16-wide
// K steps; 256 threads, each holding a 4 x 4 block of outputs in registers (rows ty + 16 p,
// columns tx + 16 q), so every shared-memory value read feeds four FMAs. Tile loads are
// laid out so consecutive threads read consecutive addresses of the stored layout; every
// edge is guarded for any M, N, K.
#define BM 64
#define BN 64
#define BK 16

extern "C" __global__ void __launch_bounds__(256) matmul_square_ref(const float* __restrict__ A, const float* __restrict__ B,
                                                   float* __restrict__ C, int M, int K, int N) {
  __shared__ float As[BK][BM + 1];  // As[k][m]; the +1 spreads transposing stores over banks
  __shared__ float Bs[BK][BN + 1];  // Bs[k][n]
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int kbeg = 0, kend = K;
  float acc[4][4];
  for (int p = 0; p < 4; ++p)
    for (int q = 0; q < 4; ++q) acc[p][q] = 0.f;

  for (int k0 = kbeg; k0 < kend; k0 += BK) {
    for (int l = 0; l < 4; ++l) {  // 64 x 16 of A and 16 x 64 of B: 4 elements per thread each
      const int e = tid + 256 * l;
      const int am = e / BK, ak = e % BK;
      const int gm = m0 + am, gk = k0 + ak;
      As[ak][am] = (gm < M && gk < kend) ? A[(int64_t)gm * K + gk] : 0.f;
      const int bk = e / BN, bn = e % BN;
      const int hk = k0 + bk, gn = n0 + bn;
      Bs[bk][bn] = (hk < kend && gn < N) ? B[(int64_t)hk * N + gn] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
      for (int p = 0; p < 4; ++p) a[p] = As[k][ty + 16 * p];
      for (int q = 0; q < 4; ++q) b[q] = Bs[k][tx + 16 * q];
      for (int p = 0; p < 4; ++p)
        for (int q = 0; q < 4; ++q) acc[p][q] = fmaf(a[p], b[q], acc[p][q]);
    }
    __syncthreads();
  }
  for (int p = 0; p < 4; ++p) {
    const int gm = m0 + ty + 16 * p;
    if (gm >= M) continue;
    for (int q = 0; q < 4; ++q) {  // 16 consecutive columns per row: coalesced 64-byte runs
      const int gn = n0 + tx + 16 * q;
      if (gn < N) C[(int64_t)gm * N + gn] = acc[p][q];
    }
  }
}

/*@launch
launches:
  - kernel: matmul_square_ref
    grid: [ceil_div(N, 64), ceil_div(N, 64)]
    block: 256
    args: [A, B, C, i32(N), i32(N), i32(N)]
@*/
