// Correct GPU candidate: one thread per output (b, j), one plain loop over the reduced dim.
extern "C" __global__ void sum_dim(const float* __restrict__ x, float* __restrict__ y, int64_t nb, int64_t d1, int64_t d2) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nb * d2) return;
  const int64_t b = i / d2, j = i % d2;
  float a = 0.f;
  for (int64_t k = 0; k < d1; ++k) {
    const float v = x[(b * d1 + k) * d2 + j];
    a += v;
  }
  y[i] = a;
}

/*@launch
launches:
  - kernel: sum_dim
    grid: ceil_div(B * D2, 128)
    block: 128
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
