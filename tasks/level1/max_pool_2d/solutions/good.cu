// Correct GPU candidate: one thread per output, a 3-D grid (columns, rows, planes), taps
// tested one by one.
extern "C" __global__ void max_pool_2d(const float* __restrict__ x, float* __restrict__ y, int64_t h, int64_t w,
                                       int64_t k, int64_t s, int64_t p, int64_t oh, int64_t ow) {
  const int64_t oj = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, oi = blockIdx.y, pl = blockIdx.z;
  if (oj >= ow) return;
  float m = -3.402823466e+38f;
  for (int64_t a = 0; a < k; ++a)
    for (int64_t b = 0; b < k; ++b) {
      const int64_t ih = oi * s - p + a, iw = oj * s - p + b;
      if (ih >= 0 && ih < h && iw >= 0 && iw < w) m = fmaxf(m, x[(pl * h + ih) * w + iw]);
    }
  y[(pl * oh + oi) * ow + oj] = m;
}

/*@launch
launches:
  - kernel: max_pool_2d
    grid: [ceil_div((W + 2 * P - K) / S + 1, 128), (H + 2 * P - K) / S + 1, N * C]
    block: 128
    args: [x, y, i64(H), i64(W), i64(K), i64(S), i64(P), i64((H + 2 * P - K) / S + 1), i64((W + 2 * P - K) / S + 1)]
@*/
