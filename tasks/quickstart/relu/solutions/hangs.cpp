// Never returns: the harness must stop it at its deadline and report a timeout.
#include <cstdint>

extern "C" void relu(const float* x, float* y, int64_t n) {
  (void)x; (void)y; (void)n;
  for (;;) { asm volatile(""); }
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
