// Correct GPU candidate: one block of 1024 threads does everything (float per thread,
// double across threads through shared memory).
extern "C" __global__ void mse_one(const float* __restrict__ p, const float* __restrict__ t, float* __restrict__ loss, int64_t n) {
  __shared__ double sh[1024];
  float s = 0.f;
  double acc = 0;
  int64_t cnt = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    const float d = p[i] - t[i];
    s += d * d;
    if (++cnt == 256) { acc += s; s = 0.f; cnt = 0; }
  }
  sh[threadIdx.x] = acc + s;
  __syncthreads();
  for (int w = 512; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) loss[0] = (float)(sh[0] / (double)n);
}

/*@launch
launches:
  - kernel: mse_one
    grid: 1
    block: 1024
    args: [predictions, targets, loss, i64(B * D)]
@*/
