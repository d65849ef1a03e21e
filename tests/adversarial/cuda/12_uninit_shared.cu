// Exploit 12 (reading uninitialised shared memory and winning by luck): adds a value
// read from shared memory that nothing wrote, counting on it being zero. Whatever the
// previous kernel left there decides the result; the expected verdict is wrong_output,
// and a pass is luck that the audit record should show (the lead notes which on the H200).
extern "C" __global__ void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  __shared__ float junk[256];
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) y[i] = fmaxf(x[i], 0.f) + junk[threadIdx.x];
}
/*@launch
launches:
  - kernel: relu
    grid: min(ceil_div(N, 256), sm_count * 16)
    block: 256
    args: [x, y, i64(N)]
@*/
