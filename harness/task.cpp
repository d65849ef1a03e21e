// Loads and checks task.yaml (docs/task-format.md). Every problem in a file is
// collected and reported at once, each as "file:LINE: field: message", so a task
// author fixes them all in one pass instead of one per run.
#include "harness/task.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <set>
#include <sstream>

#include "crucible/philox.h"
#include "harness/error.h"
#include "harness/verdict.h"

namespace crucible {
namespace fs = std::filesystem;

namespace {

// The generator's own numbering (crucible/philox.h), as constants usable in switch.
constexpr int kDistNormal = CRU_DIST_NORMAL, kDistUniform = CRU_DIST_UNIFORM, kDistRandint = CRU_DIST_RANDINT,
              kDistBernoulli = CRU_DIST_BERNOULLI, kDistConstant = CRU_DIST_CONSTANT;

struct DistInfo {
  const char* name;
  int id;
  const char* p0;      // first parameter's key
  const char* p1;      // second parameter's key, or nullptr
  const char* d0;      // default of p0 as expression text, nullptr: required
  const char* d1;
};
const DistInfo kDists[] = {
    {"normal", kDistNormal, "mean", "std", "0", "1"},
    {"uniform", kDistUniform, "low", "high", "0", "1"},
    {"randint", kDistRandint, "low", "high", "0", "100"},
    {"bernoulli", kDistBernoulli, "p", nullptr, "0.5", nullptr},
    {"constant", kDistConstant, "value", nullptr, nullptr, nullptr},
};

const DistInfo* find_dist(const std::string& name) {
  for (const auto& d : kDists)
    if (name == d.name) return &d;
  return nullptr;
}

// Names a plan's expressions give another meaning: a param or tensor may not take one.
const std::set<std::string> kReserved = {
    "sm_count", "warp_size", "max_threads_per_block", "max_smem_per_block", "l2_bytes",
    "ceil_div", "min", "max", "round_up", "i32", "i64", "u32", "f32", "f64", "tma", "box", "swizzle"};

const std::vector<std::string> kKnownFlags = {
    flag::input_mutated, flag::unwritten_output, flag::nondeterministic, flag::suspicious_speedup,
    flag::stale_output, flag::timed_output_wrong, flag::nan_output, flag::constant_output,
    flag::noisy_timing, flag::cupti_mismatch, flag::low_clock};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string join(const std::set<std::string>& s) { return join(std::vector<std::string>(s.begin(), s.end())); }

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

int line_of(const YAML::Node& n, int fallback) {
  if (!n.IsDefined()) return fallback;
  const YAML::Mark m = n.Mark();
  return m.line >= 0 ? m.line + 1 : fallback;
}

std::string describe(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a list";
  return "'" + n.Scalar() + "'";
}

// Open minus closed parentheses.
int paren_depth(const std::string& s) {
  int depth = 0;
  for (char c : s) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
  return depth;
}

std::string sub(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
std::string idx(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string show_params(const Params& p) {
  std::string s = "{";
  bool first = true;
  for (const auto& [k, v] : p) {
    s += (first ? "" : ", ") + k + ": " + std::to_string(v);
    first = false;
  }
  return s + "}";
}

// A mapping's entries in file order.
struct Fields {
  std::vector<std::pair<std::string, YAML::Node>> items;
  std::vector<int> key_lines;
  std::optional<YAML::Node> get(const std::string& k) const {
    for (const auto& [name, node] : items)
      if (name == k) return node;
    return std::nullopt;
  }
  int key_line(const std::string& k) const {
    for (size_t i = 0; i < items.size(); ++i)
      if (items[i].first == k) return key_lines[i];
    return 0;
  }
};

struct ParamSet {
  Params params;
  std::string path;  // "tests[1]"
  int line = 0;
};

// What the loader knows about a tensor besides its spec, for later checks.
struct TensorInfo {
  std::string path;       // "inputs.x"
  bool is_input = false;
  bool shape_ok = false;  // every dim parsed and uses known params only
  bool init_ok = false;
  std::vector<int> dim_lines;
  int init_line = 0;
};

class Loader {
 public:
  explicit Loader(const fs::path& dir) {
    task_.dir = dir;
    task_.file = dir / "task.yaml";
    task_.solutions_dir = dir / "solutions";
    files_.push_back(task_.file.string());
  }

  Task run() {
    YAML::Node root;
    if (!fs::is_regular_file(task_.file))
      throw InputError(task_.file.string() + ":0: task.yaml: file not found (every task folder holds a task.yaml)");
    try {
      root = YAML::LoadFile(task_.file.string());
    } catch (const YAML::ParserException& e) {
      throw InputError(task_.file.string() + ":" + std::to_string(e.mark.line + 1) +
                       ": (syntax): YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
      throw InputError(task_.file.string() + ":0: (file): cannot read: " + e.what());
    }
    read_root(root);
    if (!problems_.empty()) {
      std::stable_sort(problems_.begin(), problems_.end(), [](const Problem& a, const Problem& b) {
        return std::tie(a.file, a.line) < std::tie(b.file, b.line);
      });
      std::vector<std::string> lines;
      std::set<std::string> seen;
      for (const auto& p : problems_)
        if (seen.insert(p.text).second) lines.push_back(p.text);
      throw InputError(join(lines, "\n"));
    }
    return std::move(task_);
  }

 private:
  struct Problem {
    int file = 0;  // index into files_
    int line = 0;
    std::string text;
  };

  void problem(int line, const std::string& field, const std::string& msg) {
    problems_.push_back({file_, line, files_[file_] + ":" + std::to_string(line) + ": " + field + ": " + msg});
  }

  // Reads a mapping's entries; reports a non-mapping, unknown keys (listing the
  // allowed ones) and duplicate keys. `allowed` empty: any key.
  std::optional<Fields> mapping(const YAML::Node& n, const std::string& path, int fallback,
                                const std::vector<std::string>& allowed, const std::string& what = "") {
    if (!n.IsMap()) {
      problem(line_of(n, fallback), path.empty() ? "(top level)" : path,
              "expected a mapping" + (what.empty() ? "" : " (" + what + ")") + ", got " + describe(n));
      return std::nullopt;
    }
    Fields f;
    std::set<std::string> seen;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const int kl = line_of(it->first, line_of(n, fallback));
      if (!it->first.IsScalar()) {
        problem(kl, path.empty() ? "(top level)" : path, "keys must be plain names, got " + describe(it->first));
        continue;
      }
      const std::string key = it->first.Scalar();
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        problem(kl, sub(path, key), "unknown key '" + key + "'; allowed keys: " + join(allowed));
        continue;
      }
      if (!seen.insert(key).second) {
        problem(kl, sub(path, key), "duplicate key '" + key + "' (line " + std::to_string(f.key_line(key)) + ")");
        continue;
      }
      f.items.emplace_back(key, it->second);
      f.key_lines.push_back(kl);
    }
    return f;
  }

  std::optional<YAML::Node> require(const Fields& f, const std::string& key, const std::string& path, int line,
                                    const std::string& what) {
    auto n = f.get(key);
    if (!n) problem(line, sub(path, key), "missing required field '" + key + "' (" + what + ")");
    return n;
  }

  std::optional<std::string> scalar(const YAML::Node& n, const std::string& path, int fallback,
                                    const std::string& what) {
    if (!n.IsScalar()) {
      problem(line_of(n, fallback), path, "expected " + what + ", got " + describe(n));
      return std::nullopt;
    }
    return n.Scalar();
  }

  std::optional<int64_t> integer(const YAML::Node& n, const std::string& path, int fallback) {
    auto s = scalar(n, path, fallback, "an integer");
    if (!s) return std::nullopt;
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
    if (ec != std::errc() || p != s->data() + s->size()) {
      problem(line_of(n, fallback), path, "expected an integer, got '" + *s + "'");
      return std::nullopt;
    }
    return v;
  }

  std::optional<double> number(const YAML::Node& n, const std::string& path, int fallback) {
    auto s = scalar(n, path, fallback, "a number");
    if (!s) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s->c_str(), &end);
    if (s->empty() || end != s->c_str() + s->size() || !std::isfinite(v)) {
      problem(line_of(n, fallback), path, "expected a finite number, got '" + *s + "'");
      return std::nullopt;
    }
    return v;
  }

  // Parses an expression and checks its names: params always; constants when
  // `reals_ok`. Before the params are known (no test sets), names are not checked.
  std::optional<Expr> expression(const YAML::Node& n, const std::string& path, int fallback, bool reals_ok) {
    auto s = scalar(n, path, fallback, "an expression");
    if (!s) return std::nullopt;
    const int line = line_of(n, fallback);
    Expr e;
    try {
      e = Expr::parse(*s);
    } catch (const ExprError& err) {
      std::string hint;
      if (paren_depth(*s) != 0)
        hint = " (inside a YAML flow collection {...} or [...], a comma splits an expression: quote it, "
               "e.g. \"min(N, 4)\")";
      problem(line, path, std::string("bad expression: ") + err.what() + hint);
      return std::nullopt;
    }
    bool ok = true;
    for (const auto& name : e.names()) {
      if (params_known_ && param_names_.count(name)) continue;
      if (reals_ok && task_.constants.count(name)) continue;
      if (!params_known_) continue;
      std::string known = "params (the keys of tests and benchmarks): " +
                          (param_names_.empty() ? std::string("none") : join(param_names_));
      if (reals_ok) known += "; constants: " + (task_.constants.empty() ? std::string("none") : join(keys(task_.constants)));
      problem(line, path, "'" + *s + "' uses unknown param '" + name + "'; expected one of the " + known);
      ok = false;
    }
    if (!ok) return std::nullopt;
    return e;
  }

  static std::set<std::string> keys(const std::map<std::string, double>& m) {
    std::set<std::string> out;
    for (const auto& kv : m) out.insert(kv.first);
    return out;
  }

  // ---------------------------------------------------------------- the file
  void read_root(const YAML::Node& root) {
    static const std::vector<std::string> kTop = {
        "name", "level", "summary", "description", "inputs", "outputs", "constants", "tests", "benchmarks",
        "cpu_benchmarks", "tolerance", "cost", "reference", "kernelbench"};
    auto top = mapping(root, "", 1, kTop, "the task's fields");
    if (!top) return;
    const Fields& f = *top;

    if (auto n = require(f, "name", "", 1, "the task's name: letters, digits, '_', '-', '.'")) {
      if (auto s = scalar(*n, "name", f.key_line("name"), "a name")) {
        bool ok = !s->empty();
        for (char c : *s)
          if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) ok = false;
        if (ok) task_.name = *s;
        else problem(line_of(*n, 1), "name", "expected letters, digits, '_', '-' or '.', got '" + *s + "'");
      }
    }
    if (auto n = require(f, "level", "", 1, "an integer >= 0, e.g. 1")) {
      if (auto v = integer(*n, "level", f.key_line("level"))) {
        if (*v < 0 || *v > 1000) problem(line_of(*n, 1), "level", "expected an integer >= 0, got " + std::to_string(*v));
        else task_.level = static_cast<int>(*v);
      }
    }
    if (auto n = require(f, "summary", "", 1, "one line saying what the task computes")) {
      if (auto s = scalar(*n, "summary", f.key_line("summary"), "one line of text")) task_.summary = *s;
    }
    if (auto n = f.get("description"))
      if (auto s = scalar(*n, "description", f.key_line("description"), "text")) task_.description = *s;
    if (auto n = f.get("kernelbench"))
      if (auto s = scalar(*n, "kernelbench", f.key_line("kernelbench"), "a KernelBench problem path, e.g. level1/19_ReLU.py"))
        task_.kernelbench = *s;

    if (auto n = f.get("constants")) read_constants(*n, f.key_line("constants"));

    // Params come first: shapes, bounds and costs are checked against them.
    std::vector<ParamSet> tests, benchmarks, cpu_benchmarks;
    if (auto n = require(f, "tests", "", 1, "a list of parameter sets, e.g. - {N: 1}"))
      tests = read_param_sets(*n, "tests", f.key_line("tests"), true);
    if (auto n = require(f, "benchmarks", "", 1, "a list of parameter sets to time, e.g. - {N: 1048576}"))
      benchmarks = read_param_sets(*n, "benchmarks", f.key_line("benchmarks"), true);
    if (auto n = f.get("cpu_benchmarks"))
      cpu_benchmarks = read_param_sets(*n, "cpu_benchmarks", f.key_line("cpu_benchmarks"), false);
    check_param_names(tests, benchmarks, cpu_benchmarks);

    if (auto n = require(f, "inputs", "", 1, "a mapping of tensor name to {dtype, shape, init}"))
      read_tensors(*n, "inputs", f.key_line("inputs"), true);
    if (auto n = require(f, "outputs", "", 1, "a mapping of tensor name to {dtype, shape}"))
      read_tensors(*n, "outputs", f.key_line("outputs"), false);
    check_names();

    if (auto n = f.get("tolerance")) read_tolerance(*n, f.key_line("tolerance"));
    for (const auto& out : task_.outputs)
      if (!task_.tolerance.count(out.name)) task_.tolerance[out.name] = default_tolerance(out.dtype);

    if (auto n = f.get("cost")) read_cost(*n, f.key_line("cost"));
    if (auto n = require(f, "reference", "", 1, "reference files, e.g. {gpu: reference.cu, cpu: reference.cpp}"))
      read_reference(*n, f.key_line("reference"));

    for (auto* sets : {&tests, &benchmarks, &cpu_benchmarks})
      for (const auto& s : *sets) check_param_set(s);
    for (const auto& s : tests) task_.tests.push_back(s.params);
    for (const auto& s : benchmarks) task_.benchmarks.push_back(s.params);
    for (const auto& s : cpu_benchmarks) task_.cpu_benchmarks.push_back(s.params);

    read_expected();
  }

