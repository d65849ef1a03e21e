// GPU reference for 2-D max pooling: one thread per output, grid-stride; consecutive
// threads take consecutive output columns, so the window loads of a warp are coalesced
// and overlapping windows hit L1. The window is clamped to the image once.
extern "C" __global__ void max_pool_2d_ref(const float* __restrict__ x, float* __restrict__ y, int64_t planes,
                                           int64_t h, int64_t w, int64_t k, int64_t s, int64_t p) {
  const int64_t oh = (h + 2 * p - k) / s + 1, ow = (w + 2 * p - k) / s + 1;
  const int64_t total = planes * oh * ow, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t oj = i % ow, t = i / ow, oi = t % oh, pl = t / oh;
    const int64_t h0 = max(oi * s - p, (int64_t)0), h1 = min(oi * s - p + k, h);
    const int64_t w0 = max(oj * s - p, (int64_t)0), w1 = min(oj * s - p + k, w);
    const float* xp = x + pl * h * w;
    float m = -3.402823466e+38f;
    for (int64_t a = h0; a < h1; ++a)
      for (int64_t b = w0; b < w1; ++b) m = fmaxf(m, xp[a * w + b]);
    y[i] = m;
  }
}

/*@launch
launches:
  - kernel: max_pool_2d_ref
    grid: min(ceil_div(N * C * ((H + 2 * P - K) / S + 1) * ((W + 2 * P - K) / S + 1), 256), sm_count * 32)
    block: 256
    args: [x, y, i64(N * C), i64(H), i64(W), i64(K), i64(S), i64(P)]
@*/
