// GPU reference for 1-D average pooling: one thread per output, grid-stride; consecutive
// threads take consecutive outputs of a row, so the window loads are coalesced and the
// overlap between neighbouring windows is served by L1.
extern "C" __global__ void avg_pool_1d_ref(const float* __restrict__ x, float* __restrict__ y, int64_t rows,
                                           int64_t len, int64_t k, int64_t s, int64_t p) {
  const int64_t ol = (len + 2 * p - k) / s + 1;
  const int64_t total = rows * ol, stride = (int64_t)gridDim.x * blockDim.x;
  const float inv = 1.f / (float)k;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t r = i / ol, o = i - r * ol;
    const int64_t i0 = max(o * s - p, (int64_t)0), i1 = min(o * s - p + k, len);
    const float* xr = x + r * len;
    float acc = 0.f;
    for (int64_t j = i0; j < i1; ++j) acc += xr[j];
    y[i] = acc * inv;
  }
}

/*@launch
launches:
  - kernel: avg_pool_1d_ref
    grid: min(ceil_div(N * C * ((L + 2 * P - K) / S + 1), 256), sm_count * 32)
    block: 256
    args: [x, y, i64(N * C), i64(L), i64(K), i64(S), i64(P)]
@*/