  void read_constants(const YAML::Node& n, int line) {
    auto f = mapping(n, "constants", line, {}, "name: number, e.g. {eps: 1e-5}");
    if (!f) return;
    for (size_t i = 0; i < f->items.size(); ++i) {
      const auto& [name, value] = f->items[i];
      const std::string path = sub("constants", name);
      if (!is_identifier(name) || kReserved.count(name)) {
        problem(f->key_lines[i], path, "expected a plain identifier that is not a reserved name, got '" + name + "'");
        continue;
      }
      if (auto v = number(value, path, f->key_lines[i])) {
        task_.constants[name] = *v;
        constant_lines_[name] = f->key_lines[i];
      }
    }
  }

  std::vector<ParamSet> read_param_sets(const YAML::Node& n, const std::string& key, int line, bool required) {
    std::vector<ParamSet> out;
    if (!n.IsSequence()) {
      problem(line_of(n, line), key, "expected a list of parameter sets, e.g. - {N: 1}, got " + describe(n));
      return out;
    }
    if (n.size() == 0) {
      if (required) problem(line_of(n, line), key, "is empty; expected at least one parameter set, e.g. - {N: 1}");
      return out;
    }
    for (size_t i = 0; i < n.size(); ++i) {
      const YAML::Node e = n[i];
      const std::string path = idx(key, i);
      const int el = line_of(e, line);
      auto f = mapping(e, path, el, {}, "param: integer, e.g. {N: 1024}");
      if (!f) continue;
      ParamSet ps{{}, path, el};
      bool ok = true;
      for (size_t j = 0; j < f->items.size(); ++j) {
        const auto& [name, value] = f->items[j];
        const std::string vp = sub(path, name);
        if (!is_identifier(name) || kReserved.count(name)) {
          problem(f->key_lines[j], vp, "expected a param name (an identifier, not a device fact or function), got '" + name + "'");
          ok = false;
          continue;
        }
        // A value is an integer or a constant expression (1024 * 1024), so large
        // shapes can be written the way they are thought of.
        auto s = scalar(value, vp, f->key_lines[j], "an integer");
        if (!s) { ok = false; continue; }
        try {
          const Expr x = Expr::parse(*s);
          if (!x.names().empty()) {
            problem(line_of(value, el), vp, "expected an integer or a constant expression, got '" + *s + "' (uses a name)");
            ok = false;
            continue;
          }
          ps.params[name] = x.eval(ExprEnv{});
        } catch (const ExprError& err) {
          problem(line_of(value, el), vp, std::string("expected an integer: ") + err.what());
          ok = false;
        }
      }
      if (ok) out.push_back(std::move(ps));  // a broken set is reported once, not again as 'missing params'
    }
    return out;
  }

