#include "backends/cuda/cuda_api.h"

#include <dlfcn.h>

#include <mutex>

namespace crucible::cu {
namespace {

using GetProcAddressFn = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

struct Loaded {
  DriverApi api;
  bool ok = false;
  std::string error;
};

Loaded load() {
  Loaded l;
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    l.error = std::string("cannot load the NVIDIA driver: ") + (e ? e : "libcuda.so.1 not found");
    return l;
  }
  // The handle is kept for the life of the process: the driver cannot be unloaded safely.
  auto gpa = reinterpret_cast<GetProcAddressFn>(dlsym(h, "cuGetProcAddress_v2"));
  if (!gpa) {
    l.error = "libcuda lacks cuGetProcAddress_v2: the driver is older than CUDA 12";
    return l;
  }
  auto resolve = [&](const char* name) -> void* {
    void* fn = nullptr;
    CUdriverProcAddressQueryResult status{};
    if (gpa(name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS ||
        status != CU_GET_PROC_ADDRESS_SUCCESS)
      return nullptr;
    return fn;
  };
#define CRU_CUDA_LOAD_REQUIRED(name)                                      \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(resolve(#name));    \
  if (!l.api.name) {                                                      \
    l.error = "libcuda lacks " #name;                                     \
    return l;                                                             \
  }
#define CRU_CUDA_LOAD_OPTIONAL(name) \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(resolve(#name));
  CRU_CUDA_REQUIRED_FUNCS(CRU_CUDA_LOAD_REQUIRED)
  CRU_CUDA_OPTIONAL_FUNCS(CRU_CUDA_LOAD_OPTIONAL)
#undef CRU_CUDA_LOAD_REQUIRED
#undef CRU_CUDA_LOAD_OPTIONAL
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

const DriverApi* driver() { return loaded().ok ? &loaded().api : nullptr; }
const std::string& driver_load_error() { return loaded().error; }

std::string error_name(CUresult r) {
  const char* name = nullptr;
  if (auto* d = driver()) d->cuGetErrorName(r, &name);
  return name ? name : "CUDA_ERROR_" + std::to_string(static_cast<int>(r));
}

std::string error_text(CUresult r) {
  std::string s = error_name(r);
  const char* text = nullptr;
  if (auto* d = driver()) d->cuGetErrorString(r, &text);
  if (text) s += std::string(": ") + text;
  return s;
}

}  // namespace crucible::cu
