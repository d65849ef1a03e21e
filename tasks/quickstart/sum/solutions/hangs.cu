// Never finishes on the GPU: every thread spins forever. The harness must stop it at the
// deadline (killing the worker, whose context is then unusable) and report a timeout.
extern "C" __global__ void sum(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  (void)x; (void)y; (void)n;
  for (;;) { asm volatile(""); }
}

/*@launch
launches:
  - kernel: sum
    grid: 1
    block: 32
    args: [x, y, i64(N)]
@*/
