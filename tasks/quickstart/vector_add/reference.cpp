// CPU reference for vector_add: c[i] = a[i] + b[i].
#include <cstdint>

extern "C" void vector_add_ref(const float* a, const float* b, float* c, int64_t n) {
  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

/*@launch
launches:
  - kernel: vector_add_ref
    args: [a, b, c, i64(N)]
@*/
