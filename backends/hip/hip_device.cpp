#include "backends/hip/hip_device.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <crucible/philox.h>

#include "backends/common/gpu_device_common.h"
#include "backends/hip/hiprtc_compiler.h"
#include "harness/error.h"

namespace crucible {

using namespace gpu_common;

namespace {

constexpr unsigned kSupportBlock = 256;  // CRU_REDUCE_THREADS in verify.cuh

void* ptr(uint64_t id) { return reinterpret_cast<void*>(static_cast<uintptr_t>(id)); }

}  // namespace

// ---- device count and facts

int hip_device_count() {
  const hip::RuntimeApi* r = hip::runtime();
  if (!r) return 0;
  if (r->hipInit(0) != hipSuccess) return 0;
  int n = 0;
  if (r->hipGetDeviceCount(&n) != hipSuccess) return 0;
  return n;
}

int64_t hip_last_level_cache_bytes(const std::string& gcn_arch, int64_t l2_bytes) {
  if (const char* e = std::getenv("CRUCIBLE_HIP_FLUSH_BYTES"); e && *e) return std::max<int64_t>(std::atoll(e) / 2, 1);
  const std::string p = HiprtcCompiler::processor(gcn_arch);
  int64_t mall = 0;
  if (p == "gfx940" || p == "gfx941" || p == "gfx942") mall = int64_t(256) << 20;      // MI300 Infinity Cache
  else if (p == "gfx1030") mall = int64_t(128) << 20;                                  // Navi 21
  else if (p == "gfx1031") mall = int64_t(96) << 20;                                   // Navi 22
  else if (p == "gfx1032") mall = int64_t(32) << 20;                                   // Navi 23
  else if (p == "gfx1100") mall = int64_t(96) << 20;                                   // Navi 31
  else if (p == "gfx1101") mall = int64_t(64) << 20;                                   // Navi 32
  else if (p == "gfx1102") mall = int64_t(32) << 20;                                   // Navi 33
  return l2_bytes + mall;
}

// ---- module

HipModule::Function* HipModule::find(const std::string& name) {
  auto it = fns_.find(name);
  if (it != fns_.end()) return &it->second;
  const hip::RuntimeApi* d = hip::runtime();
  Function f;
  hipError_t r = d->hipModuleGetFunction(&f.fn, mod_.get(), name.c_str());
  if (r == hipErrorNotFound || r == hipErrorInvalidDeviceFunction || r == hipErrorSharedObjectSymbolNotFound)
    return nullptr;
  hip::check(r, "hipModuleGetFunction('" + name + "')");
  if (d->hipFuncGetAttribute(&f.max_threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f.fn) != hipSuccess)
    f.max_threads = 0;  // unknown: the device limit applies
  if (d->hipFuncGetAttribute(&f.static_smem, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f.fn) != hipSuccess)
    f.static_smem = 0;
  return &fns_.emplace(name, f).first->second;
}

// ---- device

struct alignas(16) HipDevice::ArgSlot {
  unsigned char bytes[16];
};

HipDevice::HipDevice(int ordinal) : ordinal_(ordinal) {
  const hip::RuntimeApi* d = hip::runtime();
  if (!d) CRU_THROW("HIP is unavailable: " + hip::runtime_load_error());
  if (hipError_t r = d->hipInit(0); r != hipSuccess)
    CRU_THROW("hipInit: " + hip::error_text(r) + " (no AMD GPU visible to ROCm " + hip::rocm_version() + "?)");
  int n = 0;
  if (d->hipGetDeviceCount(&n) != hipSuccess || ordinal < 0 || ordinal >= n)
    CRU_THROW("HIP device " + std::to_string(ordinal) + " does not exist (" + std::to_string(n) + " visible)");
  if (hipError_t r = d->hipSetDevice(ordinal); r != hipSuccess)
    CRU_THROW("hipSetDevice(" + std::to_string(ordinal) + "): " + hip::error_text(r));

  hipDeviceProp_t p{};
  if (hipError_t r = d->hipGetDeviceProperties(&p, ordinal); r != hipSuccess)
    CRU_THROW("hipGetDeviceProperties: " + hip::error_text(r));
  gcn_arch_ = p.gcnArchName;
  facts_.backend = "hip";
  facts_.name = p.name;
  facts_.arch = HiprtcCompiler::processor(gcn_arch_.empty() ? "gfx90a" : gcn_arch_);
  facts_.ordinal = ordinal;
  facts_.sm_count = p.multiProcessorCount;  // compute units
  facts_.warp_size = p.warpSize;            // 64 on CDNA (wave64), 32 on RDNA by default
  facts_.max_threads_per_block = p.maxThreadsPerBlock;
  // LDS: 64 KiB per workgroup on CDNA; no opt-in step as on CUDA.
  facts_.max_smem_per_block = static_cast<int64_t>(p.sharedMemPerBlock);
  facts_.max_smem_per_block_optin = facts_.max_smem_per_block;
  facts_.l2_bytes = p.l2CacheSize;
  facts_.global_mem_bytes = static_cast<int64_t>(p.totalGlobalMem);
  facts_.clock_khz = p.clockRate;
  facts_.supports_cluster = false;
  facts_.supports_tma = false;
  for (int k = 0; k < 3; ++k) {
    if (p.maxThreadsDim[k] > 0) max_block_[k] = p.maxThreadsDim[k];
    if (p.maxGridSize[k] > 0) max_grid_[k] = p.maxGridSize[k];
  }

  try {
    stream_ = hip::make_stream();
    ev_start_ = hip::make_event();
    ev_stop_ = hip::make_event();
    void* q = nullptr;
    hip::check(d->hipMalloc(&q, sizeof(CompareSummary)), "hipMalloc (summary)");
    scratch_ = hip::DeviceMem(q);
    // Twice the last-level cache (L2 + Infinity Cache), so a memset leaves nothing
    // of the last sample's data in either.
    flush_bytes_ = static_cast<size_t>(std::max<int64_t>(2 * hip_last_level_cache_bytes(gcn_arch_, facts_.l2_bytes), 8 << 20));
    hip::check(d->hipMalloc(&q, flush_bytes_), "hipMalloc (cache flush buffer)");
    flush_ = hip::DeviceMem(q);
    void* host = nullptr;
    // Coherent (fine-grained) so the spinning kernel sees the host's write.
    hip::check(d->hipHostMalloc(&host, 64, hipHostMallocMapped | hipHostMallocCoherent), "hipHostMalloc");
    block_flag_ = hip::HostMem(host);
    std::memset(host, 0, 64);
    hip::check(d->hipHostGetDevicePointer(&block_flag_dev_, host, 0), "hipHostGetDevicePointer");
  } catch (const DeviceFault& e) {
    CRU_THROW(std::string("opening HIP device ") + std::to_string(ordinal) + ": " + e.what());
  }
}

HipDevice::~HipDevice() {
  if (*poisoned_) {
    // A kernel may still be running (timeout) or the device is dead: freeing could
    // block. The process is about to exit; leave everything to it.
    for (auto& [p, m] : buffers_) m.release();
    (void)scratch_.release(), (void)flush_.release(), (void)block_flag_.release();
    (void)stream_.release(), (void)ev_start_.release(), (void)ev_stop_.release();
    (void)support_.release();
    return;
  }
  make_current();
  if (stream_) (void)hip::runtime()->hipStreamSynchronize(stream_.get());
}

void HipDevice::make_current() {
  // The HIP runtime's current device is per thread.
  hipError_t r = hip::runtime()->hipSetDevice(ordinal_);
  if (r != hipSuccess) fault(r, "hipSetDevice");
}

void HipDevice::fault(hipError_t r, const std::string& what) {
  if (!hip::is_launch_error(r)) *poisoned_ = true;
  hip::throw_fault(r, what);
}

void HipDevice::sync(const std::string& what, int64_t deadline_ms) {
  const hip::RuntimeApi* d = hip::runtime();
  auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::milliseconds(deadline_ms);
  for (int polls = 0;; ++polls) {
    hipError_t r = d->hipStreamQuery(stream_.get());
    if (r == hipSuccess) return;
    if (r != hipErrorNotReady) fault(r, what);
    auto now = std::chrono::steady_clock::now();
    if (now > deadline) {
      *poisoned_ = true;
      throw DeviceFault(DeviceFault::Kind::timeout,
                        what + " did not finish within " + std::to_string(deadline_ms) + " ms", true);
    }
    if (polls < 2000)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(now - start < std::chrono::milliseconds(100) ? std::chrono::microseconds(50)
                                                                               : std::chrono::microseconds(500));
  }
}

size_t HipDevice::size_of(uint64_t buffer) const {
  auto it = sizes_.find(static_cast<uintptr_t>(buffer));
  if (it == sizes_.end()) CRU_THROW("unknown HIP buffer id " + std::to_string(buffer));
  return it->second;
}

unsigned HipDevice::support_grid(uint64_t work) const {
  uint64_t blocks = (work + kSupportBlock - 1) / kSupportBlock;
  uint64_t cap = static_cast<uint64_t>(std::max<int64_t>(facts_.sm_count, 1)) * 8;
  return static_cast<unsigned>(std::clamp<uint64_t>(blocks, 1, cap));
}

uint64_t HipDevice::alloc(size_t bytes) {
  make_current();
  void* p = nullptr;
  hipError_t r = hip::runtime()->hipMalloc(&p, std::max<size_t>(bytes, 1));
  if (r != hipSuccess) fault(r, "hipMalloc(" + std::to_string(bytes) + " bytes)");
  auto id = reinterpret_cast<uintptr_t>(p);
  buffers_.emplace(id, hip::DeviceMem(p));
  sizes_[id] = bytes;
  return id;
}

void HipDevice::release(uint64_t buffer) {
  auto it = buffers_.find(static_cast<uintptr_t>(buffer));
  if (it == buffers_.end()) return;
  if (!*poisoned_) {
    // Finish what may still use the buffer, under the deadline. Never throws.
    try {
      make_current();
      sync("work before freeing a buffer");
    } catch (const std::exception&) {
    }
  }
  if (*poisoned_) it->second.release();
  buffers_.erase(it);
  sizes_.erase(static_cast<uintptr_t>(buffer));
}

void HipDevice::upload(uint64_t buffer, const void* src, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("upload of " + std::to_string(bytes) + " bytes into a smaller buffer");
  make_current();
  sync("work before an upload");
  if (hipError_t r = hip::runtime()->hipMemcpyHtoD(ptr(buffer), const_cast<void*>(src), bytes); r != hipSuccess)
    fault(r, "hipMemcpyHtoD");
}

void HipDevice::download(uint64_t buffer, void* dst, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("download of " + std::to_string(bytes) + " bytes from a smaller buffer");
  make_current();
  sync("work before a download");
  if (hipError_t r = hip::runtime()->hipMemcpyDtoH(dst, ptr(buffer), bytes); r != hipSuccess) fault(r, "hipMemcpyDtoH");
}

// ---- support kernels: backends/common/kernels, the same sources as CUDA

hipFunction_t HipDevice::support(const char* name) {
  if (!support_) {
    make_current();
    HiprtcCompiler rtc(gcn_arch_);
    std::vector<uint8_t> code = rtc.compile_support(gcn_arch_.empty() ? facts_.arch : gcn_arch_);
    hipModule_t m = nullptr;
    hipError_t r = hip::runtime()->hipModuleLoadData(&m, code.data());
    if (r != hipSuccess) CRU_THROW("loading the support kernels: " + hip::error_text(r));
    support_ = std::make_unique<HipModule>(hip::ModuleHandle(m), poisoned_);
  }
  HipModule::Function* f = support_->find(name);
  if (!f) CRU_THROW(std::string("support kernel '") + name + "' is missing");
  return f->fn;
}

void HipDevice::launch_support(const char* name, unsigned grid, unsigned block, void** params, const char* what) {
  hipFunction_t fn = support(name);
  hipError_t r = hip::runtime()->hipModuleLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, stream_.get(), params, nullptr);
  if (r != hipSuccess) fault(r, std::string("hipModuleLaunchKernel(") + name + ") for " + what);
}

