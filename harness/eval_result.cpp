#include "harness/eval_result.h"

#include <algorithm>
#include <cmath>

namespace crucible {

void EvalResult::add_flag(const std::string& f) {
  if (!has_flag(f)) flags.push_back(f);
}
bool EvalResult::has_flag(const std::string& f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }

nlohmann::json to_json(const SampleSummary& s) {
  return {{"samples", s.samples}, {"median_ms", s.median}, {"mean_ms", s.mean}, {"rel_stdev", s.rel_stdev},
          {"min_ms", s.min}, {"max_ms", s.max}};
}

static SampleSummary summary_from_json(const nlohmann::json& j) {
  SampleSummary s;
  s.samples = j.value("samples", 0);
  s.median = j.value("median_ms", 0.0);
  s.mean = j.value("mean_ms", 0.0);
  s.rel_stdev = j.value("rel_stdev", 0.0);
  s.min = j.value("min_ms", 0.0);
  s.max = j.value("max_ms", 0.0);
  return s;
}

// JSON has no NaN or Inf: non-finite values travel as the strings "NaN", "Inf", "-Inf".
static nlohmann::json num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  return v;
}

static double num_from(const nlohmann::json& j, const char* key, double dflt) {
  if (!j.contains(key)) return dflt;
  const auto& v = j[key];
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s == "NaN") return std::nan("");
    if (s == "Inf") return HUGE_VAL;
    if (s == "-Inf") return -HUGE_VAL;
  }
  return dflt;
}

nlohmann::json to_json(const CompareStats& c) {
  nlohmann::json j = {{"count", c.count}, {"mismatches", c.mismatches}, {"nonfinite", c.nonfinite},
                      {"unwritten", c.unwritten}, {"max_abs_err", num(c.max_abs_err)}, {"max_rel_err", num(c.max_rel_err)},
                      {"first_mismatch", c.first_mismatch}};
  if (c.first_mismatch >= 0) {
    j["expected"] = num(c.first_expected);
    j["actual"] = num(c.first_actual);
  }
  return j;
}

static CompareStats compare_from_json(const nlohmann::json& j) {
  CompareStats c;
  c.count = j.value("count", 0ull);
  c.mismatches = j.value("mismatches", 0ull);
  c.nonfinite = j.value("nonfinite", 0ull);
  c.unwritten = j.value("unwritten", 0ull);
  c.max_abs_err = num_from(j, "max_abs_err", 0.0);
  c.max_rel_err = num_from(j, "max_rel_err", 0.0);
  c.first_mismatch = j.value("first_mismatch", -1ll);
  c.first_expected = num_from(j, "expected", 0.0);
  c.first_actual = num_from(j, "actual", 0.0);
  return c;
}

template <class T>
static nlohmann::json opt(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const EvalResult& r) {
  nlohmann::json shapes = nlohmann::json::array();
  for (auto& s : r.shapes) {
    nlohmann::json js = {{"params", s.params}, {"kind", s.kind}, {"ok", s.ok}};
    nlohmann::json checks = nlohmann::json::array();
    for (auto& c : s.checks) {
      auto jc = to_json(c.stats);
      jc["output"] = c.output;
      jc["ok"] = c.ok;
      checks.push_back(jc);
    }
    js["checks"] = checks;
    if (s.candidate) js["candidate"] = to_json(*s.candidate);
    if (s.reference) js["reference"] = to_json(*s.reference);
    if (s.speedup) js["speedup"] = {{"ratio", s.speedup->ratio}, {"lo", s.speedup->lo}, {"hi", s.speedup->hi}};
    if (s.candidate) {
      js["timing_capped"] = s.timing_capped;
      js["timed_checks"] = s.timed_checks;
      js["sol"] = s.sol >= 0 ? nlohmann::json(s.sol) : nlohmann::json(nullptr);
      js["clock_khz"] = s.clock_khz;
      if (s.cupti_kernel_ms >= 0)
        js["cupti"] = {{"kernel_ms", s.cupti_kernel_ms}, {"kernels_per_run", s.cupti_kernels_per_run}};
    }
    shapes.push_back(js);
  }
  return {{"verdict", verdict_name(r.verdict)},
          {"flags", r.flags},
          {"message", r.message},
          {"compile_log", r.compile_log},
          {"speedup", opt(r.speedup)},
          {"candidate_ms", opt(r.candidate_ms)},
          {"reference_ms", opt(r.reference_ms)},
          {"sol", opt(r.sol)},
          {"compile_ms", r.compile_ms},
          {"wall_ms", r.wall_ms},
          {"backend", r.backend},
          {"device", r.device},
          {"shapes", shapes}};
}

EvalResult eval_result_from_json(const nlohmann::json& j) {
  EvalResult r;
  r.verdict = parse_verdict(j.value("verdict", "crash")).value_or(Verdict::crash);
  r.flags = j.value("flags", std::vector<std::string>{});
  r.message = j.value("message", "");
  r.compile_log = j.value("compile_log", "");
  auto get_opt = [&](const char* k) -> std::optional<double> {
    if (j.contains(k) && j[k].is_number()) return j[k].get<double>();
    return std::nullopt;
  };
  r.speedup = get_opt("speedup");
  r.candidate_ms = get_opt("candidate_ms");
  r.reference_ms = get_opt("reference_ms");
  r.sol = get_opt("sol");
  r.compile_ms = j.value("compile_ms", 0.0);
  r.wall_ms = j.value("wall_ms", 0.0);
  r.backend = j.value("backend", "");
  r.device = j.value("device", "");
  if (j.contains("shapes"))
    for (auto& js : j["shapes"]) {
      ShapeResult s;
      s.params = js.value("params", std::map<std::string, int64_t>{});
      s.kind = js.value("kind", "");
      s.ok = js.value("ok", true);
      if (js.contains("checks"))
        for (auto& jc : js["checks"]) s.checks.push_back({jc.value("output", ""), compare_from_json(jc), jc.value("ok", false)});
      if (js.contains("candidate")) s.candidate = summary_from_json(js["candidate"]);
      if (js.contains("reference")) s.reference = summary_from_json(js["reference"]);
      if (js.contains("speedup")) s.speedup = RatioInterval{js["speedup"].value("ratio", 0.0), js["speedup"].value("lo", 0.0), js["speedup"].value("hi", 0.0)};
      s.timing_capped = js.value("timing_capped", false);
      s.timed_checks = js.value("timed_checks", 0);
      if (js.contains("sol") && js["sol"].is_number()) s.sol = js["sol"].get<double>();
      s.clock_khz = js.value("clock_khz", 0ll);
      if (js.contains("cupti")) {
        s.cupti_kernel_ms = js["cupti"].value("kernel_ms", -1.0);
        s.cupti_kernels_per_run = js["cupti"].value("kernels_per_run", -1.0);
      }
      r.shapes.push_back(s);
    }
  return r;
}

}  // namespace crucible