  // Every test and benchmark set defines exactly the same param names.
  void check_param_names(const std::vector<ParamSet>& tests, const std::vector<ParamSet>& benchmarks,
                         const std::vector<ParamSet>& cpu) {
    const ParamSet* first = nullptr;
    for (auto* sets : {&tests, &benchmarks, &cpu})
      if (!first && !sets->empty()) first = &sets->front();
    if (!first) return;
    for (const auto& [k, v] : first->params) param_names_.insert(k);
    params_known_ = true;
    for (auto* sets : {&tests, &benchmarks, &cpu})
      for (const auto& s : *sets) {
        std::vector<std::string> missing, extra;
        for (const auto& name : param_names_)
          if (!s.params.count(name)) missing.push_back(name);
        for (const auto& [k, v] : s.params)
          if (!param_names_.count(k)) extra.push_back(k);
        if (missing.empty() && extra.empty()) continue;
        std::string msg = "every test and benchmark set must define the same params as " + first->path + " (" +
                          join(param_names_) + ")";
        if (!missing.empty()) msg += "; missing: " + join(missing);
        if (!extra.empty()) msg += "; extra: " + join(extra);
        problem(s.line, s.path, msg);
      }
  }

  void read_tensors(const YAML::Node& n, const std::string& key, int line, bool inputs) {
    auto f = mapping(n, key, line, {}, "tensor name: {dtype, shape" + std::string(inputs ? ", init}" : "}"));
    if (!f) return;
    if (!inputs && f->items.empty())
      problem(line_of(n, line), key, "expected at least one output tensor");
    for (size_t i = 0; i < f->items.size(); ++i) {
      const auto& [name, spec_node] = f->items[i];
      const std::string path = sub(key, name);
      const int tl = f->key_lines[i];
      TensorSpec t;
      t.name = name;
      t.line = tl;
      TensorInfo info;
      info.path = path;
      info.is_input = inputs;
      if (!is_identifier(name)) {
        problem(tl, path, "tensor names must be identifiers (letters, digits, '_'), got '" + name + "'");
        continue;
      }
      static const std::vector<std::string> kIn = {"dtype", "shape", "init"};
      static const std::vector<std::string> kOut = {"dtype", "shape"};
      auto tf = mapping(spec_node, path, tl, inputs ? kIn : kOut, "{dtype: f32, shape: [N]}");
      if (!tf) continue;
      bool dtype_ok = false;
      if (auto d = require(*tf, "dtype", path, tl, "one of f32, f16, bf16, f64, i32, i64, u8, bool")) {
        if (auto s = scalar(*d, sub(path, "dtype"), tl, "a dtype")) {
          if (auto dt = parse_dtype(*s)) {
            t.dtype = *dt;
            dtype_ok = true;
          } else {
            problem(line_of(*d, tl), sub(path, "dtype"),
                    "unknown dtype '" + *s + "'; valid dtypes: f32, f16, bf16, f64, i32, i64, u8, bool");
          }
        }
      }
      if (auto sh = require(*tf, "shape", path, tl, "a list of dimension expressions, outermost first, e.g. [M, K]")) {
        const std::string sp = sub(path, "shape");
        if (!sh->IsSequence()) {
          problem(line_of(*sh, tl), sp, "expected a list of dimension expressions, e.g. [N] or [M, K], got " + describe(*sh));
        } else {
          info.shape_ok = true;
          size_t dim = 0;  // the dimension as written, after joining split pieces
          // In a flow list [ceil_div(B, 32)] YAML splits at the comma inside the
          // parentheses; the pieces are joined back, as the author meant one dimension.
          for (size_t d = 0; d < sh->size(); ++d) {
            YAML::Node dn = (*sh)[d];
            if (dn.IsScalar()) {
              std::string text = dn.Scalar();
              size_t last = d;
              while (paren_depth(text) > 0 && last + 1 < sh->size() && (*sh)[last + 1].IsScalar())
                text += ", " + (*sh)[++last].Scalar();
              if (last != d) {
                const int l = line_of(dn, tl);
                dn = YAML::Node(text);
                d = last;
                info.dim_lines.push_back(l);
                auto e = expression(dn, idx(sp, dim++), l, false);
                if (e) t.shape.push_back(*e);
                else info.shape_ok = false;
                continue;
              }
            }
            info.dim_lines.push_back(line_of(dn, tl));
            auto e = expression(dn, idx(sp, dim++), tl, false);
            if (e) t.shape.push_back(*e);
            else info.shape_ok = false;
          }
        }
      }
      if (inputs) {
        if (auto in = tf->get("init")) {
          info.init_line = line_of(*in, tf->key_line("init"));
          info.init_ok = dtype_ok && read_init(*in, sub(path, "init"), tf->key_line("init"), t);
        } else {
          t.init = default_init(t.dtype);
          info.init_ok = dtype_ok;
          info.init_line = tl;
        }
      }
      (inputs ? task_.inputs : task_.outputs).push_back(std::move(t));
      (inputs ? input_info_ : output_info_).push_back(std::move(info));
    }
  }