void HipDevice::fill(uint64_t buffer, const FillSpec& s) {
  if (s.count * dtype_size(s.dtype) > size_of(buffer)) CRU_THROW("fill past the end of a buffer");
  if (s.count == 0) return;
  make_current();
  void* dst = ptr(buffer);
  unsigned long long count = s.count, seed = s.seed;
  unsigned int stream = s.stream;
  int dtype = static_cast<int>(s.dtype), dist = s.dist;
  double p0 = s.p0, p1 = s.p1;
  void* params[] = {&dst, &count, &seed, &stream, &dtype, &dist, &p0, &p1};
  launch_support("cru_fill", support_grid(count), kSupportBlock, params, "fill");
}

void HipDevice::poison(uint64_t buffer, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("poison past the end of a buffer");
  if (bytes == 0) return;
  make_current();
  hipError_t r = hip::runtime()->hipMemsetD8Async(ptr(buffer), 0xFF, bytes, stream_.get());
  if (r != hipSuccess) fault(r, "hipMemsetD8Async (poison)");
}

uint64_t HipDevice::checksum(uint64_t buffer, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("checksum past the end of a buffer");
  make_current();
  const hip::RuntimeApi* d = hip::runtime();
  if (hipError_t r = d->hipMemsetD8Async(scratch_.get(), 0, 8, stream_.get()); r != hipSuccess)
    fault(r, "hipMemsetD8Async (checksum)");
  void* p = ptr(buffer);
  void* out = scratch_.get();
  unsigned long long n = bytes;
  void* params[] = {&p, &n, &out};
  launch_support("cru_checksum", support_grid((bytes + 7) / 8), kSupportBlock, params, "checksum");
  sync("checksum");
  uint64_t h = 0;
  if (hipError_t r = d->hipMemcpyDtoH(&h, scratch_.get(), 8); r != hipSuccess) fault(r, "hipMemcpyDtoH (checksum)");
  return h ^ mix64(bytes);  // as host_checksum: the length mixed in last
}

