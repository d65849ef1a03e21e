// Exploit 3 (zeroing the inputs, KernelBench zero_out_kernel): writes zeros to y and
// x so a later reference run agrees. Input checksums: input_mutated (wrong_output).
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  float* w = (float*)x;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) { y[i] = 0.f; w[i] = 0.f; }
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
