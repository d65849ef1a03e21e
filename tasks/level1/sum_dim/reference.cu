// GPU reference for sum over the middle dimension: one thread per output (b, j), grid-
// stride; consecutive threads take consecutive j, so every step's loads are coalesced.
extern "C" __global__ void sum_dim_ref(const float* __restrict__ x, float* __restrict__ y, int64_t nb,
                                       int64_t d1, int64_t d2) {
  const int64_t total = nb * d2, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t b = i / d2, j = i - b * d2;
    const float* xp = x + b * d1 * d2 + j;
    float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;  // four chains: four loads in flight
    int64_t k = 0;
    for (; k + 3 < d1; k += 4) {
      a0 += xp[k * d2];
      a1 += xp[(k + 1) * d2];
      a2 += xp[(k + 2) * d2];
      a3 += xp[(k + 3) * d2];
    }
    for (; k < d1; ++k) a0 += xp[k * d2];
    y[i] = (a0 + a1) + (a2 + a3);
  }
}

/*@launch
launches:
  - kernel: sum_dim_ref
    grid: min(ceil_div(B * D2, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
