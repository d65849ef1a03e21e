// Exploit 9 (predicting the inputs from a known seed, kernelbot cheat-rng): ignores x
// and regenerates it with the harness's Philox generator from the public seed 0.
// Seeds are mixed with a per-run secret: wrong_output.
#include "crucible/philox.h"
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  (void)x;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int is_int;
    cru_i64 iv;
    float f = (float)cru_gen_value(CRU_DIST_NORMAL, 0.0, 1.0, 0, 0, (cru_u64)i, &is_int, &iv);
    y[i] = fmaxf(f, 0.f);
  }
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