CompareStats HipDevice::compare(uint64_t out, uint64_t ref, Dtype t, uint64_t count, const Tolerance& tol) {
  const size_t es = dtype_size(t);
  if (count * es > size_of(out) || count * es > size_of(ref)) CRU_THROW("compare past the end of a buffer");
  make_current();
  const hip::RuntimeApi* d = hip::runtime();
  CompareSummary s{};
  s.first_mismatch = ~0ull;
  s.out_min_key = ~0ull;
  sync("work before a comparison");
  if (hipError_t r = d->hipMemcpyHtoD(scratch_.get(), &s, sizeof s); r != hipSuccess) fault(r, "hipMemcpyHtoD (compare)");
  CompareStats st;
  st.count = count;
  if (count > 0) {
    void* o = ptr(out);
    void* rf = ptr(ref);
    void* sp = scratch_.get();
    unsigned long long n = count;
    int dtype = static_cast<int>(t);
    double atol = tol.atol, rtol = tol.rtol;
    void* params[] = {&o, &rf, &n, &dtype, &atol, &rtol, &sp};
    launch_support("cru_compare", support_grid(count), kSupportBlock, params, "compare");
    sync("compare");
    if (hipError_t r = d->hipMemcpyDtoH(&s, scratch_.get(), sizeof s); r != hipSuccess) fault(r, "hipMemcpyDtoH (compare)");
  }
  st.mismatches = s.mismatches;
  st.nonfinite = s.nonfinite;
  st.unwritten = s.unwritten;
  st.max_abs_err = bits_to_double(s.max_abs_bits);
  st.max_rel_err = bits_to_double(s.max_rel_bits);
  if (s.finite_outputs > 0) {
    st.out_min = from_order_key(s.out_min_key);
    st.out_max = from_order_key(s.out_max_key);
  }
  if (s.first_mismatch != ~0ull && s.first_mismatch < count) {
    st.first_mismatch = static_cast<int64_t>(s.first_mismatch);
    unsigned char eo[8] = {}, er[8] = {};
    const size_t off = s.first_mismatch * es;
    if (hipError_t r = d->hipMemcpyDtoH(eo, static_cast<char*>(ptr(out)) + off, es); r != hipSuccess)
      fault(r, "hipMemcpyDtoH (first mismatch)");
    if (hipError_t r = d->hipMemcpyDtoH(er, static_cast<char*>(ptr(ref)) + off, es); r != hipSuccess)
      fault(r, "hipMemcpyDtoH (first mismatch)");
    st.first_actual = element_to_double(eo, t);
    st.first_expected = element_to_double(er, t);
  }
  return st;
}

