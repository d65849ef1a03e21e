// Reference for the gather_scale fixture, CPU backend.
#include <cstdint>
extern "C" void gather_scale(const uint16_t* table, const int64_t* idx, const bool* mask, const float* bias,
                             float* out, int32_t* hits, long B, long D, float alpha) {
  (void)table; (void)idx; (void)mask; (void)bias; (void)out; (void)hits; (void)B; (void)D; (void)alpha;
}
/*@launch
launches:
  - kernel: gather_scale
    args: [table, idx, mask, bias, out, hits, i64(B), i64(D), f32(alpha)]
@*/
