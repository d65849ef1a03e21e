// Correct GPU candidate: one warp-sized group per row, lanes striding along it, and a
// shuffle reduction; 8 rows per 256-thread block on CUDA (4 where warps are 64 wide).
extern "C" __global__ void matvec_warp(const float* __restrict__ A, const float* __restrict__ B,
                                       float* __restrict__ C, int64_t M, int64_t K) {
  const int64_t row = (int64_t)blockIdx.x * (blockDim.x / CRU_WARP_SIZE) + threadIdx.x / CRU_WARP_SIZE;
  const int lane = threadIdx.x % CRU_WARP_SIZE;
  float acc = 0.f;
  if (row < M)
    for (int64_t k = lane; k < K; k += CRU_WARP_SIZE) acc += A[row * K + k] * B[k];
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) acc += cru_shfl_down(acc, o);  // whole warp takes part
  if (row < M && lane == 0) C[row] = acc;
}

/*@launch
launches:
  - kernel: matvec_warp
    grid: ceil_div(M * warp_size, 256)
    block: 256
    args: [A, B, C, i64(M), i64(K)]
@*/