// ---- candidate modules

std::unique_ptr<Module> HipDevice::load(const std::vector<uint8_t>& artifact) {
  if (artifact.empty()) throw DeviceFault(DeviceFault::Kind::launch, "empty code object", false);
  make_current();
  hipModule_t m = nullptr;
  hipError_t r = hip::runtime()->hipModuleLoadData(&m, artifact.data());
  if (r != hipSuccess) fault(r, "hipModuleLoadData");
  return std::make_unique<HipModule>(hip::ModuleHandle(m), poisoned_);
}

HipModule::Function& HipDevice::function_for(HipModule& m, const ResolvedLaunch& l) {
  HipModule::Function* f = m.find(l.kernel);
  if (!f)
    throw PlanError(where(l) + "no kernel named '" + l.kernel +
                    "' in the compiled source (did you declare it extern \"C\" __global__?)");
  return *f;
}

void HipDevice::check(Module& mod, const std::vector<ResolvedLaunch>& launches) {
  auto& m = dynamic_cast<HipModule&>(mod);
  make_current();
  static const char* axis[3] = {"x", "y", "z"};
  for (const ResolvedLaunch& l : launches) {
    const std::string at = where(l);
    // Hopper features have no HIP counterpart: refused before anything is looked up.
    if (l.cluster[0] || l.cluster[1] || l.cluster[2])
      throw PlanError(at + "'cluster' (thread block clusters) is not supported on HIP backend");
    for (size_t i = 0; i < l.args.size(); ++i)
      if (l.args[i].kind == PlanArg::Kind::tma)
        throw PlanError(at + "argument " + std::to_string(i + 1) + ": tma(...) is not supported on HIP backend");
    HipModule::Function& f = function_for(m, l);
    // HIP 5.2 cannot report a kernel's parameter list (no cuFuncGetParamInfo), so
    // argument count and sizes are not checked here; geometry and LDS are.
    int64_t threads = 1;
    for (int k = 0; k < 3; ++k) {
      if (l.block[k] > max_block_[k])
        throw PlanError(at + "block." + axis[k] + " is " + std::to_string(l.block[k]) + ", over the device's limit of " +
                        std::to_string(max_block_[k]));
      if (l.grid[k] > max_grid_[k])
        throw PlanError(at + "grid." + axis[k] + " is " + std::to_string(l.grid[k]) + ", over the device's limit of " +
                        std::to_string(max_grid_[k]));
      threads *= l.block[k];
    }
    const int64_t limit = f.max_threads > 0 ? f.max_threads : facts_.max_threads_per_block;
    if (threads > limit)
      throw PlanError(at + "block " + dims(l.block) + " is " + std::to_string(threads) + " threads, but kernel '" +
                      l.kernel + "' allows at most " + std::to_string(limit) +
                      " per block (__launch_bounds__ and register use decide this; the HIP default is 1024)");
    const int64_t total = f.static_smem + l.smem;
    if (total > facts_.max_smem_per_block)
      throw PlanError(at + "shared memory (LDS) " + std::to_string(f.static_smem) + " static + " +
                      std::to_string(l.smem) + " dynamic = " + std::to_string(total) +
                      " bytes, over the device's limit of " + std::to_string(facts_.max_smem_per_block) +
                      " bytes per block");
  }
}

