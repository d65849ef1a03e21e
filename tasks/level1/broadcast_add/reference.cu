// GPU reference for the broadcast bias add: a 2-D grid; blockIdx.x tiles the columns
// (256 per block, grid-stride when C is larger), blockIdx.y strides over rows, so each
// thread keeps its b[j] in a register and every access is coalesced.
extern "C" __global__ void broadcast_add_ref(const float* __restrict__ x, const float* __restrict__ b,
                                             float* __restrict__ y, int64_t rows, int64_t cols) {
  for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < cols; j += (int64_t)gridDim.x * blockDim.x) {
    const float bj = b[j];
    for (int64_t i = blockIdx.y; i < rows; i += gridDim.y) y[i * cols + j] = x[i * cols + j] + bj;
  }
}

/*@launch
launches:
  - kernel: broadcast_add_ref
    grid: [min(ceil_div(C, 256), 512), min(R, max(1, sm_count * 8 / min(ceil_div(C, 256), 512)))]
    block: 256
    args: [x, b, y, i64(R), i64(C)]
@*/
