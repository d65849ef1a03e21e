// CPU reference for the broadcast bias add.
#include <cstdint>

extern "C" void broadcast_add_ref(const float* x, const float* b, float* y, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) y[i * cols + j] = x[i * cols + j] + b[j];
}

/*@launch
launches:
  - kernel: broadcast_add_ref
    args: [x, b, y, i64(R), i64(C)]
@*/
