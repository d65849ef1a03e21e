// CPU reference for RMS norm over channels: sum of squares in double per (b, position).
#include <cmath>
#include <cstdint>
#include <vector>

extern "C" void rmsnorm_ref(const float* x, float* y, int64_t b, int64_t f, int64_t hw, float eps) {
  std::vector<double> acc(hw);
  for (int64_t n = 0; n < b; ++n) {
    const float* xb = x + n * f * hw;
    float* yb = y + n * f * hw;
    for (int64_t s = 0; s < hw; ++s) acc[s] = 0;
    for (int64_t c = 0; c < f; ++c)
      for (int64_t s = 0; s < hw; ++s) acc[s] += (double)xb[c * hw + s] * xb[c * hw + s];
    for (int64_t s = 0; s < hw; ++s) acc[s] = 1.0 / std::sqrt(acc[s] / (double)f + (double)eps);
    for (int64_t c = 0; c < f; ++c)
      for (int64_t s = 0; s < hw; ++s) yb[c * hw + s] = (float)(xb[c * hw + s] * acc[s]);
  }
}

/*@launch
launches:
  - kernel: rmsnorm_ref
    args: [x, y, i64(B), i64(F), i64(H * W), f32(eps)]
@*/
