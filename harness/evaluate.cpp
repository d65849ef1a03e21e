#include "harness/evaluate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <sstream>

#include "harness/error.h"
#include "harness/inputs.h"

namespace crucible {

namespace {

std::string params_text(const Params& p) {
  std::string s = "{";
  for (auto& [k, v] : p) s += (s.size() > 1 ? ", " : "") + k + ": " + std::to_string(v);
  return s + "}";
}

std::string fmt(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

// RAII for one device buffer.
class Buffer {
 public:
  Buffer(Device& d, size_t bytes) : d_(&d), bytes_(bytes), id_(d.alloc(std::max<size_t>(bytes, 1))) {}
  ~Buffer() {
    if (d_) try { d_->release(id_); } catch (...) {}
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : d_(o.d_), bytes_(o.bytes_), id_(o.id_) { o.d_ = nullptr; }
  uint64_t id() const { return id_; }
  size_t bytes() const { return bytes_; }

 private:
  Device* d_;
  size_t bytes_;
  uint64_t id_;
};

struct TensorBuf {
  const TensorSpec* spec;
  std::vector<int64_t> shape;
  uint64_t count;
  Buffer buf;
};

// Everything one shape needs on the device: inputs shared by both sides, outputs and
// scratch separate, so the candidate never holds a pointer to the reference's answer.
struct ShapeBuffers {
  std::vector<TensorBuf> inputs, cand_out, ref_out, cand_scratch, ref_scratch;
  std::vector<TensorBinding> cand_bind, ref_bind;
};

// Candidate-caused failure inside the protocol: becomes the record's verdict.
struct Failure {
  Verdict verdict;
  std::string message;
};

class Evaluator {
 public:
  Evaluator(const Task& t, const BackendInfo& b, Device& d, const EvalArtifacts& a, const EvalOptions& o)
      : task_(t), backend_(b), dev_(d), art_(a), opt_(o) {}

  EvalResult run(bool* sticky) {
    auto t0 = std::chrono::steady_clock::now();
    res_.backend = backend_.name;
    res_.device = dev_.facts().name;
    try {
      prepare();
      ShapePlan sp = shapes_for(task_, backend_);
      phase("verify");
      for (auto& p : sp.verify) {
        bool is_bench = std::find(sp.time.begin(), sp.time.end(), p) != sp.time.end();
        verify_shape(p, is_bench ? "benchmark" : "test");
        if (res_.verdict != Verdict::pass) break;
      }
      if (res_.verdict == Verdict::pass && opt_.time) {
        phase("time");
        for (auto& p : sp.time) {
          time_shape(p);
          if (res_.verdict != Verdict::pass) break;
        }
        summarize_timing();
      }
    } catch (const Failure& f) {
      res_.verdict = f.verdict;
      res_.message = f.message;
    }
    *sticky = sticky_;
    res_.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return std::move(res_);
  }

 private:
  void phase(const std::string& p) {
    if (opt_.on_phase) opt_.on_phase(p);
  }

  void prepare() {
    try {
      cand_plan_ = parse_launch_plan(art_.candidate_source, backend_.needs_geometry);
    } catch (const PlanError& e) {
      throw Failure{Verdict::format_error, std::string("launch plan: ") + e.what()};
    } catch (const std::exception& e) {
      throw Failure{Verdict::format_error, std::string("launch plan: ") + e.what()};
    }
    try {
      ref_plan_ = parse_launch_plan(art_.reference_source, backend_.needs_geometry);
    } catch (const std::exception& e) {
      CRU_THROW("task " + task_.name + ": the reference's launch plan is broken: " + e.what());
    }
    std::vector<std::string> tensors, ints, reals;
    for (auto& t : task_.inputs) tensors.push_back(t.name);
    for (auto& t : task_.outputs) tensors.push_back(t.name);
    std::vector<std::string> cand_tensors = tensors;
    for (auto& s : cand_plan_.scratch) cand_tensors.push_back(s.name);
    std::map<std::string, int64_t> facts;
    add_device_facts(dev_.facts(), facts);
    for (auto& [k, v] : facts) ints.push_back(k);
    if (!task_.tests.empty())
      for (auto& [k, v] : task_.tests.front()) ints.push_back(k);
    for (auto& [k, v] : task_.constants) reals.push_back(k);
    try {
      check_plan_names(cand_plan_, cand_tensors, ints, reals);
    } catch (const std::exception& e) {
      throw Failure{Verdict::format_error, std::string("launch plan: ") + e.what()};
    }
    try {
      cand_mod_ = dev_.load(art_.candidate_artifact);
    } catch (const DeviceFault& e) {
      fault(e, "loading the candidate");
    }
    try {
      ref_mod_ = dev_.load(art_.reference_artifact);
    } catch (const std::exception& e) {
      CRU_THROW("task " + task_.name + ": loading the reference failed: " + e.what());
    }
  }

  [[noreturn]] void fault(const DeviceFault& e, const std::string& where) {
    if (e.sticky) sticky_ = true;
    Verdict v = e.kind == DeviceFault::Kind::timeout  ? Verdict::timeout
                : e.kind == DeviceFault::Kind::launch ? Verdict::launch_error
                                                      : Verdict::runtime_error;
    throw Failure{v, where + ": " + e.what()};
  }

  ExprEnv env_for(const Params& p) const {
    ExprEnv env;
    add_device_facts(dev_.facts(), env.ints);
    for (auto& [k, v] : p) env.ints[k] = v;
    env.reals = task_.constants;
    return env;
  }

  ShapeBuffers allocate(const Params& p) {
    ShapeBuffers sb;
    auto make = [&](const TensorSpec& s) {
      auto shape = task_.eval_shape(s, p);
      uint64_t n = task_.element_count(s, p);
      return TensorBuf{&s, shape, n, Buffer(dev_, n * dtype_size(s.dtype))};
    };
    for (auto& t : task_.inputs) sb.inputs.push_back(make(t));
    for (auto& t : task_.outputs) sb.cand_out.push_back(make(t));
    for (auto& t : task_.outputs) sb.ref_out.push_back(make(t));
    ExprEnv env = env_for(p);
    auto scratch = [&](const LaunchPlan& plan, std::vector<TensorBuf>& out, bool candidate) {
      for (auto& s : plan.scratch) {
        int64_t n = 0;
        try {
          n = s.count.eval(env);
        } catch (const std::exception& e) {
          if (candidate) throw Failure{Verdict::format_error, "scratch '" + s.name + "', field 'count': " + e.what()};
          CRU_THROW(std::string("reference scratch: ") + e.what());
        }
        if (n < 0 || n > (int64_t(1) << 40)) {
          if (candidate) throw Failure{Verdict::format_error, "scratch '" + s.name + "': count " + std::to_string(n) + " is out of range"};
          CRU_THROW("reference scratch count out of range");
        }
        scratch_specs_.push_back(std::make_unique<TensorSpec>());
        scratch_specs_.back()->name = s.name;
        scratch_specs_.back()->dtype = s.dtype;
        out.push_back(TensorBuf{scratch_specs_.back().get(), {n}, uint64_t(n), Buffer(dev_, n * dtype_size(s.dtype))});
      }
    };
    scratch(cand_plan_, sb.cand_scratch, true);
    scratch(ref_plan_, sb.ref_scratch, false);
    auto bind = [](std::vector<TensorBinding>& b, const std::vector<TensorBuf>& v) {
      for (auto& t : v) b.push_back({t.spec->name, t.buf.id(), t.spec->dtype, t.shape});
    };
    bind(sb.cand_bind, sb.inputs);
    bind(sb.cand_bind, sb.cand_out);
    bind(sb.cand_bind, sb.cand_scratch);
    bind(sb.ref_bind, sb.inputs);
    bind(sb.ref_bind, sb.ref_out);
    bind(sb.ref_bind, sb.ref_scratch);
    return sb;
  }

  void fill_inputs(ShapeBuffers& sb, const Params& p, uint64_t seed) {
    ExprEnv env = env_for(p);
    for (size_t i = 0; i < sb.inputs.size(); ++i) {
      auto& t = sb.inputs[i];
      FillSpec f;
      f.dtype = t.spec->dtype;
      f.count = t.count;
      f.seed = seed;
      f.stream = static_cast<uint32_t>(i);
      f.dist = t.spec->init.dist;
      f.p0 = t.spec->init.p0.eval_real(env);
      f.p1 = t.spec->init.p1.eval_real(env);
      dev_.fill(t.buf.id(), f);
    }
  }

  std::vector<uint64_t> checksums(ShapeBuffers& sb) {
    std::vector<uint64_t> c;
    for (auto& t : sb.inputs) c.push_back(dev_.checksum(t.buf.id(), t.buf.bytes()));
    return c;
  }

  void poison(std::vector<TensorBuf>& v) {
    for (auto& t : v) dev_.poison(t.buf.id(), t.buf.bytes());
  }

  std::vector<ResolvedLaunch> resolve_candidate(const Params& p, ShapeBuffers& sb) {
    std::vector<ResolvedLaunch> l;
    try {
      l = resolve_plan(cand_plan_, env_for(p), sb.cand_bind);
      dev_.check(*cand_mod_, l);
    } catch (const PlanError& e) {
      throw Failure{Verdict::format_error, "launch plan for shape " + params_text(p) + ": " + e.what()};
    } catch (const ExprError& e) {
      throw Failure{Verdict::format_error, "launch plan for shape " + params_text(p) + ": " + e.what()};
    } catch (const DeviceFault& e) {
      fault(e, "checking the launch plan for shape " + params_text(p));
    }
    return l;
  }

  std::vector<ResolvedLaunch> resolve_reference(const Params& p, ShapeBuffers& sb) {
    try {
      auto l = resolve_plan(ref_plan_, env_for(p), sb.ref_bind);
      dev_.check(*ref_mod_, l);
      return l;
    } catch (const std::exception& e) {
      CRU_THROW("task " + task_.name + ": the reference's plan does not resolve for " + params_text(p) + ": " + e.what());
    }
  }

  void run_candidate(const std::vector<ResolvedLaunch>& l, const Params& p) {
    try {
      dev_.run(*cand_mod_, l);
    } catch (const DeviceFault& e) {
      fault(e, "running the candidate on shape " + params_text(p));
    }
  }

  void run_reference(const std::vector<ResolvedLaunch>& l, const Params& p) {
    try {
      dev_.run(*ref_mod_, l);
    } catch (const DeviceFault& e) {
      if (e.sticky) sticky_ = true;
      CRU_THROW("task " + task_.name + ": the reference failed on " + params_text(p) + ": " + e.what());
    }
  }

  // Compares every output; returns the checks, and describes the first failure.
  std::vector<OutputCheck> compare(ShapeBuffers& sb, std::string* why) {
    std::vector<OutputCheck> out;
    for (size_t i = 0; i < sb.cand_out.size(); ++i) {
      auto& c = sb.cand_out[i];
      Tolerance tol = task_.tolerance_for(*c.spec);
      OutputCheck oc{c.spec->name, dev_.compare(c.buf.id(), sb.ref_out[i].buf.id(), c.spec->dtype, c.count, tol), false};
      oc.ok = oc.stats.mismatches == 0;
      if (!oc.ok && why && why->empty()) {
        auto& s = oc.stats;
        *why = "output '" + c.spec->name + "': " + std::to_string(s.mismatches) + " of " + std::to_string(s.count) +
               " elements differ beyond atol=" + fmt(tol.atol) + " rtol=" + fmt(tol.rtol) + "; first at index " +
               std::to_string(s.first_mismatch) + ": expected " + fmt(s.first_expected) + ", got " + fmt(s.first_actual);
        if (s.unwritten) *why += "; " + std::to_string(s.unwritten) + " elements were never written";
        if (s.nonfinite) *why += "; " + std::to_string(s.nonfinite) + " are NaN/Inf where the reference is finite";
        if (s.max_abs_err > 0) *why += "; max abs err " + fmt(s.max_abs_err) + ", max rel err " + fmt(s.max_rel_err);
      }
      out.push_back(oc);
    }
    return out;
  }

  uint64_t seed(uint64_t a, uint64_t b) const { return mix_seed(opt_.run_secret, opt_.public_seed ^ a, b); }

  void verify_shape(const Params& p, const std::string& kind) {
    ShapeResult sr;
    sr.params = p;
    sr.kind = kind;
    ShapeBuffers sb = allocate(p);
    auto cl = resolve_candidate(p, sb);
    auto rl = resolve_reference(p, sb);
    uint64_t shape_id = shape_counter_++;
    for (int rep = 0; rep < 2; ++rep) {
      // Two runs on different inputs into the same buffers: a kernel that caches its
      // last answer (exploit 4) fails the second.
      fill_inputs(sb, p, seed(shape_id, rep));
      auto before = checksums(sb);
      poison(sb.cand_out);
      poison(sb.cand_scratch);
      run_candidate(cl, p);
      auto after = checksums(sb);
      for (size_t i = 0; i < before.size(); ++i)
        if (before[i] != after[i]) {
          res_.add_flag(flag::input_mutated);
          sr.ok = false;
          res_.shapes.push_back(sr);
          throw Failure{Verdict::wrong_output, "the candidate modified input '" + sb.inputs[i].spec->name +
                                                   "' on shape " + params_text(p) + "; inputs are read-only"};
        }
      // The candidate ran first on these inputs; the reference's answer exists only now
      // and is wiped once compared (exploit 1).
      poison(sb.ref_out);
      poison(sb.ref_scratch);
      run_reference(rl, p);
      std::string why;
      auto checks = compare(sb, &why);
      bool ok = std::all_of(checks.begin(), checks.end(), [](auto& c) { return c.ok; });
      for (auto& c : checks) {
        if (c.stats.unwritten) res_.add_flag(flag::unwritten_output);
        if (c.stats.nonfinite) res_.add_flag(flag::nan_output);
      }
      if (rep == 0 || !ok) sr.checks = checks;
      if (!ok) {
        if (rep == 1) res_.add_flag(flag::stale_output);
        sr.ok = false;
        res_.shapes.push_back(sr);
        throw Failure{Verdict::wrong_output, std::string(rep == 1 ? "second run on fresh inputs: " : "") +
                                                 "wrong output on " + kind + " shape " + params_text(p) + ": " + why};
      }
      if (rep == 1 && opt_.check_determinism && kind == "test") check_determinism(sb, cl, p);
      for (auto& c : checks)
        if (c.stats.count > 16 && c.stats.out_min == c.stats.out_max) res_.add_flag(flag::constant_output);
      poison(sb.ref_out);
    }
    res_.shapes.push_back(sr);
  }

  // Same inputs, second run: bitwise difference means order-dependent results
  // (atomics) or a race. Only a flag: float atomics are legitimate.
  void check_determinism(ShapeBuffers& sb, const std::vector<ResolvedLaunch>& cl, const Params& p) {
    // Keep the first answer in the reference buffers (the reference is done with them).
    poison(sb.ref_out);
    for (size_t i = 0; i < sb.cand_out.size(); ++i) {
      std::vector<uint8_t> tmp(sb.cand_out[i].buf.bytes());
      dev_.download(sb.cand_out[i].buf.id(), tmp.data(), tmp.size());
      dev_.upload(sb.ref_out[i].buf.id(), tmp.data(), tmp.size());
    }
    poison(sb.cand_out);
    run_candidate(cl, p);
    for (size_t i = 0; i < sb.cand_out.size(); ++i) {
      auto s = dev_.compare(sb.cand_out[i].buf.id(), sb.ref_out[i].buf.id(), sb.cand_out[i].spec->dtype,
                            sb.cand_out[i].count, Tolerance{0, 0});
      if (s.mismatches) res_.add_flag(flag::nondeterministic);
    }
  }

  void time_shape(const Params& p) {
    ShapeResult* sr = nullptr;
    for (auto& s : res_.shapes)
      if (s.params == p) sr = &s;
    if (!sr) {
      res_.shapes.push_back(ShapeResult{});
      sr = &res_.shapes.back();
      sr->params = p;
      sr->kind = "benchmark";
    }
    sr->kind = "benchmark";
    ShapeBuffers sb = allocate(p);
    auto cl = resolve_candidate(p, sb);
    auto rl = resolve_reference(p, sb);
    auto crit_c = make_criterion(opt_.criterion, opt_.stopping);
    auto crit_r = make_criterion(opt_.criterion, opt_.stopping);
    uint64_t shape_id = 1000 + shape_counter_++;
    // Which timed samples get their output re-checked: drawn from the run secret, so a
    // candidate cannot tell a checked sample from an unchecked one (exploit 10).
    std::set<int> recheck;
    uint64_t r = seed(shape_id, 0xC0FFEE);
    for (int i = 0; i < opt_.timed_checks; ++i) {
      r = splitmix64(r);
      recheck.insert(static_cast<int>(r % std::max(1, opt_.stopping.min_samples)));
    }
    int64_t clock_min = 0;
    auto wall0 = std::chrono::steady_clock::now();
    bool wall_capped = false;
    // The reference needs no more samples than the candidate once it has its minimum:
    // the speedup's precision is set by the noisier side, and every extra sample costs
    // an input regeneration (docs/measurement.md).
    auto finished = [&] {
      return crit_c->done() && (crit_r->done() || crit_r->samples().size() >= crit_c->samples().size());
    };
    for (int k = 0; !finished(); ++k) {
      if (k > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() > opt_.stopping.max_wall_s) {
        wall_capped = true;
        break;
      }
      // Each iteration has fresh inputs, generated outside the timed region (exploits 4
      // and 9); the reference and then the candidate are timed on them, so drift and
      // data-dependent speed hit both alike. The reference's output is wiped before the
      // candidate runs.
      fill_inputs(sb, p, seed(shape_id, k + 2));
      bool late_check = k >= opt_.stopping.min_samples && (splitmix64(r ^ k) % 32) == 0;
      bool checked = recheck.count(k) || late_check;
      std::vector<uint64_t> sums_before;
      if (checked) sums_before = checksums(sb);
      poison(sb.ref_out);
      double tr;
      try {
        tr = dev_.run_timed(*ref_mod_, rl);
      } catch (const DeviceFault& e) {
        if (e.sticky) sticky_ = true;
        CRU_THROW("task " + task_.name + ": the reference failed while timed: " + e.what());
      }
      poison(sb.ref_out);
      poison(sb.cand_out);
      double tc = 0;
      try {
        tc = dev_.run_timed(*cand_mod_, cl);
      } catch (const DeviceFault& e) {
        fault(e, "timing the candidate on shape " + params_text(p));
      }
      if (!crit_r->done()) crit_r->add(tr);
      if (!crit_c->done()) crit_c->add(tc);
      // Timing may stop before any drawn index is reached (a time cap, a short budget):
      // the last sample is then re-checked, so no timed run goes unchecked (found by the
      // audit's late-shortcut candidate under --max-time 0.2).
      bool last = finished() ||
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count() > opt_.stopping.max_wall_s;
      if (last && sr->timed_checks == 0) checked = true;
      if (checked) {
        // Re-check this timed sample: inputs untouched, and the output right. The
        // reference runs now, untimed, on the same inputs.
        auto sums_after = checksums(sb);
        if (!sums_before.empty() && sums_after != sums_before) {
          res_.add_flag(flag::input_mutated);
          throw Failure{Verdict::wrong_output, "the candidate modified its inputs during a timed run on shape " + params_text(p)};
        }
        run_reference(rl, p);
        std::string why;
        auto checks = compare(sb, &why);
        poison(sb.ref_out);
        sr->timed_checks++;
        if (!std::all_of(checks.begin(), checks.end(), [](auto& c) { return c.ok; })) {
          res_.add_flag(flag::timed_output_wrong);
          throw Failure{Verdict::wrong_output, "a timed run's output was wrong on shape " + params_text(p) + ": " + why};
        }
      }
      int64_t clk = dev_.current_clock_khz();
      if (clk > 0) clock_min = clock_min ? std::min(clock_min, clk) : clk;
    }
    sr->candidate = summarize(crit_c->samples());
    sr->reference = summarize(crit_r->samples());
    sr->timing_capped = wall_capped || crit_c->capped() || crit_r->capped();
    if (sr->timing_capped) res_.add_flag(flag::noisy_timing);
    sr->speedup = bootstrap_median_ratio(crit_r->samples(), crit_c->samples(), 2000, opt_.run_secret ^ shape_id);
    sr->clock_khz = clock_min;
    // nvbench drops samples below 75% of the default clock; we keep them and flag the record.
    if (clock_min > 0 && dev_.facts().clock_khz > 0 && clock_min < 0.75 * dev_.facts().clock_khz)
      res_.add_flag(flag::low_clock);
    // Speed of light: the task's cost over the measured peaks.
    const auto& f = dev_.facts();
    ExprEnv env = env_for(p);
    double bytes = 0, flops = 0;
    try {
      bytes = static_cast<double>(task_.cost_bytes.eval(env));
      flops = static_cast<double>(task_.cost_flops.eval(env));
    } catch (const std::exception&) {
    }
    double floor_s = 0;
    if (f.peak_bytes_per_s > 0) floor_s = std::max(floor_s, bytes / f.peak_bytes_per_s);
    if (f.peak_flops > 0) floor_s = std::max(floor_s, flops / f.peak_flops);
    if (floor_s > 0 && sr->candidate->median > 0) sr->sol = floor_s / (sr->candidate->median / 1000.0);
    // Timer cross-check (CUPTI on CUDA), a separate short pass after the timed samples.
    auto tr = dev_.trace(*cand_mod_, cl, opt_.trace_reps);
    if (tr.kernel_ms >= 0) {
      sr->cupti_kernel_ms = tr.kernel_ms;
      sr->cupti_kernels_per_run = tr.kernels_per_run;
      double ev = sr->candidate->median;
      if (std::lround(tr.kernels_per_run) != static_cast<long>(cl.size()) ||
          (ev > 0 && std::abs(tr.kernel_ms - ev) / ev > 0.05))
        res_.add_flag(flag::cupti_mismatch);
    }
  }

  void summarize_timing() {
    double log_sum = 0, cand = 0, ref = 0, sol = 0;
    int n = 0, nsol = 0;
    for (auto& s : res_.shapes) {
      if (!s.candidate || !s.speedup) continue;
      log_sum += std::log(s.speedup->ratio);
      cand += s.candidate->median;
      ref += s.reference->median;
      if (s.sol >= 0) {
        sol += s.sol;
        nsol++;
      }
      n++;
    }
    if (n == 0) return;
    res_.speedup = std::exp(log_sum / n);
    res_.candidate_ms = cand;
    res_.reference_ms = ref;
    if (nsol) res_.sol = sol / nsol;
    if (*res_.speedup > opt_.suspicious_speedup) res_.add_flag(flag::suspicious_speedup);
  }

  const Task& task_;
  const BackendInfo& backend_;
  Device& dev_;
  const EvalArtifacts& art_;
  const EvalOptions& opt_;
  EvalResult res_;
  LaunchPlan cand_plan_, ref_plan_;
  std::unique_ptr<Module> cand_mod_, ref_mod_;
  std::vector<std::unique_ptr<TensorSpec>> scratch_specs_;
  uint64_t shape_counter_ = 0;
  bool sticky_ = false;
};

}  // namespace


ShapePlan shapes_for(const Task& t, const BackendInfo& b) {
  ShapePlan sp;
  sp.verify = t.tests;
  if (b.family == "cpu") {
    if (!t.cpu_benchmarks.empty()) {
      sp.time = t.cpu_benchmarks;
    } else if (!t.tests.empty()) {
      // The largest test shape by total input elements.
      const Params* best = &t.tests.front();
      uint64_t best_n = 0;
      for (auto& p : t.tests) {
        uint64_t n = 0;
        for (auto& in : t.inputs) n += t.element_count(in, p);
        if (n >= best_n) best_n = n, best = &p;
      }
      sp.time = {*best};
    }
  } else {
    sp.time = t.benchmarks;
  }
  for (auto& p : sp.time)
    if (std::find(sp.verify.begin(), sp.verify.end(), p) == sp.verify.end()) sp.verify.push_back(p);
  return sp;
}

EvalResult evaluate(const Task& t, const BackendInfo& b, Device& d, const EvalArtifacts& a, const EvalOptions& o,
                    bool* sticky) {
  Evaluator e(t, b, d, a, o);
  return e.run(sticky);
}

}  // namespace crucible
