// Stand-alone timing of the float4 ReLU candidate (tasks/level1/relu_kernelbench/
// solutions/good.cu) outside Crucible: same kernels, same launch geometry, CUDA events,
// an L2 flush (memset of 2x L2) before each sample, median of 50 samples. Used to check
// that Crucible's time for the candidate agrees with a plain measurement (issue 4).
// Build and run on the GPU machine: nvcc -O3 -arch=sm_90 scripts/standalone-relu.cu -o /tmp/sa && /tmp/sa
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>

extern "C" __global__ void relu4(const float4* __restrict__ x, float4* __restrict__ y, int64_t n4) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 v = x[i];
    v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
    y[i] = v;
  }
}
extern "C" __global__ void relu_tail(const float* __restrict__ x, float* __restrict__ y, int64_t begin, int64_t n) {
  const int64_t i = begin + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.f);
}
__global__ void init(float* x, int64_t n) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    x[i] = (float)((i * 2654435761u) % 2001) / 1000.f - 1.f;  // mixed signs, not zeros
}
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
int main() {
  const int64_t N = 4096LL * 393216LL;
  int sms = 0, l2 = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  float *x, *y; char* flush;
  CK(cudaMalloc(&x, N * 4)); CK(cudaMalloc(&y, N * 4)); CK(cudaMalloc(&flush, 2 * (size_t)l2));
  init<<<sms * 8, 256>>>(x, N);
  const int64_t n4 = N / 4;
  int64_t g = (n4 + 255) / 256; if (g > sms * 8) g = sms * 8; if (g < 1) g = 1;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> ms;
  for (int s = 0; s < 55; ++s) {
    cudaMemsetAsync(flush, s, 2 * (size_t)l2);
    cudaEventRecord(a);
    relu4<<<g, 256>>>((const float4*)x, (float4*)y, n4);
    relu_tail<<<1, 32>>>(x, y, n4 * 4, N);
    cudaEventRecord(b);
    CK(cudaEventSynchronize(b));
    float t; cudaEventElapsedTime(&t, a, b);
    if (s >= 5) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  printf("standalone relu float4, N=%lld: median %.4f ms (min %.4f, max %.4f) over %zu samples, %.2f TB/s\n",
         (long long)N, ms[ms.size() / 2], ms.front(), ms.back(), ms.size(), 8.0 * N / (ms[ms.size() / 2] * 1e-3) / 1e12);
  return 0;
}
