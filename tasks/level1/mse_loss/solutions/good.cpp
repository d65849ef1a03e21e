// Correct CPU candidate: f32 partial sums over blocks of 1024, added into a double.
#include <cstdint>

extern "C" void mse(const float* __restrict__ p, const float* __restrict__ t, float* loss, int64_t n) {
  double s = 0;
  for (int64_t i0 = 0; i0 < n; i0 += 1024) {
    const int64_t i1 = i0 + 1024 < n ? i0 + 1024 : n;
    float a = 0.f;
    for (int64_t i = i0; i < i1; ++i) { const float d = p[i] - t[i]; a += d * d; }
    s += a;
  }
  loss[0] = (float)(s / n);
}

/*@launch
launches:
  - kernel: mse
    args: [predictions, targets, loss, i64(B * D)]
@*/
