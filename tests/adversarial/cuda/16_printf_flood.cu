// Output flood: a correct ReLU in which every thread also printf's a line (millions of
// lines on the test shapes). The device printf FIFO is capped at 64 KiB per launch and
// worker output at 64 KiB, so the flood can neither fill the disk or the harness's
// memory nor stall the run: the verdict is the kernel's (pass), within the deadline.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    printf("element %lld of %lld: flooding the harness's output with text\n", (long long)i, (long long)n);
    y[i] = x[i] > 0.f ? x[i] : 0.f;
  }
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
