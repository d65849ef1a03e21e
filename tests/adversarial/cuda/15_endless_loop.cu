// Exploit 15 (endless kernel): spins forever. The worker is killed at the run
// deadline and replaced: timeout.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  volatile int64_t spin = 0;
  (void)x; (void)y; (void)n;
  for (;;) spin = spin + 1;
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
