// GPU reference for the 1-D convolution, tiled through shared memory: a block of 128
// threads computes 128 output positions x 16 output channels (16 accumulators per thread)
// of one sample. Input channels go in chunks of 16: the block stages the x segment
// (16 x (128 + K - 1), coalesced) and the weights (16 x 16 x K) in shared memory, then each
// thread reuses every x value for 16 output channels. Grid: [position tiles, channel
// tiles, samples]; dynamic shared memory holds both tiles.
#define C1_TP 128
#define C1_TC 16
#define C1_TI 16

extern "C" __global__ void __launch_bounds__(C1_TP) conv1d_ref(const float* __restrict__ x, const float* __restrict__ w,
                                                               float* __restrict__ y, int64_t ci, int64_t co,
                                                               int64_t len, int64_t k) {
  extern __shared__ float smem[];
  const int64_t ol = len - k + 1;
  const int64_t span = C1_TP + k - 1;
  float* xs = smem;                   // [C1_TI][span]
  float* ws = smem + C1_TI * span;    // [C1_TC][C1_TI][k]
  const int64_t o0 = (int64_t)blockIdx.x * C1_TP, c0 = (int64_t)blockIdx.y * C1_TC, b = blockIdx.z;
  const int tid = threadIdx.x;
  float acc[C1_TC];
  for (int j = 0; j < C1_TC; ++j) acc[j] = 0.f;
  for (int64_t i0 = 0; i0 < ci; i0 += C1_TI) {
    for (int64_t e = tid; e < C1_TI * span; e += C1_TP) {
      const int64_t i = e / span, p = e % span;
      xs[e] = (i0 + i < ci && o0 + p < len) ? x[(b * ci + i0 + i) * len + o0 + p] : 0.f;
    }
    for (int64_t e = tid; e < C1_TC * C1_TI * k; e += C1_TP) {
      const int64_t c = e / (C1_TI * k), r = e % (C1_TI * k), i = r / k, t = r % k;
      ws[e] = (c0 + c < co && i0 + i < ci) ? w[((c0 + c) * ci + i0 + i) * k + t] : 0.f;
    }
    __syncthreads();
    for (int i = 0; i < C1_TI; ++i)
      for (int64_t t = 0; t < k; ++t) {
        const float xv = xs[i * span + tid + t];
        for (int j = 0; j < C1_TC; ++j) acc[j] += ws[(j * C1_TI + i) * k + t] * xv;  // broadcast reads
      }
    __syncthreads();
  }
  const int64_t o = o0 + tid;
  if (o < ol)
    for (int j = 0; j < C1_TC; ++j)
      if (c0 + j < co) y[(b * co + c0 + j) * ol + o] = acc[j];
}

/*@launch
launches:
  - kernel: conv1d_ref
    grid: [ceil_div(L - K + 1, 128), ceil_div(CO, 16), N]
    block: 128
    smem: 4 * (16 * (128 + K - 1) + 16 * 16 * K)
    args: [x, w, y, i64(CI), i64(CO), i64(L), i64(K)]
@*/