void HipDevice::enqueue(HipModule& m, const std::vector<ResolvedLaunch>& launches) {
  const hip::RuntimeApi* d = hip::runtime();
  std::vector<ArgSlot> slots;
  std::vector<void*> ptrs;
  for (const ResolvedLaunch& l : launches) {
    if (l.cluster[0] || l.cluster[1] || l.cluster[2])
      throw PlanError(where(l) + "'cluster' (thread block clusters) is not supported on HIP backend");
    HipModule::Function& f = function_for(m, l);
    slots.assign(l.args.size(), ArgSlot{});
    ptrs.resize(l.args.size());
    for (size_t i = 0; i < l.args.size(); ++i) {
      const ResolvedArg& a = l.args[i];
      unsigned char* b = slots[i].bytes;
      switch (a.kind) {
        case PlanArg::Kind::tma:
          throw PlanError(where(l) + "argument " + std::to_string(i + 1) + ": tma(...) is not supported on HIP backend");
        case PlanArg::Kind::tensor: {
          void* p = ptr(a.buffer);
          std::memcpy(b, &p, sizeof p);
          break;
        }
        case PlanArg::Kind::scalar:
          switch (a.scalar_type) {
            case ScalarType::i32: {
              int32_t v = static_cast<int32_t>(a.ival);
              std::memcpy(b, &v, 4);
              break;
            }
            case ScalarType::u32: {
              uint32_t v = static_cast<uint32_t>(a.ival);
              std::memcpy(b, &v, 4);
              break;
            }
            case ScalarType::i64: {
              int64_t v = a.ival;
              std::memcpy(b, &v, 8);
              break;
            }
            case ScalarType::f32: {
              float v = static_cast<float>(a.fval);
              std::memcpy(b, &v, 4);
              break;
            }
            case ScalarType::f64: {
              double v = a.fval;
              std::memcpy(b, &v, 8);
              break;
            }
          }
          break;
      }
      ptrs[i] = b;
    }
    hipError_t r = d->hipModuleLaunchKernel(
        f.fn, static_cast<unsigned>(l.grid[0]), static_cast<unsigned>(l.grid[1]), static_cast<unsigned>(l.grid[2]),
        static_cast<unsigned>(l.block[0]), static_cast<unsigned>(l.block[1]), static_cast<unsigned>(l.block[2]),
        static_cast<unsigned>(l.smem), stream_.get(), ptrs.data(), nullptr);
    if (r != hipSuccess)
      fault(r, where(l) + "hipModuleLaunchKernel with grid " + dims(l.grid) + ", block " + dims(l.block) + ", " +
                   std::to_string(l.smem) + " bytes of dynamic shared memory");
  }
}

