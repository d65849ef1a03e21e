// Correct GPU candidate: 32 x 32 shared-memory tiles, one output element per thread.
extern "C" __global__ void mm32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                int M, int K, int N) {
  __shared__ float As[32][33];
  __shared__ float Bs[32][33];
  const int r = blockIdx.y * 32 + threadIdx.y, c = blockIdx.x * 32 + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[threadIdx.y][threadIdx.x] = (r < M && k0 + (int)threadIdx.x < K) ? A[(int64_t)r * K + (k0 + threadIdx.x)] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (c < N && k0 + (int)threadIdx.y < K) ? B[(int64_t)c * K + (k0 + threadIdx.y)] : 0.f;
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (r < M && c < N) C[(int64_t)r * N + c] = acc;
}

/*@launch
launches:
  - kernel: mm32
    grid: [ceil_div(N, 32), ceil_div(M, 32)]
    block: [32, 32]
    args: [A, B, C, i32(M), i32(K), i32(N)]
@*/
