#include "backends/cpu/cpu_device.h"

#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <thread>

#include "backends/cpu/elf_check.h"
#include "backends/cpu/executor_client.h"
#include "backends/cpu/executor_protocol.h"
#include "backends/cpu/host_compare.h"
#include "harness/error.h"
#include "harness/inputs.h"

namespace crucible {

struct CpuModule;

struct CpuDevice::Modules {
  std::mutex mu;
  std::set<CpuModule*> live;
};

// One loaded candidate (or reference): its executor and the buffers it has mapped.
struct CpuModule : Module {
  CpuModule(std::unique_ptr<ExecutorProcess> e, std::shared_ptr<CpuDevice::Modules> reg)
      : ex(std::move(e)), registry(std::move(reg)) {
    std::lock_guard<std::mutex> lock(registry->mu);
    registry->live.insert(this);
  }
  ~CpuModule() override {
    std::lock_guard<std::mutex> lock(registry->mu);
    registry->live.erase(this);
  }
  std::unique_ptr<ExecutorProcess> ex;
  std::shared_ptr<CpuDevice::Modules> registry;
  std::set<uint64_t> mapped;
};

namespace {

CpuModule& as_cpu(Module& m) {
  auto* c = dynamic_cast<CpuModule*>(&m);
  if (!c) CRU_THROW("module was not loaded by the CPU backend");
  return *c;
}

std::string cpuinfo_field(const std::string& key) {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string v = line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    return v;
  }
  return {};
}

int64_t parse_cache_size(std::string s) {
  // sysfs writes "32768K"
  if (s.empty()) return 0;
  int64_t mult = 1;
  while (!s.empty() && isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  if (!s.empty() && (s.back() == 'K' || s.back() == 'k')) mult = 1024, s.pop_back();
  else if (!s.empty() && (s.back() == 'M' || s.back() == 'm')) mult = 1024 * 1024, s.pop_back();
  return atoll(s.c_str()) * mult;
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  return s;
}

void bad_buffer(uint64_t id, const char* what) {
  CRU_THROW(std::string(what) + ": unknown buffer " + std::to_string(id));
}

}  // namespace

int64_t host_llc_bytes() {
  // sysfs gives the size of one cache instance (what one core can use); sysconf on
  // some machines gives the whole package's.
  int64_t best = 0;
  int best_level = 0;
  for (int i = 0; i < 8; ++i) {
    std::string base = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::string level = slurp(base + "level"), type = slurp(base + "type");
    if (level.empty()) continue;
    int lv = atoi(level.c_str());
    if (type == "Instruction") continue;
    if (lv >= best_level) best_level = lv, best = parse_cache_size(slurp(base + "size"));
  }
  if (best > 0) return best;
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) return l3;
  return int64_t(64) << 20;
}

CpuDevice::CpuDevice() : modules_(std::make_shared<Modules>()) {
  facts_.backend = "cpu";
  facts_.name = cpuinfo_field("model name");
  if (facts_.name.empty()) facts_.name = "host CPU";
  struct utsname u;
  facts_.arch = uname(&u) == 0 ? u.machine : "x86_64";
  facts_.ordinal = 0;
  facts_.sm_count = std::max(1u, std::thread::hardware_concurrency());
  facts_.warp_size = 1;
  facts_.max_threads_per_block = 1;
  facts_.l2_bytes = host_llc_bytes();
  facts_.global_mem_bytes = static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  facts_.clock_khz = static_cast<int64_t>(atof(cpuinfo_field("cpu MHz").c_str()) * 1000);
  if (const char* d = getenv("CRUCIBLE_CPU_RUN_DEADLINE_MS")) {
    int v = atoi(d);
    if (v > 0) run_deadline_ms_ = v;
  }
  // Larger than the cache, so that a sample starts with none of the plan's data in it.
  // Capped at 128 MiB: some machines report the whole package's L3 (hundreds of MiB),
  // more than one core can use, and the flush costs its size on every sample.
  flush_bytes_ = static_cast<size_t>(std::clamp<int64_t>(facts_.l2_bytes + facts_.l2_bytes / 4, int64_t(8) << 20,
                                                         int64_t(128) << 20));
  if (const char* f = getenv("CRUCIBLE_CPU_FLUSH_BYTES")) {
    long long v = atoll(f);
    if (v > 0) flush_bytes_ = static_cast<size_t>(v);
  }
}

CpuDevice::~CpuDevice() {
  if (flush_) munmap(flush_, flush_bytes_);
}

ShmBuffer& CpuDevice::buffer(uint64_t id, const char* what) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = buffers_.find(id);
  if (it == buffers_.end()) bad_buffer(id, what);
  return *it->second;
}

