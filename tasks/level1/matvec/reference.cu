// GPU reference for matvec: one 256-thread block per row. Threads stride along the row
// (coalesced), with float4 loads when K % 4 == 0 (then every row is 16-byte aligned),
// then a warp-shuffle reduction and a shared-memory pass over the warps' sums.
extern "C" __global__ void __launch_bounds__(256) matvec_ref(const float* __restrict__ A, const float* __restrict__ B,
                                                             float* __restrict__ C, int64_t M, int64_t K) {
  const int64_t row = blockIdx.x;
  const float* __restrict__ a = A + row * K;
  float acc = 0.f;
  if ((K & 3) == 0) {
    const float4* __restrict__ a4 = reinterpret_cast<const float4*>(a);
    const float4* __restrict__ b4 = reinterpret_cast<const float4*>(B);
    for (int64_t i = threadIdx.x; i < K / 4; i += blockDim.x) {
      const float4 u = a4[i], v = b4[i];
      acc = fmaf(u.x, v.x, acc);
      acc = fmaf(u.y, v.y, acc);
      acc = fmaf(u.z, v.z, acc);
      acc = fmaf(u.w, v.w, acc);
    }
  } else {
    for (int64_t i = threadIdx.x; i < K; i += blockDim.x) acc = fmaf(a[i], B[i], acc);
  }
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) acc += cru_shfl_down(acc, o);
  __shared__ float warp_sum[256 / 32];
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  if (lane == 0) warp_sum[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < (int)(blockDim.x / CRU_WARP_SIZE); ++w) s += warp_sum[w];
    C[row] = s;
  }
}

/*@launch
launches:
  - kernel: matvec_ref
    grid: M
    block: 256
    args: [A, B, C, i64(M), i64(K)]
@*/
