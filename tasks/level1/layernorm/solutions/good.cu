// Correct GPU candidate: one 1024-thread block per row; sums of x and x^2 (shifted by the
// row's first element) in float per thread, reduced in double, then a normalise pass.
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

extern "C" __global__ void ln_row(const float* __restrict__ x, const float* __restrict__ gamma,
                                  const float* __restrict__ beta, float* __restrict__ y, int64_t cols, float eps) {
  __shared__ double sh[32];
  const float* xr = x + (int64_t)blockIdx.x * cols;
  float* yr = y + (int64_t)blockIdx.x * cols;
  const float k = xr[0];
  float s = 0.f, ss = 0.f;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) { const float d = xr[j] - k; s += d; ss += d * d; }
  const double S = block_sum_d(s, sh), SS = block_sum_d(ss, sh);
  const double m = S / cols;
  const double var = fmax(SS / cols - m * m, 0.0);
  const float mean = (float)(k + m), rstd = (float)(1.0 / sqrt(var + eps));
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = (xr[j] - mean) * rstd * gamma[j] + beta[j];
}

/*@launch
launches:
  - kernel: ln_row
    grid: R
    block: 1024
    args: [x, gamma, beta, y, i64(C), f32(eps)]
@*/
