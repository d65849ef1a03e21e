// Exploit 15 (compiler bomb): unbounded template recursion; NVRTC stops at its
// instantiation depth (or the compile deadline stops it): compile_error (or timeout).
template <long long K> struct Bomb {
  static constexpr long long value = Bomb<K + 1>::value + Bomb<K + 2>::value;
};
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaxf(x[i], 0.f) + (float)Bomb<0>::value;
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
