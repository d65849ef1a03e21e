// Correct GPU candidate: one block of 256 threads per column; the block strides down the
// column and reduces with shared memory (simple, uncoalesced, but correct).
extern "C" __global__ void colsum_block(const float* __restrict__ x, float* __restrict__ y, int64_t m, int64_t n) {
  __shared__ float sh[256];
  const int64_t j = blockIdx.x;
  float s = 0.f;
  for (int64_t i = threadIdx.x; i < m; i += blockDim.x) s += x[i * n + j];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[j] = sh[0];
}

/*@launch
launches:
  - kernel: colsum_block
    grid: N
    block: 256
    args: [x, y, i64(M), i64(N)]
@*/
