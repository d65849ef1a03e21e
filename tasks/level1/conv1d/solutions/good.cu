// Correct GPU candidate: one thread per output, direct loops over input channels and taps.
extern "C" __global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                  int64_t ci, int64_t co, int64_t len, int64_t k) {
  const int64_t ol = len - k + 1;
  const int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y, b = blockIdx.z;
  if (o >= ol) return;
  float acc = 0.f;
  for (int64_t i = 0; i < ci; ++i)
    for (int64_t t = 0; t < k; ++t) acc += w[(c * ci + i) * k + t] * x[(b * ci + i) * len + o + t];
  y[(b * co + c) * ol + o] = acc;
}

/*@launch
launches:
  - kernel: conv1d
    grid: [ceil_div(L - K + 1, 256), CO, N]
    block: 256
    args: [x, w, y, i64(CI), i64(CO), i64(L), i64(K)]
@*/