uint64_t CpuDevice::alloc(size_t bytes) {
  auto b = std::make_unique<ShmBuffer>(bytes);  // fresh pages: zero, never an old answer
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t id = next_id_++;  // never reused, so a stale mapping cannot alias a new buffer
  buffers_[id] = std::move(b);
  return id;
}

void CpuDevice::release(uint64_t id) {
  {
    std::lock_guard<std::mutex> lock(modules_->mu);
    for (CpuModule* m : modules_->live)
      if (m->mapped.erase(id)) m->ex->unmap(id);
  }
  std::lock_guard<std::mutex> lock(mu_);
  buffers_.erase(id);
}

void CpuDevice::upload(uint64_t id, const void* src, size_t bytes) {
  ShmBuffer& b = buffer(id, "upload");
  CRU_CHECK(bytes <= b.bytes(), "upload of " + std::to_string(bytes) + " bytes into a buffer of " + std::to_string(b.bytes()));
  std::memcpy(b.data(), src, bytes);
}

void CpuDevice::download(uint64_t id, void* dst, size_t bytes) {
  ShmBuffer& b = buffer(id, "download");
  CRU_CHECK(bytes <= b.bytes(), "download of " + std::to_string(bytes) + " bytes from a buffer of " + std::to_string(b.bytes()));
  std::memcpy(dst, b.data(), bytes);
}

void CpuDevice::fill(uint64_t id, const FillSpec& spec) {
  ShmBuffer& b = buffer(id, "fill");
  CRU_CHECK(spec.count * dtype_size(spec.dtype) <= b.bytes(),
            "fill of " + std::to_string(spec.count) + " elements overflows a buffer of " + std::to_string(b.bytes()) + " bytes");
  generate_host(spec, b.data());
}

void CpuDevice::poison(uint64_t id, size_t bytes) {
  ShmBuffer& b = buffer(id, "poison");
  CRU_CHECK(bytes <= b.bytes(), "poison past the end of the buffer");
  unsigned char* p = b.data();
  if (bytes < (size_t(16) << 20)) {
    std::memset(p, 0xFF, bytes);
    return;
  }
  const size_t chunk = size_t(4) << 20;
  tbb::parallel_for(size_t(0), (bytes + chunk - 1) / chunk, [&](size_t c) {
    size_t off = c * chunk;
    std::memset(p + off, 0xFF, std::min(chunk, bytes - off));
  });
}

uint64_t CpuDevice::checksum(uint64_t id, size_t bytes) {
  ShmBuffer& b = buffer(id, "checksum");
  CRU_CHECK(bytes <= b.bytes(), "checksum past the end of the buffer");
  return host_checksum(b.data(), bytes);
}

CompareStats CpuDevice::compare(uint64_t out, uint64_t ref, Dtype dt, uint64_t count, const Tolerance& tol) {
  ShmBuffer& o = buffer(out, "compare");
  ShmBuffer& r = buffer(ref, "compare");
  const size_t need = count * dtype_size(dt);
  CRU_CHECK(need <= o.bytes() && need <= r.bytes(), "compare of " + std::to_string(count) + " elements past a buffer's end");
  return host_compare(o.data(), r.data(), dt, count, tol);
}

std::unique_ptr<Module> CpuDevice::load(const std::vector<uint8_t>& artifact) {
  // Defence in depth: the compiler already refuses objects that run code when loaded
  // (compared with an empty build); here, without a compiler, the structural part.
  LoadTimeCode code = inspect_load_time_code(artifact);
  LoadTimeCode allowed = code;
  allowed.init_array_entries = 1;  // crtbegin's frame_dummy
  allowed.preinit_array_entries = 0;
  allowed.ifunc = false;
  std::string extra = extra_load_time_code(code, allowed);
  if (!extra.empty()) throw DeviceFault(DeviceFault::Kind::launch, extra, false);
  auto ex = std::make_unique<ExecutorProcess>(executor_path_, artifact, run_deadline_ms_);
  return std::make_unique<CpuModule>(std::move(ex), modules_);
}

int CpuDevice::executor_pid(Module& module) const {
  CpuModule& m = as_cpu(module);
  return m.ex->dead() ? -1 : static_cast<int>(m.ex->pid());
}

