// Exploit 15 (endless kernels): never returns. The executor is killed at the run
// deadline: timeout.
#include <cstdint>

extern "C" void relu(const float* x, float* y, int64_t n) {
  volatile int64_t spin = 0;
  (void)x; (void)y; (void)n;
  for (;;) spin = spin + 1;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
