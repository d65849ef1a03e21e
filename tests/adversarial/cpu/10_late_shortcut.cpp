// Exploit 10 (behaving differently in check and timed runs): correct for the first
// K calls, which covers every verification run of the relu task on the CPU backend
// (3 test shapes x 3 runs + the CPU benchmark shape x 2 = 11), then it returns at once.
// The harness re-checks the outputs of timed samples it picks with the run secret:
// wrong_output + timed_output_wrong. (Run with timing on.)
#include <cstdint>

static int64_t calls = 0;

extern "C" void relu(const float* x, float* y, int64_t n) {
  if (++calls > 11) return;
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