  static InitSpec default_init(Dtype d) {
    InitSpec s;
    if (dtype_is_float(d)) {
      s.dist = kDistNormal, s.dist_name = "normal", s.p0 = Expr::constant(0), s.p1 = Expr::constant(1);
    } else if (d == Dtype::boolean) {
      s.dist = kDistBernoulli, s.dist_name = "bernoulli", s.p0 = Expr::parse("0.5");
    } else {
      s.dist = kDistRandint, s.dist_name = "randint", s.p0 = Expr::constant(0), s.p1 = Expr::constant(100);
    }
    return s;
  }

  bool read_init(const YAML::Node& n, const std::string& path, int line, TensorSpec& t) {
    if (!n.IsMap()) {
      problem(line_of(n, line), path, "expected a mapping such as {dist: normal, mean: 0, std: 1}, got " + describe(n));
      return false;
    }
    const YAML::Node dn = n["dist"];
    std::vector<std::string> names;
    for (const auto& d : kDists) names.push_back(d.name);
    if (!dn.IsDefined()) {
      problem(line_of(n, line), sub(path, "dist"), "missing required field 'dist' (one of " + join(names) + ")");
      return false;
    }
    auto s = scalar(dn, sub(path, "dist"), line, "a distribution name");
    if (!s) return false;
    const DistInfo* d = find_dist(*s);
    if (!d) {
      problem(line_of(dn, line), sub(path, "dist"), "unknown distribution '" + *s + "'; valid: " + join(names));
      return false;
    }
    std::vector<std::string> allowed = {"dist", d->p0};
    if (d->p1) allowed.push_back(d->p1);
    auto f = mapping(n, path, line, allowed);
    if (!f) return false;
    // Which distributions fit the dtype: integers take integer-valued ones only.
    std::vector<std::string> fits;
    if (dtype_is_float(t.dtype)) fits = names;
    else if (t.dtype == Dtype::boolean) fits = {"bernoulli", "constant", "randint"};
    else fits = {"randint", "bernoulli", "constant"};
    bool ok = true;
    if (std::find(fits.begin(), fits.end(), d->name) == fits.end()) {
      problem(line_of(dn, line), sub(path, "dist"), "distribution '" + std::string(d->name) + "' does not fit dtype " +
                                                         dtype_name(t.dtype) + "; expected one of " + join(fits));
      ok = false;
    }
    t.init.dist = d->id;
    t.init.dist_name = d->name;
    // randint bounds are integer expressions over params; the others are real and may use constants.
    const bool reals_ok = d->id != kDistRandint;
    auto param = [&](const char* key, const char* dflt, Expr& out) {
      if (!key) return;
      if (auto v = f->get(key)) {
        auto e = expression(*v, sub(path, key), f->key_line(key), reals_ok);
        if (e) out = *e;
        else ok = false;
      } else if (dflt) {
        out = Expr::parse(dflt);
      } else {
        problem(line_of(n, line), sub(path, key), std::string("missing required field '") + key + "' for dist " + d->name);
        ok = false;
      }
    };
    param(d->p0, d->d0, t.init.p0);
    param(d->p1, d->d1, t.init.p1);
    return ok;
  }

