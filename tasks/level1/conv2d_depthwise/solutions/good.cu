// Correct GPU candidate: one thread per output, direct loops from global memory.
extern "C" __global__ void dwconv(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int64_t c, int64_t h, int64_t wd, int64_t k, int64_t total) {
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t oj = i % ow, t = i / ow, oi = t % oh, p = t / oh;
    float acc = 0.f;
    for (int64_t a = 0; a < k; ++a)
      for (int64_t b = 0; b < k; ++b) acc += w[((p % c) * k + a) * k + b] * x[(p * h + oi + a) * wd + oj + b];
    y[i] = acc;
  }
}

/*@launch
launches:
  - kernel: dwconv
    grid: min(ceil_div(N * C * (H - K + 1) * (W - K + 1), 256), sm_count * 32)
    block: 256
    args: [x, w, y, i64(C), i64(H), i64(W), i64(K), i64(N * C * (H - K + 1) * (W - K + 1))]
@*/
