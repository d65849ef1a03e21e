// Exploit 12 (asking for more shared memory than the device has, the MI300X "104x"):
// the plan requests max_smem_per_block + 1 KiB of dynamic shared memory. The plan
// check refuses it before launch: launch_error (or format_error).
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  extern __shared__ float big[];
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) { big[threadIdx.x] = x[i]; y[i] = fmaxf(big[threadIdx.x], 0.f); }
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    smem: max_smem_per_block + 1024
    args: [x, y, i64(N)]
@*/
