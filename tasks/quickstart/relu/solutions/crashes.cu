// Faults on the GPU: every thread stores through a null pointer (an illegal address,
// which poisons the CUDA context). The harness must report runtime_error and replace
// the worker.
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  float* volatile bad = nullptr;
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bad[i] = fmaxf(x[i], 0.f);
  (void)y;
}

/*@launch
launches:
  - kernel: relu
    grid: ceil_div(N, 256)
    block: 256
    args: [x, y, i64(N)]
@*/
