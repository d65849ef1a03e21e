#include "backends/cuda/cuda_device.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include <crucible/philox.h>

#include "backends/common/gpu_device_common.h"
#include "backends/cuda/cuda_cupti.h"
#include "backends/cuda/cuda_nvml.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "harness/error.h"

namespace crucible {

using namespace gpu_common;

namespace {

constexpr unsigned kSupportBlock = 256;           // CRU_REDUCE_THREADS in verify.cuh
constexpr size_t kPrintfFifoBytes = 64 * 1024;   // caps a printf flood per launch
constexpr int64_t kDefaultSmem = 48 * 1024;      // dynamic smem beyond this needs opt-in

int attr(CUdevice dev, CUdevice_attribute a) {
  int v = 0;
  if (cu::driver()->cuDeviceGetAttribute(&v, a, dev) != CUDA_SUCCESS) return 0;
  return v;
}

const char* scalar_size_hint(size_t bytes) {
  switch (bytes) {
    case 4: return "a 4-byte parameter takes i32(...), u32(...) or f32(...)";
    case 8: return "an 8-byte parameter takes a tensor (pointer), i64(...) or f64(...)";
    case 128: return "a 128-byte parameter (CUtensorMap) takes tma(tensor, box: [...])";
    default: return "the plan can pass 4-byte scalars, 8-byte scalars and pointers, and 128-byte tma descriptors";
  }
}

size_t arg_size(const ResolvedArg& a) {
  switch (a.kind) {
    case PlanArg::Kind::tensor: return 8;
    case PlanArg::Kind::tma: return 128;
    case PlanArg::Kind::scalar:
      return (a.scalar_type == ScalarType::i64 || a.scalar_type == ScalarType::f64) ? 8 : 4;
  }
  return 0;
}

std::string arg_desc(const ResolvedArg& a) {
  switch (a.kind) {
    case PlanArg::Kind::tensor: return "a tensor (8-byte pointer)";
    case PlanArg::Kind::tma: return "tma(...) (128-byte CUtensorMap)";
    case PlanArg::Kind::scalar:
      return std::string(scalar_type_name(a.scalar_type)) + "(...) (" + std::to_string(arg_size(a)) + " bytes)";
  }
  return "?";
}

}  // namespace

// ---- device count

int cuda_device_count() {
  const cu::DriverApi* d = cu::driver();
  if (!d) return 0;
  if (d->cuInit(0) != CUDA_SUCCESS) return 0;
  int n = 0;
  if (d->cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
  return n;
}

// ---- module

CudaModule::Function* CudaModule::find(const std::string& name) {
  auto it = fns_.find(name);
  if (it != fns_.end()) return &it->second;
  const cu::DriverApi* d = cu::driver();
  Function f;
  CUresult r = d->cuModuleGetFunction(&f.fn, mod_.get(), name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) return nullptr;
  cu::check(r, "cuModuleGetFunction('" + name + "')");
  d->cuFuncGetAttribute(&f.max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f.fn);
  d->cuFuncGetAttribute(&f.static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f.fn);
  if (d->cuFuncGetParamInfo) {
    f.have_params = true;
    for (size_t i = 0; i < 4096; ++i) {
      size_t offset = 0, size = 0;
      CUresult pr = d->cuFuncGetParamInfo(f.fn, i, &offset, &size);
      if (pr == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
      if (pr != CUDA_SUCCESS) {
        f.have_params = false;
        f.param_sizes.clear();
        break;
      }
      f.param_sizes.push_back(size);
    }
  }
  return &fns_.emplace(name, std::move(f)).first->second;
}

// ---- device

// A kernel parameter's bytes; CUtensorMap needs 64-byte alignment.
struct alignas(64) CudaDevice::ArgSlot {
  unsigned char bytes[128];
};

CudaDevice::CudaDevice(int ordinal) : ordinal_(ordinal) {
  const cu::DriverApi* d = cu::driver();
  if (!d) CRU_THROW("CUDA is unavailable: " + cu::driver_load_error());
  if (CUresult r = d->cuInit(0); r != CUDA_SUCCESS) CRU_THROW("cuInit: " + cu::error_text(r));
  if (CUresult r = d->cuDeviceGet(&dev_, ordinal); r != CUDA_SUCCESS)
    CRU_THROW("cuDeviceGet(" + std::to_string(ordinal) + "): " + cu::error_text(r));

  char name[256] = {};
  d->cuDeviceGetName(name, sizeof name, dev_);
  int major = attr(dev_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int minor = attr(dev_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  facts_.backend = "cuda";
  facts_.name = name;
  facts_.arch = "sm_" + std::to_string(major * 10 + minor);
  facts_.ordinal = ordinal;
  facts_.sm_count = attr(dev_, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  facts_.warp_size = attr(dev_, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  facts_.max_threads_per_block = attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  facts_.max_smem_per_block = attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  facts_.max_smem_per_block_optin = std::max<int64_t>(
      attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), facts_.max_smem_per_block);
  facts_.l2_bytes = attr(dev_, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  size_t total = 0;
  d->cuDeviceTotalMem(&total, dev_);
  facts_.global_mem_bytes = static_cast<int64_t>(total);
  facts_.clock_khz = attr(dev_, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  facts_.supports_cluster = major >= 9 && attr(dev_, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) != 0 && d->cuLaunchKernelEx;
  facts_.supports_tma = major >= 9 && d->cuTensorMapEncodeTiled;

  if (d->cuDeviceGetUuid) {
    CUuuid u{};
    if (d->cuDeviceGetUuid(&u, dev_) == CUDA_SUCCESS) {
      char buf[40];
      for (int i = 0; i < 16; ++i) std::snprintf(buf + 2 * i, 3, "%02x", static_cast<unsigned char>(u.bytes[i]));
      uuid_ = buf;
    }
  }
  if (d->cuDeviceGetPCIBusId) {
    char bus[64] = {};
    if (d->cuDeviceGetPCIBusId(bus, sizeof bus, dev_) == CUDA_SUCCESS) pci_bus_id_ = bus;
  }

  try {
    ctx_ = std::make_unique<cu::PrimaryContext>(dev_);
    make_current();
    // Before any launch: a small printf FIFO caps what a printf flood can emit.
    d->cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, kPrintfFifoBytes);
    stream_ = cu::make_stream();
    ev_start_ = cu::make_event();
    ev_stop_ = cu::make_event();
    CUdeviceptr p = 0;
    cu::check(d->cuMemAlloc(&p, sizeof(CompareSummary)), "cuMemAlloc (summary)");
    scratch_ = cu::DeviceMem(p);
    // Twice the L2, so a memset leaves nothing of the last sample's data in it.
    flush_bytes_ = static_cast<size_t>(std::max<int64_t>(2 * facts_.l2_bytes, 8 << 20));
    cu::check(d->cuMemAlloc(&p, flush_bytes_), "cuMemAlloc (L2 flush buffer)");
    flush_ = cu::DeviceMem(p);
    void* host = nullptr;
    cu::check(d->cuMemHostAlloc(&host, 64, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP), "cuMemHostAlloc");
    block_flag_ = cu::HostMem(host);
    std::memset(host, 0, 64);
    cu::check(d->cuMemHostGetDevicePointer(&block_flag_dev_, host, 0), "cuMemHostGetDevicePointer");
  } catch (const DeviceFault& e) {
    CRU_THROW(std::string("opening CUDA device ") + std::to_string(ordinal) + ": " + e.what());
  }
}

CudaDevice::~CudaDevice() {
  if (*poisoned_) {
    // A kernel may still be running (timeout) or the context is dead: freeing could
    // block or fail. The process is about to exit; leave everything to it.
    for (auto& [p, m] : buffers_) m.release();
    (void)scratch_.release(), (void)flush_.release(), (void)block_flag_.release();
    (void)stream_.release(), (void)ev_start_.release(), (void)ev_stop_.release();
    (void)support_.release();
    if (ctx_) ctx_->leak();
    return;
  }
  if (ctx_) cu::driver()->cuCtxSetCurrent(ctx_->get());
  if (stream_) cu::driver()->cuStreamSynchronize(stream_.get());
}

void CudaDevice::make_current() {
  CUresult r = cu::driver()->cuCtxSetCurrent(ctx_->get());
  if (r != CUDA_SUCCESS) fault(r, "cuCtxSetCurrent");
}

void CudaDevice::fault(CUresult r, const std::string& what) {
  if (!cu::is_launch_error(r)) *poisoned_ = true;
  cu::throw_fault(r, what);
}

void CudaDevice::sync(const std::string& what, int64_t deadline_ms) {
  const cu::DriverApi* d = cu::driver();
  auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::milliseconds(deadline_ms);
  // Spin briefly (short kernels finish in microseconds), then back off to sleeps.
  for (int polls = 0;; ++polls) {
    CUresult r = d->cuStreamQuery(stream_.get());
    if (r == CUDA_SUCCESS) return;
    if (r != CUDA_ERROR_NOT_READY) fault(r, what);
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

size_t CudaDevice::size_of(uint64_t buffer) const {
  auto it = sizes_.find(static_cast<CUdeviceptr>(buffer));
  if (it == sizes_.end()) CRU_THROW("unknown CUDA buffer id " + std::to_string(buffer));
  return it->second;
}

unsigned CudaDevice::support_grid(uint64_t work) const {
  uint64_t blocks = (work + kSupportBlock - 1) / kSupportBlock;
  uint64_t cap = static_cast<uint64_t>(std::max<int64_t>(facts_.sm_count, 1)) * 8;
  return static_cast<unsigned>(std::clamp<uint64_t>(blocks, 1, cap));
}

uint64_t CudaDevice::alloc(size_t bytes) {
  make_current();
  CUdeviceptr p = 0;
  CUresult r = cu::driver()->cuMemAlloc(&p, std::max<size_t>(bytes, 1));
  if (r != CUDA_SUCCESS) fault(r, "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
  buffers_.emplace(p, cu::DeviceMem(p));
  sizes_[p] = bytes;
  return static_cast<uint64_t>(p);
}

void CudaDevice::release(uint64_t buffer) {
  auto it = buffers_.find(static_cast<CUdeviceptr>(buffer));
  if (it == buffers_.end()) return;
  if (!*poisoned_) {
    // Finish what may still use the buffer, under the deadline: cuMemFree would wait
    // for it with none. Never throws (called from destructors); a fault leaks instead.
    try {
      make_current();
      sync("work before freeing a buffer");
    } catch (const std::exception&) {
    }
  }
  if (*poisoned_) it->second.release();
  buffers_.erase(it);
  sizes_.erase(static_cast<CUdeviceptr>(buffer));
}

void CudaDevice::upload(uint64_t buffer, const void* src, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("upload of " + std::to_string(bytes) + " bytes into a smaller buffer");
  make_current();
  sync("work before an upload");
  if (CUresult r = cu::driver()->cuMemcpyHtoD(static_cast<CUdeviceptr>(buffer), src, bytes); r != CUDA_SUCCESS)
    fault(r, "cuMemcpyHtoD");
}

void CudaDevice::download(uint64_t buffer, void* dst, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("download of " + std::to_string(bytes) + " bytes from a smaller buffer");
  make_current();
  sync("work before a download");
  if (CUresult r = cu::driver()->cuMemcpyDtoH(dst, static_cast<CUdeviceptr>(buffer), bytes); r != CUDA_SUCCESS)
    fault(r, "cuMemcpyDtoH");
}

// ---- support kernels

CUfunction CudaDevice::support(const char* name) {
  if (!support_) {
    make_current();
    NvrtcCompiler nvrtc(facts_.arch);
    std::vector<uint8_t> cubin = nvrtc.compile_support(facts_.arch);
    CUmodule m = nullptr;
    CUresult r = cu::driver()->cuModuleLoadDataEx(&m, cubin.data(), 0, nullptr, nullptr);
    if (r != CUDA_SUCCESS) CRU_THROW("loading the support kernels: " + cu::error_text(r));
    support_ = std::make_unique<CudaModule>(cu::ModuleHandle(m), poisoned_);
  }
  CudaModule::Function* f = support_->find(name);
  if (!f) CRU_THROW(std::string("support kernel '") + name + "' is missing");
  return f->fn;
}

void CudaDevice::launch_support(const char* name, unsigned grid, unsigned block, void** params, const char* what) {
  CUfunction fn = support(name);
  CUresult r = cu::driver()->cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, stream_.get(), params, nullptr);
  if (r != CUDA_SUCCESS) fault(r, std::string("cuLaunchKernel(") + name + ") for " + what);
}

void CudaDevice::fill(uint64_t buffer, const FillSpec& s) {
  if (s.count * dtype_size(s.dtype) > size_of(buffer)) CRU_THROW("fill past the end of a buffer");
  if (s.count == 0) return;
  make_current();
  CUdeviceptr dst = buffer;
  unsigned long long count = s.count, seed = s.seed;
  unsigned int stream = s.stream;
  int dtype = static_cast<int>(s.dtype), dist = s.dist;
  double p0 = s.p0, p1 = s.p1;
  void* params[] = {&dst, &count, &seed, &stream, &dtype, &dist, &p0, &p1};
  launch_support("cru_fill", support_grid(count), kSupportBlock, params, "fill");
}

void CudaDevice::poison(uint64_t buffer, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("poison past the end of a buffer");
  if (bytes == 0) return;
  make_current();
  CUresult r = cu::driver()->cuMemsetD8Async(static_cast<CUdeviceptr>(buffer), 0xFF, bytes, stream_.get());
  if (r != CUDA_SUCCESS) fault(r, "cuMemsetD8Async (poison)");
}

uint64_t CudaDevice::checksum(uint64_t buffer, size_t bytes) {
  if (bytes > size_of(buffer)) CRU_THROW("checksum past the end of a buffer");
  make_current();
  const cu::DriverApi* d = cu::driver();
  if (CUresult r = d->cuMemsetD8Async(scratch_.get(), 0, 8, stream_.get()); r != CUDA_SUCCESS)
    fault(r, "cuMemsetD8Async (checksum)");
  CUdeviceptr p = buffer, out = scratch_.get();
  unsigned long long n = bytes;
  void* params[] = {&p, &n, &out};
  launch_support("cru_checksum", support_grid((bytes + 7) / 8), kSupportBlock, params, "checksum");
  sync("checksum");
  uint64_t h = 0;
  if (CUresult r = d->cuMemcpyDtoH(&h, scratch_.get(), 8); r != CUDA_SUCCESS) fault(r, "cuMemcpyDtoH (checksum)");
  return h ^ mix64(bytes);  // as host_checksum: the length mixed in last
}

CompareStats CudaDevice::compare(uint64_t out, uint64_t ref, Dtype t, uint64_t count, const Tolerance& tol) {
  const size_t es = dtype_size(t);
  if (count * es > size_of(out) || count * es > size_of(ref)) CRU_THROW("compare past the end of a buffer");
  make_current();
  const cu::DriverApi* d = cu::driver();
  CompareSummary s{};
  s.first_mismatch = ~0ull;
  s.out_min_key = ~0ull;
  sync("work before a comparison");
  if (CUresult r = d->cuMemcpyHtoD(scratch_.get(), &s, sizeof s); r != CUDA_SUCCESS) fault(r, "cuMemcpyHtoD (compare)");
  CompareStats st;
  st.count = count;
  if (count > 0) {
    CUdeviceptr o = out, rf = ref, sp = scratch_.get();
    unsigned long long n = count;
    int dtype = static_cast<int>(t);
    double atol = tol.atol, rtol = tol.rtol;
    void* params[] = {&o, &rf, &n, &dtype, &atol, &rtol, &sp};
    launch_support("cru_compare", support_grid(count), kSupportBlock, params, "compare");
    sync("compare");
    if (CUresult r = d->cuMemcpyDtoH(&s, scratch_.get(), sizeof s); r != CUDA_SUCCESS) fault(r, "cuMemcpyDtoH (compare)");
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
    CUdeviceptr off = s.first_mismatch * es;
    if (CUresult r = d->cuMemcpyDtoH(eo, static_cast<CUdeviceptr>(out) + off, es); r != CUDA_SUCCESS)
      fault(r, "cuMemcpyDtoH (first mismatch)");
    if (CUresult r = d->cuMemcpyDtoH(er, static_cast<CUdeviceptr>(ref) + off, es); r != CUDA_SUCCESS)
      fault(r, "cuMemcpyDtoH (first mismatch)");
    st.first_actual = element_to_double(eo, t);
    st.first_expected = element_to_double(er, t);
  }
  return st;
}

// ---- candidate modules

std::unique_ptr<Module> CudaDevice::load(const std::vector<uint8_t>& artifact) {
  if (artifact.empty()) throw DeviceFault(DeviceFault::Kind::launch, "empty CUBIN", false);
  make_current();
  CUmodule m = nullptr;
  CUresult r = cu::driver()->cuModuleLoadDataEx(&m, artifact.data(), 0, nullptr, nullptr);
  if (r != CUDA_SUCCESS) fault(r, "cuModuleLoadData");
  return std::make_unique<CudaModule>(cu::ModuleHandle(m), poisoned_);
}

CudaModule::Function& CudaDevice::function_for(CudaModule& m, const ResolvedLaunch& l) {
  CudaModule::Function* f = m.find(l.kernel);
  if (!f)
    throw PlanError(where(l) + "no kernel named '" + l.kernel +
                    "' in the compiled source (did you declare it extern \"C\" __global__?)");
  return *f;
}

void CudaDevice::check(Module& mod, const std::vector<ResolvedLaunch>& launches) {
  auto& m = dynamic_cast<CudaModule&>(mod);
  make_current();
  const cu::DriverApi* d = cu::driver();
  const int64_t max_block[3] = {attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                                attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                                attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
  const int64_t max_grid[3] = {attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                               attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                               attr(dev_, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
  static const char* axis[3] = {"x", "y", "z"};
  for (const ResolvedLaunch& l : launches) {
    CudaModule::Function& f = function_for(m, l);
    const std::string at = where(l);

    // Arguments: count and sizes, as the compiled kernel declares them.
    if (f.have_params) {
      if (f.param_sizes.size() != l.args.size())
        throw PlanError(at + "kernel '" + l.kernel + "' takes " + std::to_string(f.param_sizes.size()) +
                        " parameters but the plan passes " + std::to_string(l.args.size()) + " arguments");
      for (size_t i = 0; i < l.args.size(); ++i) {
        size_t want = f.param_sizes[i], have = arg_size(l.args[i]);
        if (want != have)
          throw PlanError(at + "argument " + std::to_string(i + 1) + " is " + arg_desc(l.args[i]) + " but parameter " +
                          std::to_string(i + 1) + " of kernel '" + l.kernel + "' is " + std::to_string(want) +
                          " bytes; " + scalar_size_hint(want));
      }
    }

    // Geometry.
    int64_t threads = 1;
    for (int k = 0; k < 3; ++k) {
      if (l.block[k] > max_block[k])
        throw PlanError(at + "block." + axis[k] + " is " + std::to_string(l.block[k]) + ", over the device's limit of " +
                        std::to_string(max_block[k]));
      if (l.grid[k] > max_grid[k])
        throw PlanError(at + "grid." + axis[k] + " is " + std::to_string(l.grid[k]) + ", over the device's limit of " +
                        std::to_string(max_grid[k]));
      threads *= l.block[k];
    }
    if (threads > f.max_threads)
      throw PlanError(at + "block " + dims(l.block) + " is " + std::to_string(threads) + " threads, but kernel '" +
                      l.kernel + "' allows at most " + std::to_string(f.max_threads) +
                      " per block (its register use and __launch_bounds__ decide this)");

    // Shared memory: static + dynamic within the opt-in limit; opt in past 48 KiB.
    const int64_t total = f.static_smem + l.smem;
    if (total > facts_.max_smem_per_block_optin)
      throw PlanError(at + "shared memory " + std::to_string(f.static_smem) + " static + " + std::to_string(l.smem) +
                      " dynamic = " + std::to_string(total) + " bytes, over the device's limit of " +
                      std::to_string(facts_.max_smem_per_block_optin) + " bytes per block");
    if (total > kDefaultSmem && f.dyn_smem_set < l.smem) {
      CUresult r = d->cuFuncSetAttribute(f.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(l.smem));
      if (r != CUDA_SUCCESS)
        throw PlanError(at + "cannot opt in to " + std::to_string(l.smem) + " bytes of dynamic shared memory: " +
                        cu::error_text(r));
      f.dyn_smem_set = static_cast<int>(l.smem);
    }

    // Thread block clusters.
    const bool cluster = l.cluster[0] || l.cluster[1] || l.cluster[2];
    if (cluster) {
      if (!facts_.supports_cluster)
        throw PlanError(at + "'cluster' needs thread block clusters (compute capability 9.0 or later); this device is " +
                        facts_.arch);
      int64_t size = 1;
      for (int k = 0; k < 3; ++k) {
        int64_t c = std::max<int64_t>(l.cluster[k], 1);
        if (l.grid[k] % c != 0)
          throw PlanError(at + "grid." + axis[k] + " = " + std::to_string(l.grid[k]) + " is not a multiple of cluster." +
                          axis[k] + " = " + std::to_string(c));
        size *= c;
      }
      if (size > 8)
        throw PlanError(at + "cluster " + dims(l.cluster) + " has " + std::to_string(size) +
                        " blocks; at most 8 blocks per cluster are portable");
    }

    // TMA descriptors: encode once now, so a bad box or stride is a plan error.
    for (size_t i = 0; i < l.args.size(); ++i) {
      if (l.args[i].kind != PlanArg::Kind::tma) continue;
      if (!facts_.supports_tma)
        throw PlanError(at + "argument " + std::to_string(i + 1) +
                        ": tma(...) needs the Tensor Memory Accelerator (compute capability 9.0 or later); this device is " +
                        facts_.arch);
      ArgSlot slot;
      encode_tma(l, i, slot.bytes);
    }
  }
}

void CudaDevice::encode_tma(const ResolvedLaunch& l, size_t index, void* out) {
  const ResolvedArg& a = l.args[index];
  const std::string at = where(l) + "argument " + std::to_string(index + 1) + " (tma): ";
  if (!cu::driver()->cuTensorMapEncodeTiled)
    throw PlanError(at + "this CUDA driver has no cuTensorMapEncodeTiled");
  CUtensorMapDataType type;
  switch (a.dtype) {
    case Dtype::f32: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32; break;
    case Dtype::f16: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16; break;
    case Dtype::bf16: type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16; break;
    case Dtype::f64: type = CU_TENSOR_MAP_DATA_TYPE_FLOAT64; break;
    case Dtype::i32: type = CU_TENSOR_MAP_DATA_TYPE_INT32; break;
    case Dtype::i64: type = CU_TENSOR_MAP_DATA_TYPE_INT64; break;
    default: type = CU_TENSOR_MAP_DATA_TYPE_UINT8; break;
  }
  const size_t rank = a.shape.size();
  if (rank < 1 || rank > 5) throw PlanError(at + "tensors of 1 to 5 dimensions only, this one has " + std::to_string(rank));
  if (a.box.size() != rank)
    throw PlanError(at + "box has " + std::to_string(a.box.size()) + " entries for a tensor of " + std::to_string(rank) +
                    " dimensions");
  const uint64_t es = dtype_size(a.dtype);
  // The driver's order is innermost first: globalDim[0] is the last (contiguous) axis.
  cuuint64_t gdim[5], gstride[5];
  cuuint32_t box[5], estride[5];
  uint64_t pitch = es;
  for (size_t k = 0; k < rank; ++k) {
    int64_t extent = a.shape[rank - 1 - k];
    gdim[k] = static_cast<cuuint64_t>(extent);
    if (k > 0) {
      if (pitch % 16 != 0)
        throw PlanError(at + "the stride of dimension " + std::to_string(rank - k) + " is " + std::to_string(pitch) +
                        " bytes; TMA needs strides that are multiples of 16 bytes");
      gstride[k - 1] = pitch;
    }
    pitch *= static_cast<uint64_t>(extent);
    // box is written innermost first, as the driver takes it.
    if (a.box[k] > 256)
      throw PlanError(at + "box entry " + std::to_string(k + 1) + " is " + std::to_string(a.box[k]) +
                      "; TMA boxes are at most 256 per dimension");
    box[k] = static_cast<cuuint32_t>(a.box[k]);
    estride[k] = 1;
  }
  if ((box[0] * es) % 16 != 0)
    throw PlanError(at + "the box's inner extent is " + std::to_string(box[0] * es) +
                    " bytes; TMA needs a multiple of 16 bytes");
  CUtensorMapSwizzle sw;
  switch (a.swizzle) {
    case 0: sw = CU_TENSOR_MAP_SWIZZLE_NONE; break;
    case 32: sw = CU_TENSOR_MAP_SWIZZLE_32B; break;
    case 64: sw = CU_TENSOR_MAP_SWIZZLE_64B; break;
    case 128: sw = CU_TENSOR_MAP_SWIZZLE_128B; break;
    default: throw PlanError(at + "swizzle must be 0, 32, 64 or 128, not " + std::to_string(a.swizzle));
  }
  if (a.swizzle && box[0] * es > static_cast<uint64_t>(a.swizzle))
    throw PlanError(at + "with swizzle " + std::to_string(a.swizzle) + " the box's inner extent (" +
                    std::to_string(box[0] * es) + " bytes) must be at most " + std::to_string(a.swizzle) + " bytes");
  auto* map = static_cast<CUtensorMap*>(out);
  CUresult r = cu::driver()->cuTensorMapEncodeTiled(
      map, type, static_cast<cuuint32_t>(rank), reinterpret_cast<void*>(static_cast<uintptr_t>(a.buffer)), gdim, gstride,
      box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw PlanError(at + "cuTensorMapEncodeTiled refused it: " + cu::error_text(r));
}

void CudaDevice::build_args(const ResolvedLaunch& l, std::vector<ArgSlot>& slots, std::vector<void*>& ptrs) {
  slots.assign(l.args.size(), ArgSlot{});
  ptrs.resize(l.args.size());
  for (size_t i = 0; i < l.args.size(); ++i) {
    const ResolvedArg& a = l.args[i];
    unsigned char* b = slots[i].bytes;
    switch (a.kind) {
      case PlanArg::Kind::tensor: {
        CUdeviceptr p = static_cast<CUdeviceptr>(a.buffer);
        std::memcpy(b, &p, sizeof p);
        break;
      }
      case PlanArg::Kind::tma:
        encode_tma(l, i, b);
        break;
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
}

void CudaDevice::enqueue(CudaModule& m, const std::vector<ResolvedLaunch>& launches) {
  const cu::DriverApi* d = cu::driver();
  std::vector<ArgSlot> slots;
  std::vector<void*> ptrs;
  for (const ResolvedLaunch& l : launches) {
    CudaModule::Function& f = function_for(m, l);
    if (f.static_smem + l.smem > kDefaultSmem && f.dyn_smem_set < l.smem) {
      // check() normally did this; a plan run without check() still gets its opt-in.
      if (d->cuFuncSetAttribute(f.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(l.smem)) ==
          CUDA_SUCCESS)
        f.dyn_smem_set = static_cast<int>(l.smem);
    }
    build_args(l, slots, ptrs);
    const bool cluster = l.cluster[0] || l.cluster[1] || l.cluster[2];
    CUresult r;
    if (cluster) {
      if (!d->cuLaunchKernelEx) throw PlanError(where(l) + "this CUDA driver cannot launch clusters");
      CUlaunchAttribute at{};
      at.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      at.value.clusterDim.x = static_cast<unsigned>(std::max<int64_t>(l.cluster[0], 1));
      at.value.clusterDim.y = static_cast<unsigned>(std::max<int64_t>(l.cluster[1], 1));
      at.value.clusterDim.z = static_cast<unsigned>(std::max<int64_t>(l.cluster[2], 1));
      CUlaunchConfig cfg{};
      cfg.gridDimX = static_cast<unsigned>(l.grid[0]);
      cfg.gridDimY = static_cast<unsigned>(l.grid[1]);
      cfg.gridDimZ = static_cast<unsigned>(l.grid[2]);
      cfg.blockDimX = static_cast<unsigned>(l.block[0]);
      cfg.blockDimY = static_cast<unsigned>(l.block[1]);
      cfg.blockDimZ = static_cast<unsigned>(l.block[2]);
      cfg.sharedMemBytes = static_cast<unsigned>(l.smem);
      cfg.hStream = stream_.get();
      cfg.attrs = &at;
      cfg.numAttrs = 1;
      r = d->cuLaunchKernelEx(&cfg, f.fn, ptrs.data(), nullptr);
    } else {
      r = d->cuLaunchKernel(f.fn, static_cast<unsigned>(l.grid[0]), static_cast<unsigned>(l.grid[1]),
                            static_cast<unsigned>(l.grid[2]), static_cast<unsigned>(l.block[0]),
                            static_cast<unsigned>(l.block[1]), static_cast<unsigned>(l.block[2]),
                            static_cast<unsigned>(l.smem), stream_.get(), ptrs.data(), nullptr);
    }
    if (r != CUDA_SUCCESS)
      fault(r, where(l) + (cluster ? "cuLaunchKernelEx" : "cuLaunchKernel") + " with grid " + dims(l.grid) +
                   ", block " + dims(l.block) + ", " + std::to_string(l.smem) + " bytes of dynamic shared memory");
  }
}

void CudaDevice::run(Module& mod, const std::vector<ResolvedLaunch>& launches) {
  auto& m = dynamic_cast<CudaModule&>(mod);
  make_current();
  enqueue(m, launches);
  sync("the plan's launches (" + plan_names(launches) + ")");
}

double CudaDevice::run_timed(Module& mod, const std::vector<ResolvedLaunch>& launches) {
  auto& m = dynamic_cast<CudaModule&>(mod);
  make_current();
  const cu::DriverApi* d = cu::driver();
  sync("work before a timed sample");
  volatile int* flag = static_cast<volatile int*>(block_flag_.get());
  flag[0] = 0;
  flag[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);

  // Cold cache: overwrite at least the whole L2 before the sample.
  if (CUresult r = d->cuMemsetD8Async(flush_.get(), 0, flush_bytes_, stream_.get()); r != CUDA_SUCCESS)
    fault(r, "cuMemsetD8Async (L2 flush)");
  // Hold the stream until every launch is enqueued; the kernel gives up on its own
  // well before the host's deadline.
  CUdeviceptr fp = block_flag_dev_;
  unsigned long long timeout_ns = static_cast<unsigned long long>(std::clamp<int64_t>(deadline_ms_ / 4, 10, 2000)) * 1000000ull;
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
    if (CUresult r = d->cuEventRecord(ev_start_.get(), stream_.get()); r != CUDA_SUCCESS) fault(r, "cuEventRecord");
    enqueue(m, launches);
    if (CUresult r = d->cuEventRecord(ev_stop_.get(), stream_.get()); r != CUDA_SUCCESS) fault(r, "cuEventRecord");
  }
  sync("a timed sample of the plan (" + plan_names(launches) + ")");
  if (flag[1]) ++blocking_timeouts_;
  float ms = 0;
  if (CUresult r = d->cuEventElapsedTime(&ms, ev_start_.get(), ev_stop_.get()); r != CUDA_SUCCESS)
    fault(r, "cuEventElapsedTime");
  return ms;
}

Device::TraceResult CudaDevice::trace(Module& mod, const std::vector<ResolvedLaunch>& launches, int reps) {
  if (reps <= 0) return {};
  make_current();
  sync("work before tracing");
  CuptiKernelTimes t = cupti_trace_kernels(ctx_->get(), stream_.get(), reps, [&] { run(mod, launches); });
  if (!t.ok) return {};
  TraceResult r;
  r.kernel_ms = t.total_ns / 1e6 / reps;
  r.kernels_per_run = static_cast<double>(t.kernels) / reps;
  return r;
}

int64_t CudaDevice::current_clock_khz() {
  int64_t k = nvml_sm_clock_khz(pci_bus_id_);
  return k > 0 ? k : facts_.clock_khz;
}

}  // namespace crucible