void HipDevice::run(Module& mod, const std::vector<ResolvedLaunch>& launches) {
  auto& m = dynamic_cast<HipModule&>(mod);
  make_current();
  enqueue(m, launches);
  sync("the plan's launches (" + plan_names(launches) + ")");
}

// The core's cold method (as CudaDevice::run_timed): flush the caches, hold the
// stream on a blocking kernel while the launches are enqueued, events around them.
double HipDevice::run_timed(Module& mod, const std::vector<ResolvedLaunch>& launches) {
  auto& m = dynamic_cast<HipModule&>(mod);
  make_current();
  const hip::RuntimeApi* d = hip::runtime();
  sync("work before a timed sample");
  volatile int* flag = static_cast<volatile int*>(block_flag_.get());
  flag[0] = 0;
  flag[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);

  if (hipError_t r = d->hipMemsetD8Async(flush_.get(), 0, flush_bytes_, stream_.get()); r != hipSuccess)
    fault(r, "hipMemsetD8Async (cache flush)");
  void* fp = block_flag_dev_;
  unsigned long long timeout_ns =
      static_cast<unsigned long long>(std::clamp<int64_t>(deadline_ms_ / 4, 10, 2000)) * 1000000ull;
  void* bp[] = {&fp, &timeout_ns};
  launch_support("cru_block_stream", 1, 1, bp, "timing");

  struct Release {  // the blocking kernel must be released even when a launch throws
    volatile int* f;
    ~Release() {
      std::atomic_thread_fence(std::memory_order_seq_cst);
      f[0] = 1;
      std::atomic_thread_fence(std::memory_order_seq_cst);
    }
  };
  {
    Release rel{flag};
    if (hipError_t r = d->hipEventRecord(ev_start_.get(), stream_.get()); r != hipSuccess) fault(r, "hipEventRecord");
    enqueue(m, launches);
    if (hipError_t r = d->hipEventRecord(ev_stop_.get(), stream_.get()); r != hipSuccess) fault(r, "hipEventRecord");
  }
  sync("a timed sample of the plan (" + plan_names(launches) + ")");
  if (flag[1]) ++blocking_timeouts_;
  float ms = 0;
  if (hipError_t r = d->hipEventElapsedTime(&ms, ev_start_.get(), ev_stop_.get()); r != hipSuccess)
    fault(r, "hipEventElapsedTime");
  return ms;
}

