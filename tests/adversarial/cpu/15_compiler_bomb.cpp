// Exploit 15 (compiler bombs): unbounded template recursion. The compiler gives up at
// its instantiation depth limit (or the compile deadline stops it): compile_error
// (or timeout); the run goes on.
#include <cstdint>

template <int64_t K> struct Bomb {
  static constexpr int64_t value = Bomb<K + 1>::value + Bomb<K + 2>::value;
};

extern "C" void relu(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : 0.f + (float)Bomb<0>::value;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
