// The CUDA driver API and CUPTI, loaded at run time with dlopen. Linking libcuda
// would make every Crucible binary (the CLI, every test) fail to start on a machine
// without the NVIDIA driver, which is every CI machine; loaded lazily, a missing
// driver is just "0 CUDA devices". Function pointers are resolved through
// cuGetProcAddress with this header's CUDA_VERSION, so each name gets the ABI
// version (_v2, ...) that cuda.h declares.
#pragma once
#include <cuda.h>

#include <string>

namespace crucible::cu {

// Every driver entry point the backend uses. The member names are the API's own:
// cuda.h's version macros (cuMemAlloc -> cuMemAlloc_v2) rename the declaration and
// the uses alike, and the lookup name is the unexpanded base name.
#define CRU_CUDA_REQUIRED_FUNCS(X)                                              \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet)            \
  X(cuDeviceGetName) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)                \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent)   \
  X(cuCtxSetLimit) X(cuCtxSynchronize) X(cuStreamCreate) X(cuStreamDestroy)     \
  X(cuStreamQuery) X(cuStreamSynchronize) X(cuMemAlloc) X(cuMemFree)            \
  X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemsetD8Async) X(cuMemcpyDtoDAsync)       \
  X(cuMemHostAlloc) X(cuMemFreeHost) X(cuMemHostGetDevicePointer)               \
  X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction)                \
  X(cuFuncGetAttribute) X(cuFuncSetAttribute) X(cuLaunchKernel)                 \
  X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventElapsedTime)     \
  X(cuEventSynchronize) X(cuGetErrorName) X(cuGetErrorString) X(cuMemGetInfo)

// Newer entry points; null when the driver lacks them (the feature is then refused).
#define CRU_CUDA_OPTIONAL_FUNCS(X) \
  X(cuFuncGetParamInfo) X(cuLaunchKernelEx) X(cuTensorMapEncodeTiled) X(cuDeviceGetUuid) \
  X(cuDeviceGetPCIBusId)

struct DriverApi {
#define CRU_CUDA_MEMBER(name) decltype(&::name) name = nullptr;
  CRU_CUDA_REQUIRED_FUNCS(CRU_CUDA_MEMBER)
  CRU_CUDA_OPTIONAL_FUNCS(CRU_CUDA_MEMBER)
#undef CRU_CUDA_MEMBER
};

// The loaded driver, or null when libcuda cannot be loaded or lacks a required entry
// point (load_error() says why). Thread-safe; loads once. Does not call cuInit.
const DriverApi* driver();
const std::string& driver_load_error();

// "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered".
std::string error_text(CUresult);
// Just the name, "CUDA_ERROR_ILLEGAL_ADDRESS".
std::string error_name(CUresult);

}  // namespace crucible::cu
