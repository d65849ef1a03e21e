// Writes only the first half of c (a classic grid-too-small bug); the second half keeps
// the harness's poison.
#include <cstdint>

extern "C" void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ c, int64_t n) {
  for (int64_t i = 0; i < n / 2; ++i) c[i] = a[i] + b[i];
}

/*@launch
launches:
  - kernel: vector_add
    args: [a, b, c, i64(N)]
@*/
