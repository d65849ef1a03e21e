// Does not compile: a missing semicolon and an undeclared name.
#include <cstdint>

extern "C" void vector_add(const float* a, const float* b, float* c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i]
  return undeclared_name;
}

/*@launch
launches:
  - kernel: vector_add
    args: [a, b, c, i64(N)]
@*/
