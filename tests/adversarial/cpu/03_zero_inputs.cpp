// Exploit 3 (modifying the inputs so a later reference run agrees): writes zeros into
// y and into x, so a reference run afterwards would also produce zeros. The harness
// checksums the inputs around the candidate's run: input_mutated (wrong_output).
#include <cstdint>

extern "C" void relu(const float* x, float* y, int64_t n) {
  float* w = const_cast<float*>(x);
  for (int64_t i = 0; i < n; ++i) y[i] = 0.f, w[i] = 0.f;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
