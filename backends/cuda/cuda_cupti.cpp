#include "backends/cuda/cuda_cupti.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#ifdef CRUCIBLE_HAVE_CUPTI
#include <cupti_activity.h>
#endif

namespace crucible {

#ifndef CRUCIBLE_HAVE_CUPTI

CuptiKernelTimes cupti_trace_kernels(CUcontext, CUstream, int, const std::function<void()>&) { return {}; }

#else

namespace {

// The activity-record type of the CUPTI headers built against; fields used here
// (start, end, streamId, name) sit at the same offsets in every recent version.
using KernelRecord = CUpti_ActivityKernel10;

struct Api {
  CUptiResult (*enable)(CUpti_ActivityKind) = nullptr;
  CUptiResult (*disable)(CUpti_ActivityKind) = nullptr;
  CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) = nullptr;
  CUptiResult (*flush_all)(uint32_t) = nullptr;
  CUptiResult (*next_record)(uint8_t*, size_t, CUpti_Activity**) = nullptr;
  CUptiResult (*stream_id)(CUcontext, CUstream, uint32_t*) = nullptr;
  bool ok = false;
};

const Api& api() {
  static const Api a = [] {
    Api a;
    void* h = nullptr;
    const char* env = std::getenv("CRUCIBLE_CUPTI_LIB");
    for (const char* name : {env, "libcupti.so.13", "libcupti.so.12", "libcupti.so",
                             "/usr/local/cuda/lib64/libcupti.so.13", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
                             "/usr/local/cuda/lib64/libcupti.so", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"}) {
      if (name && *name && (h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!h) return a;
#define CRU_SYM(field, name) a.field = reinterpret_cast<decltype(a.field)>(dlsym(h, name))
    CRU_SYM(enable, "cuptiActivityEnable");
    CRU_SYM(disable, "cuptiActivityDisable");
    CRU_SYM(register_callbacks, "cuptiActivityRegisterCallbacks");
    CRU_SYM(flush_all, "cuptiActivityFlushAll");
    CRU_SYM(next_record, "cuptiActivityGetNextRecord");
    CRU_SYM(stream_id, "cuptiGetStreamId");
#undef CRU_SYM
    a.ok = a.enable && a.disable && a.register_callbacks && a.flush_all && a.next_record && a.stream_id;
    return a;
  }();
  return a;
}

struct Seen {
  uint32_t stream;
  uint64_t ns;
  bool support;
};

std::mutex g_mu;
std::vector<Seen> g_seen;

constexpr size_t kBufferBytes = 4 << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  const Api& a = api();
  CUpti_Activity* rec = nullptr;
  std::vector<Seen> got;
  while (buffer && a.next_record(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
    auto* k = reinterpret_cast<const KernelRecord*>(rec);
    bool support = k->name && std::strncmp(k->name, "cru_", 4) == 0;
    got.push_back({k->streamId, k->end > k->start ? k->end - k->start : 0, support});
  }
  std::free(buffer);
  std::lock_guard<std::mutex> lock(g_mu);
  g_seen.insert(g_seen.end(), got.begin(), got.end());
}

}  // namespace

CuptiKernelTimes cupti_trace_kernels(CUcontext ctx, CUstream stream, int reps, const std::function<void()>& run_once) {
  CuptiKernelTimes out;
  const Api& a = api();
  if (!a.ok) return out;
  static const bool registered = a.register_callbacks(buffer_requested, buffer_completed) == CUPTI_SUCCESS;
  if (!registered) return out;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_seen.clear();
  }
  if (a.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) return out;
  struct Off {  // tracing perturbs launches: never leave it on, whatever happens
    const Api& a;
    ~Off() {
      a.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
      a.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    }
  };
  uint32_t sid = 0;
  bool have_sid = false;
  {
    Off off{a};
    have_sid = a.stream_id(ctx, stream, &sid) == CUPTI_SUCCESS;
    for (int i = 0; i < reps; ++i) run_once();
    a.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  }
  // Without a stream id, every kernel counts: the worker launches on one stream only.
  std::lock_guard<std::mutex> lock(g_mu);
  for (const Seen& s : g_seen) {
    if ((have_sid && s.stream != sid) || s.support) continue;
    out.total_ns += static_cast<double>(s.ns);
    out.kernels += 1;
  }
  g_seen.clear();
  out.ok = true;
  return out;
}

#endif

}  // namespace crucible
