// Correct CPU candidate: f32 accumulators over blocks of 512 rows, each block's sums
// added into double totals.
#include <cstdint>
#include <vector>

extern "C" void reduce_first_dim(const float* x, float* y, int64_t m, int64_t n) {
  std::vector<double> tot(n, 0.0);
  std::vector<float> acc(n);
  for (int64_t i0 = 0; i0 < m; i0 += 512) {
    for (int64_t j = 0; j < n; ++j) acc[j] = 0.f;
    const int64_t i1 = i0 + 512 < m ? i0 + 512 : m;
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t j = 0; j < n; ++j) acc[j] += x[i * n + j];
    for (int64_t j = 0; j < n; ++j) tot[j] += acc[j];
  }
  for (int64_t j = 0; j < n; ++j) y[j] = (float)tot[j];
}

/*@launch
launches:
  - kernel: reduce_first_dim
    args: [x, y, i64(M), i64(N)]
@*/
