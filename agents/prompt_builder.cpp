// Prompt rendering (see prompt_builder.h): the values come from the task, the device
// and the evaluation result; the wording lives in configs/prompts/ so it can be
// changed without a rebuild.
#include "agents/prompt_builder.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "harness/error.h"

namespace crucible {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InputError(p.string() + ": cannot read prompt template");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string fmt_num(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : (v > 0 ? "inf" : "-inf");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string fmt_ms(double ms) {
  char buf[64];
  if (ms < 0.01)
    std::snprintf(buf, sizeof buf, "%.2f us", ms * 1000);
  else
    std::snprintf(buf, sizeof buf, "%.4g ms", ms);
  return buf;
}

std::string fmt_bytes(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", b, units[u]);
  return buf;
}

std::string fmt_params(const Params& p) {
  std::string s = "{";
  for (const auto& [k, v] : p) s += (s.size() > 1 ? ", " : "") + k + ": " + std::to_string(v);
  return s + "}";
}

std::string fmt_params_json(const nlohmann::json& p) {
  if (!p.is_object()) return p.dump();
  std::string s = "{";
  for (auto it = p.begin(); it != p.end(); ++it)
    s += (s.size() > 1 ? ", " : "") + it.key() + ": " + (it->is_string() ? it->get<std::string>() : it->dump());
  return s + "}";
}

std::string shape_text(const TensorSpec& t) {
  std::string s = "[";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + t.shape[i].text();
  return s + "]";
}

std::string dims_text(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

// The shapes that are timed on this family's backend.
const std::vector<Params>& timed_shapes(const Task& t, const std::string& family, std::vector<Params>& scratch) {
  if (family == "cpu") {
    if (!t.cpu_benchmarks.empty()) return t.cpu_benchmarks;
    scratch.clear();
    if (!t.tests.empty()) {
      // The largest test shape, by the product of its params (what the CPU backend times).
      const Params* best = &t.tests[0];
      double best_size = -1;
      for (const auto& p : t.tests) {
        double s = 1;
        for (const auto& kv : p) s *= static_cast<double>(std::max<int64_t>(kv.second, 1));
        if (s > best_size) {
          best_size = s;
          best = &p;
        }
      }
      scratch.push_back(*best);
    }
    return scratch;
  }
  return t.benchmarks;
}

std::string tensor_lines(const Task& task, const std::vector<TensorSpec>& ts, const std::vector<Params>& timed, bool inputs) {
  std::string out;
  for (const auto& t : ts) {
    out += "- `" + t.name + "`: " + dtype_name(t.dtype) + " (" + dtype_c_type(t.dtype) + "), shape " + shape_text(t);
    if (inputs && !t.init.dist_name.empty())
      out += ", values " + t.init.dist_name + "(" + t.init.p0.text() + ", " + t.init.p1.text() + ")";
    if (!timed.empty()) {
      std::string concrete;
      for (const auto& p : timed) {
        try {
          const auto dims = task.eval_shape(t, p);
          double bytes = static_cast<double>(dtype_size(t.dtype));
          for (int64_t d : dims) bytes *= static_cast<double>(d);
          concrete += (concrete.empty() ? "" : ", ") + dims_text(dims) + " = " + fmt_bytes(bytes);
        } catch (const std::exception&) {
        }
      }
      if (!concrete.empty()) out += "; when timed: " + concrete;
    }
    out += "\n";
  }
  return out;
}

std::string device_text(const DeviceFacts& d, const std::string& family) {
  std::ostringstream s;
  s << "- " << (d.name.empty() ? d.backend : d.name) << " (backend " << d.backend << (d.arch.empty() ? "" : ", arch " + d.arch) << ")\n";
  if (family == "gpu") {
    s << "- sm_count = " << d.sm_count << ", warp_size = " << d.warp_size << ", max_threads_per_block = " << d.max_threads_per_block << "\n";
    s << "- max_smem_per_block = " << d.max_smem_per_block << " bytes";
    if (d.max_smem_per_block_optin > d.max_smem_per_block) s << " (" << d.max_smem_per_block_optin << " with opt-in)";
    s << ", l2_bytes = " << d.l2_bytes << " (" << fmt_bytes(static_cast<double>(d.l2_bytes)) << ")\n";
    if (d.global_mem_bytes) s << "- device memory: " << fmt_bytes(static_cast<double>(d.global_mem_bytes)) << "\n";
    s << "- thread block clusters: " << (d.supports_cluster ? "yes" : "no") << "; TMA (tma(...) plan arguments): " << (d.supports_tma ? "yes" : "no") << "\n";
  } else {
    s << "- cores (sm_count) = " << d.sm_count << "\n";
  }
  if (d.peak_bytes_per_s > 0) s << "- measured memory bandwidth: " << fmt_num(d.peak_bytes_per_s / 1e9) << " GB/s\n";
  if (d.peak_flops > 0) s << "- measured arithmetic peak: " << fmt_num(d.peak_flops / 1e12) << " TFLOP/s\n";
  s << "The names sm_count, warp_size, max_threads_per_block, max_smem_per_block and l2_bytes may be used in the plan's expressions.\n";
  return s.str();
}

std::string reference_source(const Task& t, const std::string& family) {
  const auto it = t.references.find(family);
  if (it == t.references.end()) return "";
  const std::filesystem::path p = it->second.is_absolute() ? it->second : t.dir / it->second;
  return read_file(p);
}

// ---- feedback helpers

double num(const nlohmann::json& j, const char* k, double dflt = NAN) {
  if (!j.is_object()) return dflt;
  auto it = j.find(k);
  if (it == j.end() || !it->is_number()) return dflt;
  return it->get<double>();
}

// speedup may be a number or {ratio, lo, hi}
double speedup_of(const nlohmann::json& j, double* lo = nullptr, double* hi = nullptr) {
  auto it = j.find("speedup");
  if (it == j.end()) return NAN;
  if (it->is_number()) return it->get<double>();
  if (it->is_object()) {
    if (lo) *lo = num(*it, "lo");
    if (hi) *hi = num(*it, "hi");
    return num(*it, "ratio");
  }
  return NAN;
}

double median_ms(const nlohmann::json& shape, const char* side) {
  const std::string flat = std::string(side) + "_ms";
  double v = num(shape, flat.c_str());
  if (!std::isnan(v)) return v;
  if (auto it = shape.find(side); it != shape.end() && it->is_object()) return num(*it, "median_ms");
  return NAN;
}

std::string check_text(const nlohmann::json& c, const std::string& output) {
  std::ostringstream s;
  const double count = num(c, "count", 0), mism = num(c, "mismatches", 0);
  s << (output.empty() ? "" : "output `" + output + "`: ") << static_cast<int64_t>(mism) << " of " << static_cast<int64_t>(count) << " elements wrong";
  const double ma = num(c, "max_abs_err"), mr = num(c, "max_rel_err");
  if (!std::isnan(ma)) s << " (max abs err " << fmt_num(ma) << ", max rel err " << fmt_num(mr) << ")";
  const double first = num(c, "first_mismatch", -1);
  if (first >= 0) {
    s << "; first mismatch at flat index " << static_cast<int64_t>(first);
    const double e = num(c, "expected"), a = num(c, "actual");
    if (!std::isnan(e) || !std::isnan(a)) s << ": expected " << fmt_num(e) << ", got " << fmt_num(a);
    else if (c.contains("expected") && c["expected"].is_null()) s << ": expected a value, got NaN";
  }
  const double unwritten = num(c, "unwritten", 0), nonfinite = num(c, "nonfinite", 0);
  if (unwritten > 0) s << "; " << static_cast<int64_t>(unwritten) << " elements never written";
  if (nonfinite > 0) s << "; " << static_cast<int64_t>(nonfinite) << " NaN/Inf where the reference is finite";
  return s.str();
}

bool check_failed(const nlohmann::json& c) {
  if (c.contains("ok") && c["ok"].is_boolean()) return !c["ok"].get<bool>();
  return num(c, "mismatches", 0) > 0 || num(c, "unwritten", 0) > 0 || num(c, "nonfinite", 0) > 0;
}

std::string flag_text(const std::string& f) {
  static const std::map<std::string, std::string> why = {
      {"input_mutated", "your kernel wrote into an input tensor; inputs are read-only"},
      {"unwritten_output", "some output elements were never written"},
      {"nondeterministic", "two runs on the same inputs gave different outputs (races, unordered atomics?)"},
      {"suspicious_speedup", "the speedup is implausibly high for this task; check that every element is really computed"},
      {"stale_output", "the output did not change with fresh inputs: results must not be cached between runs"},
      {"timed_output_wrong", "an output checked during timing was wrong"},
      {"nan_output", "the output holds NaN or Inf where the reference is finite"},
      {"constant_output", "the output is a constant"},
      {"noisy_timing", "the timings were noisy, so the speedup is less certain"},
      {"cupti_mismatch", "the profiler saw different kernels or times than the plan declares"},
      {"low_clock", "the GPU clock was low while timing"},
  };
  auto it = why.find(f);
  return it == why.end() ? f : f + " (" + it->second + ")";
}

std::string verdict_advice(const std::string& v) {
  static const std::map<std::string, std::string> advice = {
      {"pass", "Your kernel is correct."},
      {"format_error", "Your answer could not be used as a candidate: the file or its launch plan is malformed, or the plan does not fit the kernels."},
      {"compile_error", "Your code did not compile."},
      {"launch_error", "The launch was refused: check grid and block sizes, shared memory and the plan's arguments against the kernel's parameters."},
      {"runtime_error", "Your kernel faulted while running (out-of-bounds or misaligned access, or a trap): check indexing and bounds for every shape, including the tiny and odd ones."},
      {"timeout", "Your kernel did not finish in time: look for infinite loops, barriers not reached by every thread, or far too little parallelism."},
      {"crash", "The process running your kernel died: look for out-of-bounds accesses and stack overflows."},
      {"wrong_output", "Your kernel ran, but its output is wrong."},
      {"agent_error", "Your previous answer could not be read."},
  };
  auto it = advice.find(v);
  return it == advice.end() ? "Verdict: " + v + "." : it->second;
}

std::string cap_log(const std::string& log, size_t cap) {
  if (log.size() <= cap) return log;
  // Cut at a line boundary: the first errors are the ones to fix first.
  size_t cut = log.rfind('\n', cap);
  if (cut == std::string::npos || cut < cap / 2) cut = cap;
  return log.substr(0, cut) + "\n[... " + std::to_string(log.size() - cut) + " more bytes of compiler output cut]";
}

// Values that end in a newline next to template blank lines leave runs of blank
// lines; one blank line is enough between parts.
std::string tidy(std::string s) {
  std::string out;
  out.reserve(s.size());
  int newlines = 0;
  for (char c : s) {
    newlines = c == '\n' ? newlines + 1 : 0;
    if (newlines <= 2) out += c;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out + "\n";
}

}  // namespace

std::string render_template(const std::string& text, const std::map<std::string, std::string>& vars, const std::string& where) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find("{{", pos);
    if (open == std::string::npos) {
      out += text.substr(pos);
      break;
    }
    out += text.substr(pos, open - pos);
    const size_t close = text.find("}}", open + 2);
    if (close == std::string::npos) throw InputError(where + ": unclosed '{{' at byte " + std::to_string(open));
    std::string tag = text.substr(open + 2, close - open - 2);
    auto lookup = [&](const std::string& name) -> const std::string& {
      auto it = vars.find(name);
      if (it == vars.end()) throw InputError(where + ": unknown placeholder '{{" + name + "}}'");
      return it->second;
    };
    if (!tag.empty() && (tag[0] == '#' || tag[0] == '^')) {
      const bool inverted = tag[0] == '^';
      const std::string name = tag.substr(1);
      const bool present = !lookup(name).empty();
      // Find the matching {{/name}}, allowing nested sections of the same name.
      const std::string open_a = "{{#" + name + "}}", open_b = "{{^" + name + "}}", end_tag = "{{/" + name + "}}";
      size_t depth = 1, scan = close + 2, end = std::string::npos;
      while (depth > 0) {
        const size_t e = text.find(end_tag, scan);
        if (e == std::string::npos) throw InputError(where + ": section '{{" + tag + "}}' has no '" + end_tag + "'");
        size_t n1 = text.find(open_a, scan), n2 = text.find(open_b, scan);
        size_t n = std::min(n1, n2);
        if (n < e) {
          ++depth;
          scan = n + open_a.size();
        } else {
          --depth;
          end = e;
          scan = e + end_tag.size();
        }
      }
      if (present != inverted) {
        std::string inner = text.substr(close + 2, end - close - 2);
        // A section's opening tag alone on its line leaves no blank line either.
        if ((out.empty() || out.back() == '\n') && !inner.empty() && inner[0] == '\n') inner.erase(0, 1);
        out += render_template(inner, vars, where);
      }
      pos = end + end_tag.size();
      // A section tag alone on its line leaves no blank line behind.
      if (pos < text.size() && text[pos] == '\n' && (out.empty() || out.back() == '\n')) ++pos;
      continue;
    }
    out += lookup(tag);
    pos = close + 2;
  }
  return out;
}

std::string render_system_prompt(const PromptOptions& o) {
  const auto file = o.prompts_dir / "system.md";
  std::map<std::string, std::string> v = {
      {"gpu", o.backend_family == "gpu" ? "1" : ""},
      {"cpu", o.backend_family == "cpu" ? "1" : ""},
  };
  return tidy(render_template(read_file(file), v, file.string()));
}

std::string render_task_prompt(const Task& t, const DeviceFacts& d, const PromptOptions& o) {
  const bool gpu = o.backend_family != "cpu";
  std::vector<Params> scratch;
  const auto& timed = timed_shapes(t, o.backend_family, scratch);

  std::map<std::string, std::string> v;
  v["gpu"] = gpu ? "1" : "";
  v["cpu"] = gpu ? "" : "1";
  v["name"] = t.name;
  v["level"] = std::to_string(t.level);
  v["summary"] = t.summary;
  v["description"] = t.description;
  v["inputs"] = tensor_lines(t, t.inputs, timed, true);
  v["outputs"] = tensor_lines(t, t.outputs, timed, false);
  std::string consts;
  for (const auto& [k, val] : t.constants) consts += (consts.empty() ? "" : ", ") + k + " = " + fmt_num(val);
  v["constants"] = consts;
  std::string tests;
  for (const auto& p : t.tests) tests += (tests.empty() ? "" : ", ") + fmt_params(p);
  v["test_shapes"] = tests;
  std::string bench;
  for (const auto& p : timed) bench += (bench.empty() ? "" : ", ") + fmt_params(p);
  v["benchmark_shapes"] = bench;
  std::string tol;
  for (const auto& out : t.outputs) {
    const Tolerance tl = t.tolerance_for(out);
    tol += "- `" + out.name + "`: atol " + fmt_num(tl.atol) + ", rtol " + fmt_num(tl.rtol) + "\n";
  }
  v["tolerance"] = tol;
  v["cost_bytes"] = t.cost_bytes.text();
  v["cost_flops"] = t.cost_flops.text();
  v["device"] = o.include_device_facts ? device_text(d, o.backend_family) : "";
  v["candidate_format"] = "";
  if (o.include_candidate_format) {
    const auto f = o.prompts_dir / "candidate_format.md";
    v["candidate_format"] = render_template(read_file(f), {{"gpu", v["gpu"]}, {"cpu", v["cpu"]}}, f.string());
  }
  v["reference"] = o.include_reference ? reference_source(t, gpu ? "gpu" : "cpu") : "";
  v["reference_lang"] = gpu ? "cuda" : "cpp";
  v["example"] = o.include_example ? read_file(o.prompts_dir / (gpu ? "example_gpu.md" : "example_cpu.md")) : "";
  v["goal"] = o.goal;
  const auto file = o.prompts_dir / "task.md";
  return tidy(render_template(read_file(file), v, file.string()));
}

std::string render_feedback(const nlohmann::json& r, const PromptOptions& o) {
  std::map<std::string, std::string> v;
  const std::string verdict = r.value("verdict", std::string("unknown"));
  v["verdict"] = verdict;
  v["advice"] = verdict_advice(verdict);
  v["message"] = r.contains("message") && r["message"].is_string() ? r["message"].get<std::string>() : "";
  v["plan_error"] = r.contains("plan_error") && r["plan_error"].is_string() ? r["plan_error"].get<std::string>() : "";
  const std::string log = r.contains("compile_log") && r["compile_log"].is_string() ? r["compile_log"].get<std::string>() : "";
  v["compile_log"] = (verdict == "compile_error" || verdict == "format_error" || verdict == "launch_error") ? cap_log(log, o.compile_log_cap) : "";
  if (v["compile_log"].empty() && verdict == "compile_error" && !log.empty()) v["compile_log"] = cap_log(log, o.compile_log_cap);

  // Correctness: the failing shapes, worst first as the evaluator listed them.
  std::string corr;
  int listed = 0, failing = 0, total = 0;
  std::string timing;
  int timed_listed = 0;
  if (r.contains("shapes") && r["shapes"].is_array()) {
    for (const auto& s : r["shapes"]) {
      ++total;
      const std::string params = fmt_params_json(s.value("params", nlohmann::json::object()));
      bool shape_failed = false;
      std::vector<std::string> lines;
      if (s.contains("checks") && s["checks"].is_array()) {
        for (const auto& c : s["checks"])
          if (check_failed(c)) {
            shape_failed = true;
            lines.push_back(check_text(c, c.value("output", std::string())));
          }
      } else if (check_failed(s)) {  // flat form
        shape_failed = true;
        lines.push_back(check_text(s, s.value("output", std::string())));
      }
      if (s.contains("ok") && s["ok"].is_boolean() && !s["ok"].get<bool>()) shape_failed = true;
      if (shape_failed) {
        ++failing;
        if (listed < o.max_shapes_in_feedback) {
          ++listed;
          if (lines.empty()) lines.push_back("wrong");
          for (const auto& l : lines) corr += "- shape " + params + ": " + l + "\n";
        }
      }
      const double cand = median_ms(s, "candidate"), ref = median_ms(s, "reference");
      if (!std::isnan(cand) && timed_listed < o.max_shapes_in_feedback) {
        ++timed_listed;
        double lo = NAN, hi = NAN;
        const double sp = speedup_of(s, &lo, &hi);
        timing += "- shape " + params + ": your kernel " + fmt_ms(cand);
        if (!std::isnan(ref)) timing += ", reference " + fmt_ms(ref);
        if (!std::isnan(sp)) {
          timing += ", speedup " + fmt_num(sp) + "x";
          if (!std::isnan(lo) && !std::isnan(hi) && lo > 0) timing += " (95% CI " + fmt_num(lo) + "-" + fmt_num(hi) + ")";
        }
        const double sol = num(s, "sol");
        if (!std::isnan(sol) && sol >= 0) timing += ", " + fmt_num(sol * 100) + "% of speed of light";
        timing += "\n";
      }
    }
  }
  if (failing > 0) {
    corr = std::to_string(failing) + " of " + std::to_string(total) + " shapes failed" +
           (failing > listed ? " (first " + std::to_string(listed) + " listed)" : "") + ":\n" + corr;
  }
  v["correctness"] = corr;
  const double sp = speedup_of(r);
  const double sol = num(r, "sol");
  std::string overall;
  if (!std::isnan(sp)) overall += "Overall speedup over the reference (geometric mean of medians): " + fmt_num(sp) + "x";
  if (!std::isnan(sol) && sol >= 0) overall += std::string(overall.empty() ? "" : "; ") + "speed of light reached: " + fmt_num(sol * 100) + "%";
  if (!overall.empty()) timing += overall + "\n";
  v["timing"] = timing;
  std::string flags;
  if (r.contains("flags") && r["flags"].is_array())
    for (const auto& f : r["flags"])
      if (f.is_string()) flags += "- " + flag_text(f.get<std::string>()) + "\n";
  v["flags"] = flags;
  v["goal"] = o.goal;
  v["pass"] = verdict == "pass" ? "1" : "";
  v["gpu"] = o.backend_family != "cpu" ? "1" : "";
  v["cpu"] = o.backend_family == "cpu" ? "1" : "";
  const auto file = o.prompts_dir / "feedback.md";
  return tidy(render_template(read_file(file), v, file.string()));
}

}  // namespace crucible
