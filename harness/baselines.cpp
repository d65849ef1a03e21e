#include "harness/baselines.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/error.h"

namespace crucible {

namespace fs = std::filesystem;

namespace {

std::string show_shape(const std::map<std::string, int64_t>& s) {
  std::string o = "{";
  for (auto& [k, v] : s) o += (o.size() > 1 ? ", " : "") + k + ": " + std::to_string(v);
  return o + "}";
}

double positive_ms(const nlohmann::json& e, const char* field, const std::string& where) {
  auto it = e.find(field);
  if (it == e.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0)
    throw InputError(where + "." + field + ": expected a positive number of milliseconds");
  return it->get<double>();
}

}  // namespace

BaselineTable BaselineTable::load(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot read the baselines file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file.string() + ": byte " + std::to_string(e.byte) + ": not JSON: " + e.what());
  }
  if (!j.is_object()) throw InputError(file.string() + ": expected an object {task: {eager_ms, compile_ms, shape}}");
  BaselineTable t;
  t.file_ = file;
  for (auto& [task, e] : j.items()) {
    std::string where = file.string() + ": " + task;
    if (!e.is_object()) throw InputError(where + ": expected {eager_ms, compile_ms, shape}");
    Baseline b;
    b.eager_ms = positive_ms(e, "eager_ms", where);
    if (e.contains("compile_ms") && !e["compile_ms"].is_null()) b.compile_ms = positive_ms(e, "compile_ms", where);
    auto sh = e.find("shape");
    if (sh == e.end() || !sh->is_object() || sh->empty())
      throw InputError(where + ".shape: expected the benchmark shape the baseline was timed at, e.g. {N: 1024}");
    for (auto& [k, v] : sh->items()) {
      if (!v.is_number_integer()) throw InputError(where + ".shape." + k + ": expected an integer");
      b.shape[k] = v.get<int64_t>();
    }
    t.by_task_[task] = std::move(b);
  }
  return t;
}

const Baseline* BaselineTable::find(const std::string& task) const {
  auto it = by_task_.find(task);
  return it == by_task_.end() ? nullptr : &it->second;
}

std::optional<fs::path> find_baselines(const fs::path& suite, const std::string& device_name) {
  std::set<std::string> words;
  std::string w;
  for (char c : device_name + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!w.empty()) {
      words.insert(w);
      w.clear();
    }
  }
  for (const fs::path& dir : {suite / "baselines", suite.parent_path() / "baselines"}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::set<fs::path> files;  // sorted: the choice does not depend on directory order
    for (auto& f : fs::directory_iterator(dir, ec))
      if (f.path().extension() == ".json") files.insert(f.path());
    for (auto& f : files) {
      std::string stem = f.stem().string();
      for (auto& c : stem) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (words.count(stem)) return f;
    }
  }
  return std::nullopt;
}

BaselineComparison compare_with_baseline(const Baseline& b, const EvalResult& r) {
  BaselineComparison c;
  c.eager_ms = b.eager_ms;
  c.compile_ms = b.compile_ms;
  if (r.verdict != Verdict::pass) {
    c.note = "no speedup over PyTorch: the candidate did not pass";
    return c;
  }
  std::vector<std::string> timed;
  for (auto& s : r.shapes) {
    if (s.kind != "benchmark" || !s.candidate) continue;
    if (s.params != b.shape) {
      timed.push_back(show_shape(s.params));
      continue;
    }
    // The candidate's median at the baseline's shape; both sides are cold (L2 flushed
    // before every sample) CUDA-event timings (docs/measurement.md, torch-crosscheck.py).
    double ms = s.candidate->median;
    if (!(ms > 0)) break;
    c.speedup_vs_eager = b.eager_ms / ms;
    if (b.compile_ms) c.speedup_vs_compile = *b.compile_ms / ms;
    return c;
  }
  std::ostringstream o;
  o << "no speedup over PyTorch: the baseline was timed at " << show_shape(b.shape) << ", ";
  if (timed.empty()) o << "and the candidate was not timed at any benchmark shape";
  else {
    o << "the candidate at ";
    for (size_t i = 0; i < timed.size(); ++i) o << (i ? ", " : "") << timed[i];
  }
  c.note = o.str();
  return c;
}

void add_baseline_fields(nlohmann::json& rec, const std::string& task, const EvalResult& r, const BaselineTable* table) {
  if (!table) return;
  const Baseline* b = table->find(task);
  if (!b) return;
  BaselineComparison c = compare_with_baseline(*b, r);
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  rec["baseline_file"] = table->file().string();
  rec["torch_eager_ms"] = c.eager_ms;
  rec["speedup_vs_torch_eager"] = opt(c.speedup_vs_eager);
  rec["torch_compile_ms"] = opt(c.compile_ms);
  rec["speedup_vs_torch_compile"] = opt(c.speedup_vs_compile);
  if (!c.note.empty()) rec["baseline_note"] = c.note;
}

}  // namespace crucible
