#include "harness/eval_service.h"

#include <fstream>
#include <sstream>

#include "harness/backend_registry.h"
#include "harness/device_json.h"
#include "harness/error.h"

namespace crucible {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) CRU_THROW("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

EvalService::EvalService(ServiceOptions o) : opt_(std::move(o)) {}

void EvalService::ensure_device() {
  if (device_worker_ && device_worker_->alive()) return;
  std::vector<std::string> candidates;
  if (opt_.backend == "auto") {
    for (auto& b : backends()) candidates.push_back(b.name);  // by priority, cpu last
  } else {
    if (!find_backend(opt_.backend)) {
      std::string known;
      for (auto& b : backends()) known += (known.empty() ? "" : ", ") + b.name;
      throw InputError("unknown backend '" + opt_.backend + "' (built in: " + known + ")");
    }
    candidates.push_back(opt_.backend);
  }
  std::string why;
  for (auto& name : candidates) {
    WorkerSpec spec;
    spec.backend = name;
    spec.device = opt_.device;
    spec.exe = opt_.exe;
    auto w = std::make_unique<Worker>(spec, opt_.deadlines);
    WorkerReply r = w->call({{"op", "hello"}}, "start");
    if (r.status == WorkerReply::Status::ok && r.msg.value("ok", false)) {
      facts_ = device_facts_from_json(r.msg.at("facts"));
      backend_ = name;
      device_worker_ = std::move(w);
      return;
    }
    why += "\n  " + name + ": " + (r.status == WorkerReply::Status::ok ? r.msg.value("error", std::string("refused")) : r.detail);
  }
  CRU_THROW("no usable device for backend '" + opt_.backend + "':" + why);
}

const DeviceFacts& EvalService::facts() {
  std::lock_guard<std::mutex> lk(device_mu_);
  ensure_device();
  return facts_;
}

const std::string& EvalService::backend() {
  facts();
  return backend_;
}

EvalService::Compiled EvalService::compile(const std::string& source, const std::string& name) {
  std::string be = backend();
  // GPU compiles target the device's own architecture; the CPU compiler's default is the host.
  std::string arch = !opt_.arch.empty() ? opt_.arch : find_backend(be)->family == "gpu" ? facts_.arch : "";
  nlohmann::json req = {{"op", "compile"}, {"source", source}, {"name", name}, {"arch", arch}, {"extra", opt_.extra_flags}};
  auto worker = acquire_compiler();
  WorkerReply r = worker->call(req, "compile");
  release_compiler(std::move(worker));
  Compiled c;
  if (r.status == WorkerReply::Status::timeout) {
    c.verdict = Verdict::timeout;
    c.log = "the compile did not finish: " + r.detail;
    return c;
  }
  if (r.status == WorkerReply::Status::crash) {
    // NVRTC and hiprtc can abort on hostile or unsupported input (ANCHORS.md: Debian's
    // hiprtc aborts for gfx942): the candidate's compile failed, the run goes on.
    c.verdict = Verdict::compile_error;
    c.log = "the compiler crashed (" + r.detail + ") compiling for " + arch +
            (r.output.empty() ? std::string() : ":\n" + r.output.substr(0, 4000));
    return c;
  }
  if (r.msg.contains("error")) CRU_THROW("compile worker: " + r.msg.value("error", std::string()));
  c.ok = r.msg.value("ok", false);
  c.verdict = c.ok ? Verdict::pass : Verdict::compile_error;
  c.log = r.msg.value("log", std::string());
  c.key = r.msg.value("key", std::string());
  c.compile_ms = r.msg.value("compile_ms", 0.0);
  c.cached = r.msg.value("cached", false);
  return c;
}

std::unique_ptr<Worker> EvalService::acquire_compiler() {
  std::unique_lock<std::mutex> lk(compile_mu_);
  compile_cv_.wait(lk, [&] { return !idle_compilers_.empty() || compilers_made_ < std::max(1, opt_.compile_workers); });
  if (!idle_compilers_.empty()) {
    auto w = std::move(idle_compilers_.back());
    idle_compilers_.pop_back();
    return w;
  }
  compilers_made_++;
  WorkerSpec spec;
  spec.backend = backend_;
  spec.compile_only = true;
  spec.exe = opt_.exe;
  return std::make_unique<Worker>(spec, opt_.deadlines);
}

void EvalService::release_compiler(std::unique_ptr<Worker> w) {
  std::lock_guard<std::mutex> lk(compile_mu_);
  idle_compilers_.push_back(std::move(w));
  compile_cv_.notify_one();
}

std::string EvalService::reference_key(const Task& t, std::string* source) {
  std::string fam = find_backend(backend())->family;
  {
    std::lock_guard<std::mutex> lk(ref_mu_);
    auto it = ref_keys_.find(t.dir.string() + "|" + fam);
    if (it != ref_keys_.end()) {
      *source = it->second.second;
      return it->second.first;
    }
  }
  auto rit = t.references.find(fam);
  if (rit == t.references.end()) throw InputError(t.file.string() + ": task has no '" + fam + "' reference for backend " + backend_);
  std::string src = read_file(rit->second.string());
  Compiled c = compile(src, rit->second.filename().string());
  if (!c.ok) CRU_THROW("task " + t.name + ": the reference " + rit->second.string() + " does not compile:\n" + c.log);
  std::lock_guard<std::mutex> lk(ref_mu_);
  ref_keys_[t.dir.string() + "|" + fam] = {c.key, src};
  *source = src;
  return c.key;
}

EvalResult EvalService::evaluate(const Task& t, const std::string& candidate_source) {
  std::string be = backend();
  EvalResult res;
  res.backend = be;
  res.device = facts_.name;
  std::string ref_src;
  std::string ref_key = reference_key(t, &ref_src);
  Compiled c = compile(candidate_source, "candidate");
  res.compile_log = c.log;
  res.compile_ms = c.compile_ms;
  if (!c.ok) {
    res.verdict = c.verdict;
    res.message = c.verdict == Verdict::timeout ? c.log : "the candidate does not compile; see the compile log";
    return res;
  }
  nlohmann::json req = {{"op", "evaluate"},
                        {"task_dir", t.dir.string()},
                        {"candidate_source", candidate_source},
                        {"candidate_key", c.key},
                        {"reference_source", ref_src},
                        {"reference_key", ref_key},
                        {"options", opt_.eval_options}};
  std::lock_guard<std::mutex> lk(device_mu_);
  ensure_device();
  WorkerReply r = device_worker_->call(req, "load");
  if (r.status == WorkerReply::Status::ok && r.msg.value("ok", false)) {
    EvalResult out = eval_result_from_json(r.msg.at("result"));
    out.compile_log = c.log;
    out.compile_ms = c.compile_ms;
    return out;
  }
  if (r.status == WorkerReply::Status::ok) CRU_THROW("worker fault evaluating " + t.name + ": " + r.msg.value("error", std::string()));
  res.verdict = r.status == WorkerReply::Status::timeout ? Verdict::timeout : Verdict::crash;
  res.message = (r.status == WorkerReply::Status::timeout ? "timeout in phase '" + r.phase + "': " : "the worker died in phase '" + r.phase + "': ") + r.detail;
  return res;
}

int EvalService::device_worker_restarts() const { return device_worker_ ? device_worker_->restarts() : 0; }

}  // namespace crucible