  // Tensor names, params, constants and the names plans reserve share one namespace in a plan.
  void check_names() {
    std::map<std::string, int> input_lines;
    for (const auto& t : task_.inputs) input_lines[t.name] = t.line;
    for (const auto& t : task_.outputs)
      if (input_lines.count(t.name))
        problem(t.line, "outputs." + t.name,
                "duplicate tensor name '" + t.name + "': already an input (line " + std::to_string(input_lines[t.name]) +
                    "); expected inputs and outputs to have distinct names");
    for (auto* list : {&task_.inputs, &task_.outputs})
      for (const auto& t : *list) {
        const std::string path = std::string(list == &task_.inputs ? "inputs." : "outputs.") + t.name;
        if (kReserved.count(t.name))
          problem(t.line, path, "'" + t.name + "' is reserved in launch plans (" + join(kReserved) + "); expected another name");
        if (param_names_.count(t.name))
          problem(t.line, path, "tensor name '" + t.name + "' is also a param; expected distinct names");
        if (task_.constants.count(t.name))
          problem(t.line, path, "tensor name '" + t.name + "' is also a constant; expected distinct names");
      }
    for (const auto& [c, v] : task_.constants)
      if (param_names_.count(c))
        problem(constant_lines_[c], "constants." + c, "constant '" + c + "' is also a param; expected distinct names");
  }