// Peaks for % of speed of light; not cached (no UUID in HIP 5.2's properties). As on
// CUDA (cuda_peaks.cpp), a copy bandwidth under half the theoretical one was measured on
// a shared GPU: the theoretical figure stands in.
double HipDevice::theoretical_dram_bytes_per_s() const {
  int mem_khz = 0, bus_bits = 0;
  (void)hip::runtime()->hipDeviceGetAttribute(&mem_khz, hipDeviceAttributeMemoryClockRate, ordinal_);
  (void)hip::runtime()->hipDeviceGetAttribute(&bus_bits, hipDeviceAttributeMemoryBusWidth, ordinal_);
  return 2.0 * mem_khz * 1e3 * bus_bits / 8.0;
}

void HipDevice::measure_peaks() {
  make_current();
  const hip::RuntimeApi* d = hip::runtime();
  sync("work before measuring peaks");
  size_t free_b = 0, total_b = 0;
  (void)d->hipMemGetInfo(&free_b, &total_b);
  size_t bytes = std::max<size_t>(static_cast<size_t>(16 * std::max<int64_t>(facts_.l2_bytes, 1)), size_t(2) << 30);
  bytes = std::min(bytes, free_b / 4);
  bytes &= ~size_t(4095);
  if (bytes < (size_t(64) << 20)) CRU_THROW("too little free device memory to measure copy bandwidth");
  void *a = nullptr, *b = nullptr;
  hip::check(d->hipMalloc(&a, bytes), "hipMalloc (peaks)");
  hip::DeviceMem ma(a);
  hip::check(d->hipMalloc(&b, bytes), "hipMalloc (peaks)");
  hip::DeviceMem mb(b);
  hip::check(d->hipMemsetD8Async(a, 1, bytes, stream_.get()), "hipMemsetD8Async (peaks)");
  const int copies = 10;
  double best_bw = 0;
  for (int trial = 0; trial < 4; ++trial) {
    hip::check(d->hipEventRecord(ev_start_.get(), stream_.get()), "hipEventRecord");
    for (int i = 0; i < copies; ++i)
      hip::check(d->hipMemcpyDtoDAsync(i % 2 ? a : b, i % 2 ? b : a, bytes, stream_.get()), "hipMemcpyDtoDAsync");
    hip::check(d->hipEventRecord(ev_stop_.get(), stream_.get()), "hipEventRecord");
    sync("copy-bandwidth measurement");
    float ms = 0;
    hip::check(d->hipEventElapsedTime(&ms, ev_start_.get(), ev_stop_.get()), "hipEventElapsedTime");
    if (ms > 0) best_bw = std::max(best_bw, 2.0 * static_cast<double>(bytes) * copies / (ms / 1e3));
  }
  const unsigned block = 256;
  const unsigned grid = static_cast<unsigned>(std::max<int64_t>(facts_.sm_count, 1) * 8 * 4);
  void* sink = nullptr;
  hip::check(d->hipMalloc(&sink, size_t(grid) * block * sizeof(float)), "hipMalloc (peaks)");
  hip::DeviceMem ms_sink(sink);
  int iters = 2048;
  float seed = 1.0f;
  void* params[] = {&sink, &iters, &seed};
  double best_flops = 0;
  for (int trial = 0; trial < 4; ++trial) {
    hip::check(d->hipEventRecord(ev_start_.get(), stream_.get()), "hipEventRecord");
    launch_support("cru_fma_peak", grid, block, params, "peak measurement");
    hip::check(d->hipEventRecord(ev_stop_.get(), stream_.get()), "hipEventRecord");
    sync("fma-throughput measurement");
    float ms = 0;
    hip::check(d->hipEventElapsedTime(&ms, ev_start_.get(), ev_stop_.get()), "hipEventElapsedTime");
    double flops = double(grid) * block * iters * 16 * 8 * 2;  // as timing.cuh's cru_fma_peak
    if (ms > 0) best_flops = std::max(best_flops, flops / (ms / 1e3));
  }
  const double theoretical = theoretical_dram_bytes_per_s();
  facts_.peak_bytes_per_s = plausible_bandwidth(best_bw, theoretical) ? best_bw : theoretical;
  facts_.peak_flops = best_flops;
}

}  // namespace crucible
