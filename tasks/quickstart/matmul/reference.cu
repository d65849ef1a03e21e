// GPU reference for matmul: 32 x 32 output tiles staged through shared memory in 32-wide
// K steps; a block of 32 x 8 threads, each thread computing 4 outputs of one column.
// Global loads are coalesced along rows; the edges are guarded for any M, N, K.
#define TILE 32
#define ROWS 8

extern "C" __global__ void matmul_ref(const float* __restrict__ A, const float* __restrict__ B,
                                      float* __restrict__ C, int M, int K, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
  float acc[TILE / ROWS] = {0.f, 0.f, 0.f, 0.f};

  for (int k0 = 0; k0 < K; k0 += TILE) {
    for (int r = ty; r < TILE; r += ROWS) {
      const int ar = row0 + r, ak = k0 + tx;
      As[r][tx] = (ar < M && ak < K) ? A[(int64_t)ar * K + ak] : 0.f;
      const int bk = k0 + r;
      Bs[r][tx] = (bk < K && col < N) ? B[(int64_t)bk * N + col] : 0.f;
    }
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      const float b = Bs[k][tx];
      for (int q = 0; q < TILE / ROWS; ++q) acc[q] += As[ty + q * ROWS][k] * b;
    }
    __syncthreads();
  }
  for (int q = 0; q < TILE / ROWS; ++q) {
    const int r = row0 + ty + q * ROWS;
    if (r < M && col < N) C[(int64_t)r * N + col] = acc[q];
  }
}

/*@launch
launches:
  - kernel: matmul_ref
    grid: [ceil_div(N, 32), ceil_div(M, 32)]
    block: [32, 8]
    args: [A, B, C, i32(M), i32(K), i32(N)]
@*/
