// Exploit 2 (writing only part of the output): computes the first half of y and hopes
// the rest already holds the right values. The harness poisons outputs before every
// run, so the second half is seen as unwritten: wrong_output + unwritten_output.
#include <cstdint>

extern "C" void relu(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < (n + 1) / 2; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
