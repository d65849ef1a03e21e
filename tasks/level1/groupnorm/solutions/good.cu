// Correct GPU candidate: one 1024-thread block per (n, g) group; float sums of (x - x0)
// and (x - x0)^2 per thread, reduced in double, then a normalise pass.
__device__ double block_sum_d(double v, double* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = lane < warps ? sh[lane] : 0.0;
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  __syncthreads();
  return v;
}

extern "C" __global__ void gn_group(const float* __restrict__ x, const float* __restrict__ gamma,
                                    const float* __restrict__ beta, float* __restrict__ y,
                                    int64_t groups, int64_t cpg, int64_t hw, float eps) {
  __shared__ double sh[32];
  const int64_t len = cpg * hw;
  const float* xr = x + (int64_t)blockIdx.x * len;
  float* yr = y + (int64_t)blockIdx.x * len;
  const float k = xr[0];
  float s = 0.f, ss = 0.f;
  for (int64_t j = threadIdx.x; j < len; j += blockDim.x) { const float d = xr[j] - k; s += d; ss += d * d; }
  const double S = block_sum_d(s, sh), SS = block_sum_d(ss, sh);
  const double m = S / len;
  const float mean = (float)(k + m), rstd = (float)(1.0 / sqrt(fmax(SS / len - m * m, 0.0) + eps));
  const int64_t c0 = (blockIdx.x % groups) * cpg;
  for (int64_t j = threadIdx.x; j < len; j += blockDim.x) {
    const int64_t c = c0 + j / hw;
    yr[j] = (xr[j] - mean) * rstd * gamma[c] + beta[c];
  }
}

/*@launch
launches:
  - kernel: gn_group
    grid: N * G
    block: 1024
    args: [x, gamma, beta, y, i64(G), i64(CPG), i64(H * W), f32(eps)]
@*/
