// Device-side support for timing: the blocking kernel that holds the stream while
// the host enqueues a timed sample (nvbench's method, so launch overhead is not
// timed), and the fp32 FMA kernel whose throughput is the arithmetic peak.
// Shared by CUDA and HIP.
#pragma once

__device__ inline unsigned long long cru_now_ns() {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__HIPCC__)
  return wall_clock64() * 10ull;  // AMD's constant 100 MHz wall clock
#else
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#endif
}

// Spins until the host sets flag[0] (host-mapped memory), or gives up after
// timeout_ns so a lost host can never hang the device; then sets flag[1] = 1 so the
// host can tell that the sample was not held.
extern "C" __global__ void cru_block_stream(volatile int* flag, unsigned long long timeout_ns) {
  const unsigned long long start = cru_now_ns();
  while (flag[0] == 0) {
    if (cru_now_ns() - start > timeout_ns) {
      flag[1] = 1;
      break;
    }
  }
}

// Eight independent FMA chains per thread, `iters` rounds each: 16 * iters flops a
// thread. The store under an impossible condition keeps the work alive.
extern "C" __global__ void cru_fma_peak(float* sink, int iters, float seed) {
  float a0 = seed + threadIdx.x, a1 = a0 + 1.f, a2 = a0 + 2.f, a3 = a0 + 3.f;
  float a4 = a0 + 4.f, a5 = a0 + 5.f, a6 = a0 + 6.f, a7 = a0 + 7.f;
  const float m = 0.999999f, c = 1e-7f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      a0 = fmaf(a0, m, c); a1 = fmaf(a1, m, c); a2 = fmaf(a2, m, c); a3 = fmaf(a3, m, c);
      a4 = fmaf(a4, m, c); a5 = fmaf(a5, m, c); a6 = fmaf(a6, m, c); a7 = fmaf(a7, m, c);
    }
  }
  float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  if (s == 1234.5f) sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
