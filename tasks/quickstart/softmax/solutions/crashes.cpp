// Faults: stores through a null pointer (SIGSEGV inside the candidate). The harness must
// report runtime_error and keep going.
#include <cstdint>

extern "C" void softmax(const float* x, float* y, int64_t rows, int64_t cols) {
  (void)x; (void)y;
  // An unmapped, non-null address through a volatile pointee: the compiler must emit the
  // store (a plain null store is undefined behaviour that GCC deletes at -O2).
  volatile float* bad = reinterpret_cast<volatile float*>(static_cast<uintptr_t>(64));
  for (int64_t i = 0; i < rows * cols; ++i) bad[i] = 1.f;
}

/*@launch
launches:
  - kernel: softmax
    args: [x, y, i64(R), i64(C)]
@*/
