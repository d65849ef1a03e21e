// GPU reference for the 2-D convolution, tiled through shared memory: a 16 x 16 block
// computes a 16 x 16 output tile for 16 output channels of one sample (16 accumulators per
// thread). Input channels go in chunks of 4: the block stages the (16 + K - 1)^2 input
// patches (coalesced rows) and the 16 x 4 x K x K weights in shared memory, and each thread
// reuses every input value for 16 output channels. Grid: [spatial tiles, channel tiles,
// samples]; dynamic shared memory holds both tiles.
#define C2_T 16
#define C2_TC 16
#define C2_TI 4

extern "C" __global__ void __launch_bounds__(C2_T * C2_T) conv2d_ref(const float* __restrict__ x, const float* __restrict__ w,
                                                                     float* __restrict__ y, int64_t ci, int64_t co,
                                                                     int64_t h, int64_t wd, int64_t k) {
  extern __shared__ float smem[];
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  const int64_t span = C2_T + k - 1, kk = k * k;
  float* xs = smem;                          // [C2_TI][span][span]
  float* ws = smem + C2_TI * span * span;    // [C2_TC][C2_TI][k][k]
  const int64_t tiles_w = (ow + C2_T - 1) / C2_T;
  const int64_t ty0 = (int64_t)(blockIdx.x / tiles_w) * C2_T, tx0 = (int64_t)(blockIdx.x % tiles_w) * C2_T;
  const int64_t c0 = (int64_t)blockIdx.y * C2_TC, b = blockIdx.z;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * C2_T + tx;
  float acc[C2_TC];
  for (int j = 0; j < C2_TC; ++j) acc[j] = 0.f;
  for (int64_t q0 = 0; q0 < ci; q0 += C2_TI) {
    for (int64_t e = tid; e < C2_TI * span * span; e += C2_T * C2_T) {
      const int64_t q = e / (span * span), r = e % (span * span), a = r / span, c = r % span;
      const int64_t ih = ty0 + a, iw = tx0 + c;
      xs[e] = (q0 + q < ci && ih < h && iw < wd) ? x[((b * ci + q0 + q) * h + ih) * wd + iw] : 0.f;
    }
    for (int64_t e = tid; e < C2_TC * C2_TI * kk; e += C2_T * C2_T) {
      const int64_t c = e / (C2_TI * kk), r = e % (C2_TI * kk), q = r / kk, t = r % kk;
      ws[e] = (c0 + c < co && q0 + q < ci) ? w[((c0 + c) * ci + q0 + q) * kk + t] : 0.f;
    }
    __syncthreads();
    for (int q = 0; q < C2_TI; ++q)
      for (int64_t a = 0; a < k; ++a)
        for (int64_t e = 0; e < k; ++e) {
          const float xv = xs[(q * span + ty + a) * span + tx + e];
          const float* wp = ws + (q * k + a) * k + e;
          for (int j = 0; j < C2_TC; ++j) acc[j] += wp[j * C2_TI * kk] * xv;  // broadcast reads
        }
    __syncthreads();
  }
  const int64_t oi = ty0 + ty, oj = tx0 + tx;
  if (oi < oh && oj < ow)
    for (int j = 0; j < C2_TC; ++j)
      if (c0 + j < co) y[((b * co + c0 + j) * oh + oi) * ow + oj] = acc[j];
}

/*@launch
launches:
  - kernel: conv2d_ref
    grid: [ceil_div(H - K + 1, 16) * ceil_div(W - K + 1, 16), ceil_div(CO, 16), N]
    block: [16, 16]
    smem: 4 * (4 * (16 + K - 1) * (16 + K - 1) + 16 * 4 * K * K)
    args: [x, w, y, i64(CI), i64(CO), i64(H), i64(W), i64(K)]
@*/
