// hipError_t -> DeviceFault: which errors poison the device (sticky: the worker is
// replaced) and which only reject one launch. Mirrors backends/cuda/cuda_errors.cpp.
#include "backends/hip/hip_raii.h"

namespace crucible::hip {

bool is_sticky(hipError_t r) {
  switch (r) {
    case hipErrorIllegalAddress:
    case hipErrorLaunchTimeOut:
    case hipErrorLaunchFailure:
    case hipErrorAssert:
    case hipErrorECCNotCorrectable:
    case hipErrorContextIsDestroyed:
    case hipErrorIllegalState:
    case hipErrorPriorLaunchFailure:
    case hipErrorRuntimeMemory:
    case hipErrorRuntimeOther:
    case hipErrorUnknown:
      return true;
    default:
      return false;
  }
}

bool is_launch_error(hipError_t r) {
  switch (r) {
    case hipErrorInvalidValue:
    case hipErrorInvalidConfiguration:
    case hipErrorLaunchOutOfResources:
    case hipErrorCooperativeLaunchTooLarge:
    case hipErrorNotFound:
    case hipErrorInvalidHandle:
    case hipErrorInvalidDeviceFunction:
    case hipErrorOutOfMemory:
    case hipErrorInvalidImage:
    case hipErrorNoBinaryForGpu:
    case hipErrorInvalidKernelFile:
    case hipErrorSharedObjectInitFailed:
    case hipErrorSharedObjectSymbolNotFound:
    case hipErrorNotSupported:
      return true;
    default:
      return false;
  }
}

void throw_fault(hipError_t r, const std::string& what) {
  std::string msg = error_text(r) + " (" + what + ")";
  if (is_launch_error(r)) throw DeviceFault(DeviceFault::Kind::launch, msg, false);
  // Sticky, or an error we cannot classify: treat the device as unusable.
  throw DeviceFault(DeviceFault::Kind::runtime, msg, true);
}

}  // namespace crucible::hip