  std::optional<Tolerance> read_tol_pair(const YAML::Node& n, const std::string& path, int line, Tolerance base) {
    auto f = mapping(n, path, line, {"atol", "rtol"}, "{atol: 1e-4, rtol: 1e-4}");
    if (!f) return std::nullopt;
    bool ok = true;
    for (const char* key : {"atol", "rtol"}) {
      auto v = f->get(key);
      if (!v) continue;  // missing: the dtype's default
      auto x = number(*v, sub(path, key), f->key_line(key));
      if (!x) { ok = false; continue; }
      if (*x < 0) {
        problem(line_of(*v, line), sub(path, key), "expected a non-negative tolerance, got " + v->Scalar());
        ok = false;
        continue;
      }
      (std::string(key) == "atol" ? base.atol : base.rtol) = *x;
    }
    if (!ok) return std::nullopt;
    return base;
  }

  void read_tolerance(const YAML::Node& n, int line) {
    if (!n.IsMap()) {
      problem(line_of(n, line), "tolerance",
              "expected {atol: .., rtol: ..} or per output {y: {atol: .., rtol: ..}}, got " + describe(n));
      return;
    }
    // One pair for every output, or one per output name.
    if (n["atol"].IsDefined() || n["rtol"].IsDefined()) {
      for (const auto& out : task_.outputs) {
        auto t = read_tol_pair(n, "tolerance", line, default_tolerance(out.dtype));
        if (!t) return;  // reported once: the pair is the same for every output
        task_.tolerance[out.name] = *t;
      }
      if (task_.outputs.empty()) read_tol_pair(n, "tolerance", line, {});
      return;
    }
    auto f = mapping(n, "tolerance", line, {});
    if (!f) return;
    std::vector<std::string> outs;
    for (const auto& o : task_.outputs) outs.push_back(o.name);
    for (size_t i = 0; i < f->items.size(); ++i) {
      const auto& [name, v] = f->items[i];
      auto o = std::find_if(task_.outputs.begin(), task_.outputs.end(), [&](const TensorSpec& t) { return t.name == name; });
      if (o == task_.outputs.end()) {
        problem(f->key_lines[i], sub("tolerance", name),
                "unknown key '" + name + "'; expected atol and rtol, or output names (" +
                    (outs.empty() ? std::string("none") : join(outs)) + ")");
        continue;
      }
      if (auto t = read_tol_pair(v, sub("tolerance", name), f->key_lines[i], default_tolerance(o->dtype)))
        task_.tolerance[name] = *t;
    }
  }

  void read_cost(const YAML::Node& n, int line) {
    auto f = mapping(n, "cost", line, {"bytes", "flops"}, "{bytes: 8 * N, flops: N}");
    if (!f) return;
    if (auto v = f->get("bytes"))
      if (auto e = expression(*v, "cost.bytes", f->key_line("bytes"), false)) {
        task_.cost_bytes = *e;
        cost_lines_[0] = line_of(*v, line);
      }
    if (auto v = f->get("flops"))
      if (auto e = expression(*v, "cost.flops", f->key_line("flops"), false)) {
        task_.cost_flops = *e;
        cost_lines_[1] = line_of(*v, line);
      }
  }

  void read_reference(const YAML::Node& n, int line) {
    auto f = mapping(n, "reference", line, {"gpu", "cpu"}, "{gpu: reference.cu, cpu: reference.cpp}");
    if (!f) return;
    if (f->items.empty()) problem(line_of(n, line), "reference", "expected at least one of gpu, cpu");
    for (size_t i = 0; i < f->items.size(); ++i) {
      const auto& [family, v] = f->items[i];
      const std::string path = sub("reference", family);
      auto s = scalar(v, path, f->key_lines[i], "a file name relative to the task folder");
      if (!s) continue;
      const fs::path file = task_.dir / *s;
      if (s->empty() || !fs::is_regular_file(file)) {
        problem(line_of(v, f->key_lines[i]), path,
                "reference file '" + *s + "' not found; expected a file in the task folder (" + task_.dir.string() + ")");
        continue;
      }
      task_.references[family] = file;
    }
  }

