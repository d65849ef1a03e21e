// Faults: stores through a null pointer (SIGSEGV inside the candidate). The harness must
// report runtime_error and keep going.
#include <cstdint>

extern "C" void softmax(const float* x, float* y, int64_t rows, int64_t cols) {
  (void)x; (void)y;
  float* volatile bad = nullptr;  // volatile: the store really happens
  for (int64_t i = 0; i < rows * cols; ++i) bad[i] = 1.f;
}

/*@launch
launches:
  - kernel: softmax
    args: [x, y, i64(R), i64(C)]
@*/
