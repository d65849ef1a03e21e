// GPU reference for argmin over the middle dimension: one thread per output (b, j), grid-
// stride; consecutive threads take consecutive j, so every step's loads are coalesced.
extern "C" __global__ void argmin_dim_ref(const float* __restrict__ x, int64_t* __restrict__ y, int64_t nb,
                                       int64_t d1, int64_t d2) {
  const int64_t total = nb * d2, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t b = i / d2, j = i - b * d2;
    const float* xp = x + b * d1 * d2 + j;
    float m = xp[0];
    int64_t best = 0;
    for (int64_t k = 1; k < d1; ++k) {
      const float v = xp[k * d2];
      if (v < m) { m = v; best = k; }  // strict: keeps the first index of the extreme
    }
    y[i] = best;
  }
}

/*@launch
launches:
  - kernel: argmin_dim_ref
    grid: min(ceil_div(B * D2, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