void CpuDevice::check(Module& module, const std::vector<ResolvedLaunch>& launches) {
  CpuModule& m = as_cpu(module);
  std::vector<std::string> names;
  for (const auto& L : launches) {
    const std::string where = "launch " + std::to_string(L.index) + ": ";
    if (L.cluster[0] || L.cluster[1] || L.cluster[2])
      throw PlanError(where + "cluster launches are not supported on the CPU backend");
    for (size_t k = 0; k < L.args.size(); ++k) {
      const ResolvedArg& a = L.args[k];
      if (a.kind == PlanArg::Kind::tma)
        throw PlanError(where + "argument " + std::to_string(k) + ": tma(...) arguments are not supported on the CPU backend");
      if (a.kind == PlanArg::Kind::tensor) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!buffers_.count(a.buffer))
          throw PlanError(where + "argument " + std::to_string(k) + ": its tensor has no buffer");
      }
    }
    names.push_back(L.kernel);
  }
  auto deadline = ExecutorProcess::Clock::now() + std::chrono::milliseconds(run_deadline_ms_);
  std::vector<bool> found = m.ex->query(names, deadline);
  for (size_t i = 0; i < launches.size(); ++i)
    if (!found[i])
      throw PlanError("launch " + std::to_string(launches[i].index) + ": no extern \"C\" function '" + launches[i].kernel +
                      "' in the candidate (the CPU backend calls each launch's kernel as an extern \"C\" function)");
}

namespace {

std::vector<uint8_t> run_request(const std::vector<ResolvedLaunch>& launches) {
  using namespace cpuproto;
  Writer w;
  w.u32(kRun);
  w.u32(static_cast<uint32_t>(launches.size()));
  for (const auto& L : launches) {
    w.str(L.kernel);
    w.u32(static_cast<uint32_t>(L.args.size()));
    for (const auto& a : L.args) {
      if (a.kind != PlanArg::Kind::scalar) {
        w.u8(kPtr);
        w.u64(a.buffer);
        continue;
      }
      uint64_t bits = 0;
      switch (a.scalar_type) {
        case ScalarType::i32: w.u8(kI32); bits = static_cast<uint64_t>(a.ival); break;
        case ScalarType::i64: w.u8(kI64); bits = static_cast<uint64_t>(a.ival); break;
        case ScalarType::u32: w.u8(kU32); bits = static_cast<uint64_t>(a.ival); break;
        case ScalarType::f32: w.u8(kF32); std::memcpy(&bits, &a.fval, 8); break;
        case ScalarType::f64: w.u8(kF64); std::memcpy(&bits, &a.fval, 8); break;
      }
      w.u64(bits);
    }
  }
  return w.buf;
}

}  // namespace

void CpuDevice::run(Module& module, const std::vector<ResolvedLaunch>& launches) {
  CpuModule& m = as_cpu(module);
  // Only the buffers this module's launches name are ever given to its executor.
  for (const auto& L : launches)
    for (const auto& a : L.args)
      if (a.kind != PlanArg::Kind::scalar && !m.mapped.count(a.buffer)) {
        ShmBuffer& b = buffer(a.buffer, "run");
        m.ex->map(a.buffer, b.fd(), b.mapped_bytes());
        m.mapped.insert(a.buffer);
      }
  auto req = run_request(launches);
  std::string err = m.ex->call(req, ExecutorProcess::Clock::now() + std::chrono::milliseconds(run_deadline_ms_));
  if (!err.empty()) throw DeviceFault(DeviceFault::Kind::launch, err, false);
}

void CpuDevice::flush_cache() {
  if (!flush_) {
    void* p = mmap(nullptr, flush_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) CRU_THROW(std::string("mmap flush buffer: ") + std::strerror(errno));
    flush_ = p;
  }
  // Writing every line evicts the plan's data (a changing value keeps it from being elided).
  std::memset(flush_, ++flush_round_, flush_bytes_);
}

double CpuDevice::run_timed(Module& module, const std::vector<ResolvedLaunch>& launches) {
  CpuModule& m = as_cpu(module);
  for (const auto& L : launches)
    for (const auto& a : L.args)
      if (a.kind != PlanArg::Kind::scalar && !m.mapped.count(a.buffer)) {
        ShmBuffer& b = buffer(a.buffer, "run_timed");
        m.ex->map(a.buffer, b.fd(), b.mapped_bytes());
        m.mapped.insert(a.buffer);
      }
  auto req = run_request(launches);
  flush_cache();
  // The clock is ours: from sending the request until the executor replied and is seen
  // blocked again (so work after an early reply is still inside the interval).
  const auto t0 = ExecutorProcess::Clock::now();
  std::string err = m.ex->call(req, t0 + std::chrono::milliseconds(run_deadline_ms_));
  const auto t1 = ExecutorProcess::Clock::now();
  if (!err.empty()) throw DeviceFault(DeviceFault::Kind::launch, err, false);
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

}  // namespace crucible
