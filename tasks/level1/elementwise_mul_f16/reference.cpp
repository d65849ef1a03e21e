// CPU reference for the f16 product: the exact product of two halves fits in a float, so
// one conversion of the float product to _Float16 (round to nearest even) is exact IEEE.
#include <cstdint>
#include <cstring>

extern "C" void mul_f16_ref(const uint16_t* a, const uint16_t* b, uint16_t* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    _Float16 ha, hb;
    std::memcpy(&ha, &a[i], 2);
    std::memcpy(&hb, &b[i], 2);
    const _Float16 hy = (_Float16)((float)ha * (float)hb);
    std::memcpy(&y[i], &hy, 2);
  }
}

/*@launch
launches:
  - kernel: mul_f16_ref
    args: [a, b, y, i64(N)]
@*/
