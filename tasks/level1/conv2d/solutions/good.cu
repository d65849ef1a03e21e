// Correct GPU candidate: one thread per output, direct loops.
extern "C" __global__ void conv2d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int64_t ci, int64_t co, int64_t h, int64_t wd, int64_t k) {
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  const int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y, b = blockIdx.z;
  if (p >= oh * ow) return;
  const int64_t i = p / ow, j = p % ow;
  float acc = 0.f;
  for (int64_t q = 0; q < ci; ++q)
    for (int64_t a = 0; a < k; ++a)
      for (int64_t e = 0; e < k; ++e) acc += w[((c * ci + q) * k + a) * k + e] * x[((b * ci + q) * h + i + a) * wd + j + e];
  y[((b * co + c) * oh + i) * ow + j] = acc;
}

/*@launch
launches:
  - kernel: conv2d
    grid: [ceil_div((H - K + 1) * (W - K + 1), 256), CO, N]
    block: 256
    args: [x, w, y, i64(CI), i64(CO), i64(H), i64(W), i64(K)]
@*/
