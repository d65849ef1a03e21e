// Exploit 6 (work the timer misses: a side launch). A candidate has no host code, so
// no other stream exists; the one remaining route, a device-side launch (dynamic
// parallelism), needs relocatable device code and cudadevrt, which the harness's
// NVRTC compile does not link: compile_error (or launch_error / runtime_error).
extern "C" __global__ void child(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaxf(x[i], 0.f);
}
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) child<<<1024, 256>>>(x, y, n);
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
