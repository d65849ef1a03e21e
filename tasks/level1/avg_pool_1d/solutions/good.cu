// Correct GPU candidate: a 2-D grid (outputs of a row, rows), taps tested one by one,
// division by K at the end.
extern "C" __global__ void avg_pool_1d(const float* __restrict__ x, float* __restrict__ y, int64_t len,
                                       int64_t k, int64_t s, int64_t p, int64_t ol) {
  const int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (o >= ol) return;
  float acc = 0.f;
  for (int64_t t = 0; t < k; ++t) {
    const int64_t i = o * s - p + t;
    if (i >= 0 && i < len) acc += x[r * len + i];
  }
  y[r * ol + o] = acc / (float)k;
}

/*@launch
launches:
  - kernel: avg_pool_1d
    grid: [ceil_div((L + 2 * P - K) / S + 1, 256), N * C]
    block: 256
    args: [x, y, i64(L), i64(K), i64(S), i64(P), i64((L + 2 * P - K) / S + 1)]
@*/
