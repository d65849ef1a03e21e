// CPU reference for column sums: walks x in memory order into double accumulators.
#include <cstdint>
#include <vector>

extern "C" void reduce_first_dim_ref(const float* x, float* y, int64_t m, int64_t n) {
  std::vector<double> acc(n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) acc[j] += x[i * n + j];
  for (int64_t j = 0; j < n; ++j) y[j] = (float)acc[j];
}

/*@launch
launches:
  - kernel: reduce_first_dim_ref
    args: [x, y, i64(M), i64(N)]
@*/