  // Shapes, init bounds and costs evaluated for one parameter set.
  void check_param_set(const ParamSet& s) {
    ExprEnv env;
    env.ints = s.params;
    env.reals = task_.constants;
    const std::string where = s.path + " " + show_params(s.params);
    for (int pass = 0; pass < 2; ++pass) {
      const auto& specs = pass == 0 ? task_.inputs : task_.outputs;
      const auto& infos = pass == 0 ? input_info_ : output_info_;
      for (size_t i = 0; i < specs.size(); ++i) {
        const TensorSpec& t = specs[i];
        const TensorInfo& info = infos[i];
        if (info.shape_ok) check_shape(t, info, env, where);
        if (pass == 0 && info.init_ok) check_init(t, info, env, where);
      }
    }
    const Expr* costs[2] = {&task_.cost_bytes, &task_.cost_flops};
    const char* cost_names[2] = {"cost.bytes", "cost.flops"};
    for (int c = 0; c < 2; ++c) {
      if (!cost_lines_[c]) continue;
      try {
        const int64_t v = costs[c]->eval(env);
        if (v < 0) problem(cost_lines_[c], cost_names[c], "is " + std::to_string(v) + " for " + where + "; expected >= 0");
      } catch (const ExprError& e) {
        problem(cost_lines_[c], cost_names[c], std::string("cannot evaluate for ") + where + ": " + e.what());
      }
    }
  }

  void check_shape(const TensorSpec& t, const TensorInfo& info, const ExprEnv& env, const std::string& where) {
    uint64_t count = 1;
    bool overflow = false;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      const std::string dp = idx(sub(info.path, "shape"), d);
      int64_t v = 0;
      try {
        v = t.shape[d].eval(env);
      } catch (const ExprError& e) {
        problem(info.dim_lines[d], dp, std::string("cannot evaluate for ") + where + ": " + e.what());
        return;
      }
      if (v < 1) {
        problem(info.dim_lines[d], dp,
                "'" + t.shape[d].text() + "' is " + std::to_string(v) + " for " + where + "; expected a dimension >= 1");
        return;
      }
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(v), &count)) overflow = true;
    }
    uint64_t bytes = 0;
    if (overflow || __builtin_mul_overflow(count, static_cast<uint64_t>(dtype_size(t.dtype)), &bytes) ||
        bytes > static_cast<uint64_t>(INT64_MAX))
      problem(t.line, info.path, "size overflows 64 bits for " + where + "; expected a tensor that fits in memory");
  }

  void check_init(const TensorSpec& t, const TensorInfo& info, const ExprEnv& env, const std::string& where) {
    const InitSpec& in = t.init;
    const std::string path = sub(info.path, "init");
    // Bounds that use no params are checked once, without naming a parameter set.
    const bool uses_params = !in.p0.names().empty() || !in.p1.names().empty();
    const std::string ctx = uses_params ? " for " + where : "";
    auto fail = [&](const std::string& msg) { problem(info.init_line, path, msg + ctx); };
    try {
      if (in.dist == kDistRandint) {
        const int64_t lo = in.p0.eval(env), hi = in.p1.eval(env);
        if (lo >= hi) return fail("randint needs low < high (high is exclusive), got [" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
        int64_t min = INT64_MIN, max = INT64_MAX;
        if (t.dtype == Dtype::boolean) min = 0, max = 1;
        if (t.dtype == Dtype::u8) min = 0, max = 255;
        if (t.dtype == Dtype::i32) min = INT32_MIN, max = INT32_MAX;
        if (lo < min || hi - 1 > max)
          return fail("randint range [" + std::to_string(lo) + ", " + std::to_string(hi) + ") does not fit dtype " +
                      dtype_name(t.dtype) + "; expected values in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
        return;
      }
      const double a = in.p0.eval_real(env);
      const double b = in.dist == kDistNormal || in.dist == kDistUniform ? in.p1.eval_real(env) : 0;
      if (!std::isfinite(a) || !std::isfinite(b)) return fail("expected finite distribution parameters");
      switch (in.dist) {
        case kDistNormal:
          if (b < 0) fail("normal needs std >= 0, got " + std::to_string(b));
          break;
        case kDistUniform:
          if (!(a < b)) fail("uniform needs low < high, got [" + std::to_string(a) + ", " + std::to_string(b) + ")");
          break;
        case kDistBernoulli:
          if (a < 0 || a > 1) fail("bernoulli needs 0 <= p <= 1, got " + std::to_string(a));
          break;
        case kDistConstant:
          if (!dtype_is_float(t.dtype)) {
            const bool integral = a == std::floor(a);
            const bool fits = t.dtype == Dtype::boolean ? (a == 0 || a == 1)
                              : t.dtype == Dtype::u8    ? (a >= 0 && a <= 255)
                              : t.dtype == Dtype::i32   ? (a >= INT32_MIN && a <= INT32_MAX)
                                                        : std::fabs(a) < 9.2e18;
            if (!integral || !fits)
              fail(std::string("constant value ") + std::to_string(a) + " does not fit dtype " + dtype_name(t.dtype));
          }
          break;
      }
    } catch (const ExprError& e) {
      fail(std::string("cannot evaluate the distribution's parameters: ") + e.what());
    }
  }

  // solutions/expected.yaml: solution file -> expected verdict or flag.
  void read_expected() {
    const fs::path file = task_.solutions_dir / "expected.yaml";
    if (!fs::is_regular_file(file)) return;
    files_.push_back(file.string());
    file_ = static_cast<int>(files_.size()) - 1;
    YAML::Node root;
    try {
      root = YAML::LoadFile(file.string());
    } catch (const YAML::ParserException& e) {
      problem(e.mark.line + 1, "(syntax)", "YAML syntax error: " + e.msg);
      return;
    } catch (const YAML::Exception& e) {
      problem(0, "(file)", std::string("cannot read: ") + e.what());
      return;
    }
    if (root.IsNull()) return;  // an empty file expects nothing
    auto f = mapping(root, "", 1, {}, "solution file: verdict, e.g. good.cpp: pass");
    if (!f) return;
    std::vector<std::string> verdicts;
    for (Verdict v : {Verdict::pass, Verdict::format_error, Verdict::compile_error, Verdict::launch_error,
                      Verdict::runtime_error, Verdict::timeout, Verdict::crash, Verdict::wrong_output})
      verdicts.push_back(verdict_name(v));
    for (size_t i = 0; i < f->items.size(); ++i) {
      const auto& [name, v] = f->items[i];
      if (!fs::is_regular_file(task_.solutions_dir / name)) {
        problem(f->key_lines[i], name, "no such solution file in " + task_.solutions_dir.string());
        continue;
      }
      auto s = scalar(v, name, f->key_lines[i], "a verdict or flag");
      if (!s) continue;
      const bool known = parse_verdict(*s).has_value() ||
                         std::find(kKnownFlags.begin(), kKnownFlags.end(), *s) != kKnownFlags.end();
      if (!known) {
        problem(line_of(v, f->key_lines[i]), name,
                "unknown expectation '" + *s + "'; expected a verdict (" + join(verdicts) + ") or a flag (" +
                    join(kKnownFlags) + ")");
        continue;
      }
      task_.expected[name] = *s;
    }
  }

  Task task_;
  std::vector<std::string> files_;   // files problems may name: task.yaml, then expected.yaml
  int file_ = 0;                     // the file being read
  std::vector<Problem> problems_;
  std::set<std::string> param_names_;
  bool params_known_ = false;
  std::vector<TensorInfo> input_info_, output_info_;
  int cost_lines_[2] = {0, 0};
  std::map<std::string, int> constant_lines_;
};

std::string tensor_where(const Task& task, const TensorSpec& t) {
  return task.file.string() + ":" + std::to_string(t.line) + ": " + t.name + ": ";
}

}  // namespace

