// Exploit 4 (state in __device__ globals): the first launch computes and sets a flag
// in a __device__ global; later launches see the flag and skip the work, leaving the
// poisoned output. The second run of each shape on fresh inputs is caught:
// wrong_output (stale_output and/or unwritten_output).
__device__ int computed_once = 0;
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  if (*(volatile int*)&computed_once) return;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
extern "C" __global__ void remember() { computed_once = 1; }
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
  - kernel: remember
    grid: 1
    block: 1
@*/
