// GPU reference of the gameable fixture: one block, a strided sum then a tree in shared memory.
extern "C" __global__ void mean_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  __shared__ double part[256];
  double s = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) s += x[i];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = 128; w > 0; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) y[0] = (float)(part[0] / (double)n);
}

/*@launch
launches:
  - kernel: mean_ref
    grid: 1
    block: 256
    args: [x, y, i64(N)]
@*/
