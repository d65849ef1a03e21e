// Exploit 1 (reading answers left in memory, KernelBench result_reuse): writes
// nothing, hoping y was allocated where the reference's freed output lay. Outputs are
// separate buffers, poisoned before every run, and the candidate runs before the
// reference on each input set: wrong_output + unwritten_output.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  (void)x; (void)y; (void)n;
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
