// CUPTI's activity API as the timer's cross-check: kernel durations recorded by the
// driver itself, on the harness's stream, while the plan runs. libcupti is loaded
// with dlopen (as libcuda is): a machine without it just has no cross-check.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <functional>

namespace crucible {

struct CuptiKernelTimes {
  bool ok = false;         // false: CUPTI unavailable or refused; the rest is meaningless
  double total_ns = 0;     // summed duration of the kernels seen
  int64_t kernels = 0;     // how many; support kernels (names starting cru_) excluded
};

// Enables concurrent-kernel activity records, calls run_once() `reps` times, flushes,
// and sums the kernels that ran on `stream` of `ctx`. Exceptions from run_once
// propagate (tracing is switched off first).
CuptiKernelTimes cupti_trace_kernels(CUcontext ctx, CUstream stream, int reps, const std::function<void()>& run_once);

}  // namespace crucible
