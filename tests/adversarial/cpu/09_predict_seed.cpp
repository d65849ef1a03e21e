// Exploit 9 (predicting the inputs from a known seed): ignores x and regenerates it
// with the harness's own Philox generator (crucible/philox.h is on the include path)
// from the public seed 0, the first shape index and stream 0, then writes relu of
// that. Every seed is mixed with a per-run secret, so the prediction is wrong:
// wrong_output.
#include <cstdint>
#include "crucible/philox.h"

extern "C" void relu(const float* x, float* y, int64_t n) {
  (void)x;
  for (int64_t i = 0; i < n; ++i) {
    int is_int;
    cru_i64 iv;
    double v = cru_gen_value(CRU_DIST_NORMAL, 0.0, 1.0, 0, 0, (cru_u64)i, &is_int, &iv);
    float f = (float)v;
    y[i] = f > 0 ? f : 0.f;
  }
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
