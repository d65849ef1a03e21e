#include "backends/hip/hip_api.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdlib>

namespace crucible::hip {
namespace {

// ROCm 6 moved hiprtc into libhiprtc; ROCm 5 has it in libamdhip64. An explicit
// path wins (CRUCIBLE_HIP_LIBRARY), for a ROCm outside the loader's path.
void* open_first(std::initializer_list<const char*> names, std::string* why) {
  for (const char* n : names) {
    if (void* h = dlopen(n, RTLD_NOW | RTLD_LOCAL)) return h;
    const char* e = dlerror();
    if (why->empty() && e) *why = e;
  }
  return nullptr;
}

void* open_runtime(std::string* why) {
  if (const char* p = std::getenv("CRUCIBLE_HIP_LIBRARY"); p && *p) return open_first({p}, why);
  return open_first({"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"}, why);
}

template <class Api>
struct Loaded {
  Api api;
  bool ok = false;
  std::string error;
};

Loaded<RuntimeApi> load_runtime() {
  Loaded<RuntimeApi> l;
  std::string why;
  void* h = open_runtime(&why);  // kept for the life of the process
  if (!h) {
    l.error = "cannot load the HIP runtime (libamdhip64): " + why;
    return l;
  }
#define CRU_HIP_LOAD(name, type)                                  \
  l.api.name = reinterpret_cast<type>(dlsym(h, #name));           \
  if (!l.api.name) {                                              \
    l.error = "libamdhip64 lacks " #name;                         \
    return l;                                                     \
  }
  CRU_HIP_RUNTIME_FUNCS(CRU_HIP_LOAD)
  l.ok = true;
  return l;
}

Loaded<RtcApi> load_rtc() {
  Loaded<RtcApi> l;
  std::string why;
  void* h = nullptr;
  if (const char* p = std::getenv("CRUCIBLE_HIPRTC_LIBRARY"); p && *p) h = open_first({p}, &why);
  if (!h) h = open_first({"libhiprtc.so.6", "libhiprtc.so.5"}, &why);
  if (!h || !dlsym(h, "hiprtcCompileProgram")) h = open_runtime(&why);
  if (!h) {
    l.error = "cannot load hiprtc (libhiprtc / libamdhip64): " + why;
    return l;
  }
#define CRU_HIPRTC_LOAD(name, type)                               \
  l.api.name = reinterpret_cast<type>(dlsym(h, #name));           \
  if (!l.api.name) {                                              \
    l.error = "hiprtc library lacks " #name;                      \
    return l;                                                     \
  }
  CRU_HIPRTC_FUNCS(CRU_HIPRTC_LOAD)
  l.ok = true;
  return l;
}
#undef CRU_HIP_LOAD
#undef CRU_HIPRTC_LOAD

const Loaded<RuntimeApi>& loaded_runtime() {
  static const Loaded<RuntimeApi> l = load_runtime();
  return l;
}
const Loaded<RtcApi>& loaded_rtc() {
  static const Loaded<RtcApi> l = load_rtc();
  return l;
}

std::string find_rocm_version() {
  const RtcApi* r = rtc();
  if (!r) return "unknown";
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(r->hiprtcCompileProgram), &info) || !info.dli_fname) return "unknown";
  char real[PATH_MAX];
  std::string path = realpath(info.dli_fname, real) ? real : info.dli_fname;
  // ".../libamdhip64.so.5.2.21153" -> "5.2.21153"
  size_t so = path.rfind(".so.");
  if (so == std::string::npos) return "unknown";
  std::string v = path.substr(so + 4);
  return v.find('.') == std::string::npos ? "unknown" : v;
}

}  // namespace

const RuntimeApi* runtime() { return loaded_runtime().ok ? &loaded_runtime().api : nullptr; }
const std::string& runtime_load_error() { return loaded_runtime().error; }
const RtcApi* rtc() { return loaded_rtc().ok ? &loaded_rtc().api : nullptr; }
const std::string& rtc_load_error() { return loaded_rtc().error; }

const std::string& rocm_version() {
  static const std::string v = find_rocm_version();
  return v;
}

std::string rocm_major_minor() {
  const std::string& v = rocm_version();
  size_t a = v.find('.');
  if (a == std::string::npos) return v;
  size_t b = v.find('.', a + 1);
  return b == std::string::npos ? v : v.substr(0, b);
}

std::string error_text(hipError_t e) {
  std::string s;
  if (const RuntimeApi* r = runtime()) {
    const char* n = r->hipGetErrorName(e);
    s = n ? n : "";
    if (const char* t = r->hipGetErrorString(e)) s += std::string(": ") + t;
  }
  if (s.empty()) s = "hipError " + std::to_string(static_cast<int>(e));
  return s;
}

}  // namespace crucible::hip
