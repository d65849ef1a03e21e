// GPU reference for sum, in two launches (deterministic, no atomics):
//  1. up to 1024 blocks of 256 threads; each thread sums a coalesced grid-stride slice,
//     the block reduces with warp shuffles then shared memory, and writes one partial;
//  2. one block sums the partials into y[0].
__device__ float block_sum(float v) {
  __shared__ float sh[32];
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_down(v, o);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? sh[lane] : 0.f;
    for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_down(v, o);
  }
  return v;  // valid in thread 0
}

extern "C" __global__ void sum_partial(const float* __restrict__ x, float* __restrict__ partial, int64_t n) {
  float s = 0.f;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) s += x[i];
  s = block_sum(s);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

extern "C" __global__ void sum_final(const float* __restrict__ partial, float* __restrict__ y, int count) {
  float s = 0.f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) s += partial[i];
  s = block_sum(s);
  if (threadIdx.x == 0) y[0] = s;
}

/*@launch
scratch:
  partial: {dtype: f32, count: 1024}
launches:
  - kernel: sum_partial
    grid: min(ceil_div(N, 256), 1024)
    block: 256
    args: [x, partial, i64(N)]
  - kernel: sum_final
    grid: 1
    block: 256
    args: [partial, y, i32(min(ceil_div(N, 256), 1024))]
@*/