Tolerance default_tolerance(Dtype d) {
  switch (d) {
    case Dtype::f32: return {1e-4, 1e-4};
    case Dtype::f16: case Dtype::bf16: return {1e-2, 1e-2};
    case Dtype::f64: return {1e-8, 1e-8};
    default: return {0, 0};
  }
}

std::vector<int64_t> Task::eval_shape(const TensorSpec& t, const Params& p) const {
  ExprEnv env;
  env.ints = p;
  env.reals = constants;
  std::vector<int64_t> out;
  out.reserve(t.shape.size());
  for (size_t d = 0; d < t.shape.size(); ++d) {
    int64_t v = 0;
    try {
      v = t.shape[d].eval(env);
    } catch (const ExprError& e) {
      throw InputError(tensor_where(*this, t) + "shape[" + std::to_string(d) + "] for " + show_params(p) + ": " + e.what());
    }
    if (v < 1)
      throw InputError(tensor_where(*this, t) + "shape[" + std::to_string(d) + "] '" + t.shape[d].text() + "' is " +
                       std::to_string(v) + " for " + show_params(p) + "; expected a dimension >= 1");
    out.push_back(v);
  }
  return out;
}

uint64_t Task::element_count(const TensorSpec& t, const Params& p) const {
  uint64_t count = 1;
  for (int64_t d : eval_shape(t, p)) {
    // Also keep count * dtype_size within int64, so callers may multiply safely.
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count) ||
        count > static_cast<uint64_t>(INT64_MAX) / dtype_size(t.dtype))
      throw InputError(tensor_where(*this, t) + "element count overflows 64 bits for " + show_params(p));
  }
  return count;
}

Tolerance Task::tolerance_for(const TensorSpec& output) const {
  auto it = tolerance.find(output.name);
  return it != tolerance.end() ? it->second : default_tolerance(output.dtype);
}

Task load_task(const fs::path& dir) { return Loader(dir).run(); }

}  // namespace crucible
