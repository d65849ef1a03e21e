/* Crucible's prelude, put before every GPU candidate and reference source, so one
 * source compiles under NVRTC (CUDA) and hiprtc (HIP): fixed-width integer types,
 * half and bfloat16 types (__half, __nv_bfloat16 on both), CRU_WARP_SIZE, portable
 * shuffles and atomics. Compiled checks: NVRTC sm_90, hiprtc gfx90a (ROCm 5.2).
 * NVRTC needs -I<cuda>/include (cuda_fp16.h, cuda_bf16.h); hiprtc needs nothing. */
#ifndef CRUCIBLE_KERNEL_H
#define CRUCIBLE_KERNEL_H

#if defined(__HIPCC_RTC__) || defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#define CRU_HIP 1
#else
#define CRU_CUDA 1
#endif

/* ---- fixed-width integers: the RTCs have no <stdint.h> ---- */
#if defined(__CUDACC_RTC__)
/* Same spellings as libcu++'s <cuda/std/cstdint> under NVRTC, so including it
 * later cannot conflict. */
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#elif defined(__HIPCC_RTC__)
/* hiprtc's runtime header already has the 32- and 64-bit ones. */
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
#else
#include <stdint.h>
#endif

/* ---- half and bfloat16 ---- */
#if defined(CRU_CUDA)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#elif defined(__HIPCC_RTC__)
/* hiprtc's built-in runtime header already holds hip_fp16 (__half). */
/* ROCm's hip_bfloat16.h needs std headers hiprtc lacks: a storage-only type,
 * converted with round to nearest even like __float2bfloat16. */
struct __nv_bfloat16 {
  unsigned short x;
  __device__ __nv_bfloat16() : x(0) {}
  __device__ __nv_bfloat16(float f) {
    unsigned int u = __float_as_uint(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) x = (unsigned short)((u >> 16) | 0x40u);
    else x = (unsigned short)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
  }
  __device__ operator float() const { return __uint_as_float((unsigned int)x << 16); }
};
__device__ inline float __bfloat162float(__nv_bfloat16 b) { return (float)b; }
__device__ inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
#else
#include <hip/hip_fp16.h>
#include <hip/hip_bfloat16.h>
typedef hip_bfloat16 __nv_bfloat16;
#endif

/* ---- warps ---- */
#if defined(CRU_CUDA)
#define CRU_WARP_SIZE 32
#elif defined(__AMDGCN_WAVEFRONT_SIZE)
#define CRU_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define CRU_WARP_SIZE 64
#endif

/* Full-warp shuffles: every lane of the warp must take part. */
template <typename T>
__device__ inline T cru_shfl_xor(T v, int lane_mask) {
#if defined(CRU_CUDA)
  return __shfl_xor_sync(0xffffffffu, v, lane_mask);
#else
  return __shfl_xor(v, lane_mask);
#endif
}

template <typename T>
__device__ inline T cru_shfl_down(T v, unsigned int delta) {
#if defined(CRU_CUDA)
  return __shfl_down_sync(0xffffffffu, v, delta);
#else
  return __shfl_down(v, delta);
#endif
}

/* Warp-level barrier: __syncwarp on CUDA; on AMD a wavefront executes in lockstep, so a
   wave barrier (a scheduling fence for the compiler) is the equivalent. */
__device__ inline void cru_syncwarp() {
#if defined(CRU_CUDA)
  __syncwarp();
#else
  __builtin_amdgcn_wave_barrier();
#endif
}

/* ---- atomics (return the old value) ---- */
__device__ inline float cru_atomic_add(float* p, float v) { return atomicAdd(p, v); }
__device__ inline double cru_atomic_add(double* p, double v) { return atomicAdd(p, v); }
__device__ inline int cru_atomic_add(int* p, int v) { return atomicAdd(p, v); }
__device__ inline unsigned int cru_atomic_add(unsigned int* p, unsigned int v) { return atomicAdd(p, v); }
__device__ inline unsigned long long cru_atomic_add(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, v);
}

#endif /* CRUCIBLE_KERNEL_H */
