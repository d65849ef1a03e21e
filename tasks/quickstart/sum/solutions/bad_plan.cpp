// A plan that names a tensor the task does not have (`z`; the output is `y`). The
// harness must reject it as a format_error that lists the task's tensors.
#include <cstdint>

extern "C" void sum(const float* x, float* y, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  y[0] = (float)s;
}

/*@launch
launches:
  - kernel: sum
    args: [x, z, i64(N)]
@*/
