// CUresult -> DeviceFault: which errors poison the context (sticky: the worker is
// replaced) and which only reject one launch.
#include "backends/cuda/cuda_raii.h"

namespace crucible::cu {

bool is_sticky(CUresult r) {
  switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_TENSOR_MEMORY_LEAK:
    case CUDA_ERROR_UNKNOWN:
      return true;
    default:
      return false;
  }
}

bool is_launch_error(CUresult r) {
  switch (r) {
    case CUDA_ERROR_INVALID_VALUE:
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    case CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING:
    case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    case CUDA_ERROR_INVALID_CLUSTER_SIZE:
    case CUDA_ERROR_NOT_FOUND:
    case CUDA_ERROR_INVALID_HANDLE:
    case CUDA_ERROR_OUT_OF_MEMORY:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_SHARED_OBJECT_INIT_FAILED:
    case CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND:
    case CUDA_ERROR_NOT_SUPPORTED:
      return true;
    default:
      return false;
  }
}

void throw_fault(CUresult r, const std::string& what) {
  std::string msg = error_text(r) + " (" + what + ")";
  if (is_launch_error(r)) throw DeviceFault(DeviceFault::Kind::launch, msg, false);
  // Sticky, or an error we cannot classify: treat the context as unusable.
  throw DeviceFault(DeviceFault::Kind::runtime, msg, true);
}

}  // namespace crucible::cu
