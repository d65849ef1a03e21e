// Exploit 10 (different behaviour in check and timed runs): a __device__ call counter,
// bumped by a second launch; correct while it is below 11 (every verification run of
// relu: 3 test shapes x 3 runs + the benchmark shape x 2), then the kernel returns at
// once. Timed samples' outputs are re-checked at secret-chosen samples:
// wrong_output + timed_output_wrong. (Run with timing on.)
__device__ long long calls = 0;
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  if (*(volatile long long*)&calls >= 11) return;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
extern "C" __global__ void bump() { calls = calls + 1; }
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
  - kernel: bump
    grid: 1
    block: 1
@*/
