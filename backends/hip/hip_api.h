// The HIP runtime and hiprtc, loaded at run time with dlopen, as backends/cuda/cuda_api.h
// loads the CUDA driver: linking libamdhip64 would make every Crucible binary fail to
// start on a machine without ROCm (every CI and NVIDIA machine); loaded lazily, a
// missing ROCm is just "0 HIP devices" and "hiprtc unavailable". Only the headers of
// the build machine's ROCm (Debian's 5.2) are used, for types and signatures.
#pragma once
// The AMD platform's declarations (ROCm's headers need exactly one platform named).
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

#include <string>

namespace crucible::hip {

// Runtime entry points. hipMalloc and hipHostMalloc are overloaded by templates in
// C++, so their types are written out (as aliases: a comma cannot go in a macro argument).
using GetDevicePropertiesFn = hipError_t (*)(hipDeviceProp_t*, int);
using MallocFn = hipError_t (*)(void**, size_t);
using HostMallocFn = hipError_t (*)(void**, size_t, unsigned int);
#define CRU_HIP_RUNTIME_FUNCS(X)                                                                \
  X(hipInit, decltype(&::hipInit)) X(hipGetDeviceCount, decltype(&::hipGetDeviceCount))         \
  X(hipSetDevice, decltype(&::hipSetDevice))                                                    \
  X(hipGetDeviceProperties, GetDevicePropertiesFn)                              \
  X(hipDeviceGetAttribute, decltype(&::hipDeviceGetAttribute))                                  \
  X(hipRuntimeGetVersion, decltype(&::hipRuntimeGetVersion))                                    \
  X(hipGetErrorName, decltype(&::hipGetErrorName)) X(hipGetErrorString, decltype(&::hipGetErrorString)) \
  X(hipDeviceSynchronize, decltype(&::hipDeviceSynchronize))                                    \
  X(hipStreamCreateWithFlags, decltype(&::hipStreamCreateWithFlags))                            \
  X(hipStreamDestroy, decltype(&::hipStreamDestroy)) X(hipStreamQuery, decltype(&::hipStreamQuery)) \
  X(hipStreamSynchronize, decltype(&::hipStreamSynchronize))                                    \
  X(hipMalloc, MallocFn) X(hipFree, decltype(&::hipFree))                 \
  X(hipMemcpyHtoD, decltype(&::hipMemcpyHtoD)) X(hipMemcpyDtoH, decltype(&::hipMemcpyDtoH))     \
  X(hipMemsetD8Async, decltype(&::hipMemsetD8Async))                                            \
  X(hipMemcpyDtoDAsync, decltype(&::hipMemcpyDtoDAsync))                                        \
  X(hipHostMalloc, HostMallocFn) X(hipHostFree, decltype(&::hipHostFree)) \
  X(hipHostGetDevicePointer, decltype(&::hipHostGetDevicePointer))                              \
  X(hipModuleLoadData, decltype(&::hipModuleLoadData)) X(hipModuleUnload, decltype(&::hipModuleUnload)) \
  X(hipModuleGetFunction, decltype(&::hipModuleGetFunction))                                    \
  X(hipFuncGetAttribute, decltype(&::hipFuncGetAttribute))                                      \
  X(hipModuleLaunchKernel, decltype(&::hipModuleLaunchKernel))                                  \
  X(hipEventCreate, decltype(&::hipEventCreate)) X(hipEventDestroy, decltype(&::hipEventDestroy)) \
  X(hipEventRecord, decltype(&::hipEventRecord)) X(hipEventElapsedTime, decltype(&::hipEventElapsedTime)) \
  X(hipMemGetInfo, decltype(&::hipMemGetInfo))

#define CRU_HIPRTC_FUNCS(X)                                                                       \
  X(hiprtcCreateProgram, decltype(&::hiprtcCreateProgram))                                        \
  X(hiprtcCompileProgram, decltype(&::hiprtcCompileProgram))                                      \
  X(hiprtcDestroyProgram, decltype(&::hiprtcDestroyProgram))                                      \
  X(hiprtcGetProgramLogSize, decltype(&::hiprtcGetProgramLogSize))                                \
  X(hiprtcGetProgramLog, decltype(&::hiprtcGetProgramLog))                                        \
  X(hiprtcGetCodeSize, decltype(&::hiprtcGetCodeSize)) X(hiprtcGetCode, decltype(&::hiprtcGetCode)) \
  X(hiprtcGetErrorString, decltype(&::hiprtcGetErrorString))                                      \
  X(hiprtcVersion, decltype(&::hiprtcVersion))

struct RuntimeApi {
#define CRU_HIP_MEMBER(name, type) type name = nullptr;
  CRU_HIP_RUNTIME_FUNCS(CRU_HIP_MEMBER)
#undef CRU_HIP_MEMBER
};

struct RtcApi {
#define CRU_HIP_MEMBER(name, type) type name = nullptr;
  CRU_HIPRTC_FUNCS(CRU_HIP_MEMBER)
#undef CRU_HIP_MEMBER
};

// The loaded runtime / hiprtc, or null when the library cannot be loaded or lacks an
// entry point (*_load_error() says why). Thread-safe; loads once; calls nothing.
const RuntimeApi* runtime();
const std::string& runtime_load_error();
const RtcApi* rtc();
const std::string& rtc_load_error();

// The ROCm release of the loaded library as "5.2.21153" (from its file name), or
// "unknown"; rocm_major_minor() is "5.2".
const std::string& rocm_version();
std::string rocm_major_minor();

// "hipErrorIllegalAddress: an illegal memory access was encountered".
std::string error_text(hipError_t);

}  // namespace crucible::hip
