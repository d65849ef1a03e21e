// Correct but slow: Kahan (compensated) summation in f32. Accurate, but every step
// depends on the previous one through four dependent operations, so it cannot be
// vectorized or pipelined. (volatile keeps the compiler from simplifying the
// compensation away.)
#include <cstdint>

extern "C" void sum(const float* x, float* y, int64_t n) {
  volatile float s = 0.f, c = 0.f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i] - c;
    const float t = s + v;
    c = (t - s) - v;
    s = t;
  }
  y[0] = s;
}

/*@launch
launches:
  - kernel: sum
    args: [x, y, i64(N)]
@*/
