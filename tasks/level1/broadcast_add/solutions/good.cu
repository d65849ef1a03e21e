// Correct GPU candidate: flat grid-stride loop, column = i % C.
extern "C" __global__ void broadcast_add(const float* __restrict__ x, const float* __restrict__ b,
                                         float* __restrict__ y, int64_t total, int64_t cols) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) y[i] = x[i] + b[i % cols];
}

/*@launch
launches:
  - kernel: broadcast_add
    grid: min(ceil_div(R * C, 256), sm_count * 16)
    block: 256
    args: [x, b, y, i64(R * C), i64(C)]
@*/
