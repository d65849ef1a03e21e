#include "harness/audit/reference_runner.h"

#include <sstream>

#include "backends/cpu/cpu_device.h"
#include "harness/error.h"
#include "harness/eval_service.h"
#include "harness/launch_plan.h"

namespace crucible {

struct ReferenceRunner::Loaded {
  std::string source;
  LaunchPlan plan;
  std::unique_ptr<Module> module;
};

namespace {

// RAII for one device buffer.
struct Buf {
  Device* d;
  uint64_t id;
  size_t bytes;
  Buf(Device& dev, size_t b) : d(&dev), id(dev.alloc(std::max<size_t>(b, 1))), bytes(b) {}
  ~Buf() {
    try {
      d->release(id);
    } catch (...) {
    }
  }
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
};

}  // namespace

ReferenceRunner::ReferenceRunner(const std::string& backend, const std::string& exe) {
  backend_ = find_backend(backend);
  if (!backend_) throw InputError("unknown backend '" + backend + "'");
  dev_ = backend_->open_device(0);
  if (!dev_) CRU_THROW("backend " + backend + ": no device");
  if (auto* cpu = dynamic_cast<CpuDevice*>(dev_.get()); cpu && !exe.empty()) cpu->set_executor_path(exe);
  dev_->set_run_deadline_ms(300000);  // references on big shapes are slow on the host
  compiler_ = backend_->make_compiler(dev_.get());
}

ReferenceRunner::~ReferenceRunner() {
  loaded_.clear();  // modules before the device
}

const DeviceFacts& ReferenceRunner::facts() const { return dev_->facts(); }

ReferenceRunner::Loaded& ReferenceRunner::load(const Task& t) {
  auto key = t.dir.string();
  auto it = loaded_.find(key);
  if (it != loaded_.end()) return *it->second;
  auto rit = t.references.find(backend_->family);
  if (rit == t.references.end()) throw InputError(t.file.string() + ": no '" + backend_->family + "' reference");
  auto l = std::make_unique<Loaded>();
  l->source = read_file(rit->second.string());
  l->plan = parse_launch_plan(l->source, backend_->needs_geometry);
  CompileOptions co;
  if (backend_->family == "gpu") co.arch = dev_->facts().arch;
  CompileResult cr = compiler_->compile(l->source, rit->second.filename().string(), co);
  if (!cr.ok) CRU_THROW("task " + t.name + ": the reference does not compile:\n" + cr.log);
  l->module = dev_->load(cr.artifact);
  return *(loaded_[key] = std::move(l));
}

ReferenceRun ReferenceRunner::run(const Task& t, const Params& p, uint64_t seed) {
  Loaded& l = load(t);
  ExprEnv env;
  add_device_facts(dev_->facts(), env.ints);
  for (auto& [k, v] : p) env.ints[k] = v;
  env.reals = t.constants;
  std::vector<std::unique_ptr<Buf>> ins, outs, scratch;
  std::vector<TensorBinding> bind;
  for (size_t i = 0; i < t.inputs.size(); ++i) {
    auto& in = t.inputs[i];
    uint64_t n = t.element_count(in, p);
    ins.push_back(std::make_unique<Buf>(*dev_, n * dtype_size(in.dtype)));
    FillSpec f;
    f.dtype = in.dtype;
    f.count = n;
    f.seed = seed;
    f.stream = static_cast<uint32_t>(i);
    f.dist = in.init.dist;
    f.p0 = in.init.p0.eval_real(env);
    f.p1 = in.init.p1.eval_real(env);
    dev_->fill(ins.back()->id, f);
    bind.push_back({in.name, ins.back()->id, in.dtype, t.eval_shape(in, p)});
  }
  for (auto& o : t.outputs) {
    uint64_t n = t.element_count(o, p);
    outs.push_back(std::make_unique<Buf>(*dev_, n * dtype_size(o.dtype)));
    dev_->poison(outs.back()->id, outs.back()->bytes);
    bind.push_back({o.name, outs.back()->id, o.dtype, t.eval_shape(o, p)});
  }
  for (auto& s : l.plan.scratch) {
    int64_t n = s.count.eval(env);
    scratch.push_back(std::make_unique<Buf>(*dev_, static_cast<size_t>(n) * dtype_size(s.dtype)));
    dev_->poison(scratch.back()->id, scratch.back()->bytes);
    bind.push_back({s.name, scratch.back()->id, s.dtype, {n}});
  }
  auto launches = resolve_plan(l.plan, env, bind);
  dev_->check(*l.module, launches);
  try {
    dev_->run(*l.module, launches);
  } catch (const DeviceFault& e) {
    CRU_THROW("task " + t.name + ": the reference failed: " + e.what());
  }
  ReferenceRun r;
  for (auto& b : ins) {
    r.inputs.emplace_back(b->bytes);
    dev_->download(b->id, r.inputs.back().data(), b->bytes);
  }
  for (auto& b : outs) {
    r.outputs.emplace_back(b->bytes);
    dev_->download(b->id, r.outputs.back().data(), b->bytes);
  }
  return r;
}

Params parse_params_text(const std::string& text) {
  Params p;
  std::stringstream ss(text);
  std::string kv;
  while (std::getline(ss, kv, ',')) {
    if (kv.empty()) continue;
    auto eq = kv.find('=');
    if (eq == std::string::npos) throw InputError("shape: expected NAME=VALUE, got '" + kv + "'");
    try {
      p[kv.substr(0, eq)] = std::stoll(kv.substr(eq + 1));
    } catch (const std::exception&) {
      throw InputError("shape: '" + kv + "' is not NAME=INTEGER");
    }
  }
  return p;
}

}  // namespace crucible
