// The candidate's launch plan: finds the one /*@launch ... @*/ block, reads it as
// YAML, checks it against the schema of docs/candidate-format.md, and resolves it for
// one shape on one device. Every message names the line in the candidate file, the
// launch (number and kernel), the field, and what was expected, because its reader is
// usually a model that must fix the plan from the message alone.
#include "harness/launch_plan.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

namespace crucible {

const char* scalar_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::i32: return "i32";
    case ScalarType::i64: return "i64";
    case ScalarType::u32: return "u32";
    case ScalarType::f32: return "f32";
    case ScalarType::f64: return "f64";
  }
  return "?";
}

namespace {

constexpr const char* kOpen = "/*@launch";
constexpr const char* kClose = "@*/";
constexpr const char* kLaunchFields = "kernel, grid, block, cluster, smem, args";
constexpr const char* kArgForms =
    "a tensor name, i32(expr), i64(expr), u32(expr), f32(expr), f64(expr) or tma(tensor, box: [..], swizzle: N)";

std::string join(const std::vector<std::string>& v) {
  if (v.empty()) return "(none)";
  std::string s;
  for (const auto& x : v) {
    if (!s.empty()) s += ", ";
    s += x;
  }
  return s;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

int line_of(const std::string& s, size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// Splits at commas outside (), [], {} and quotes.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(trim(cur));
  return out;
}

std::string unquote(const std::string& s) {
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
    return s.substr(1, s.size() - 2);
  return s;
}

// YAML reads `[x, tma(A, box: [64, 64])]` or `{count: ceil_div(N, 64)}` wrongly: inside
// a flow collection the commas, colons and brackets of an expression end the scalar,
// and in a block `- tma(A, box: ...)` reads as a mapping. Before parsing, every plain
// scalar that contains '(' is therefore wrapped in double quotes, its extent found by
// counting parentheses. Newlines are kept, so YAML's line numbers still hold.
std::string quote_call_scalars(const std::string& in) {
  std::string out;
  out.reserve(in.size() + 64);
  const size_t n = in.size();
  size_t i = 0;
  int flow = 0;
  auto space_at = [&](size_t k) { return k >= n || std::isspace(static_cast<unsigned char>(in[k])); };
  while (i < n) {
    char c = in[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      out += c;
      ++i;
      continue;
    }
    if (c == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(in[i - 1])))) {
      while (i < n && in[i] != '\n') out += in[i++];
      continue;
    }
    if (c == '"' || c == '\'') {  // copy a quoted scalar untouched
      out += in[i++];
      while (i < n) {
        char d = in[i];
        out += d;
        ++i;
        if (c == '"' && d == '\\' && i < n) {
          out += in[i++];
        } else if (d == c) {
          if (c == '\'' && i < n && in[i] == '\'') {
            out += in[i++];
          } else {
            break;
          }
        }
      }
      continue;
    }
    if (flow == 0 && c == '-' && space_at(i + 1)) {
      out += c;
      ++i;
      continue;
    }
    if (flow == 0 && (c == '|' || c == '>')) {  // a block scalar: leave its lines alone
      size_t ls = in.rfind('\n', i);
      ls = ls == std::string::npos ? 0 : ls + 1;
      size_t indent = 0;
      while (ls + indent < n && in[ls + indent] == ' ') ++indent;
      while (i < n && in[i] != '\n') out += in[i++];
      while (i < n) {  // at a '\n'
        size_t k = i + 1, ind = 0;
        while (k < n && in[k] == ' ') ++k, ++ind;
        bool blank = k >= n || in[k] == '\n';
        if (!blank && ind <= indent) break;
        out += in[i++];
        while (i < n && in[i] != '\n') out += in[i++];
      }
      continue;
    }
    if (c == '[' || c == '{') {
      ++flow;
      out += c;
      ++i;
      continue;
    }
    if (c == ']' || c == '}' || (c == ',' && flow > 0)) {
      if (c != ',' && flow > 0) --flow;
      out += c;
      ++i;
      continue;
    }
    if (c == ':' && (space_at(i + 1) || (flow > 0 && std::strchr(",]}", in[i + 1])))) {
      out += c;
      ++i;
      continue;
    }
    // A plain scalar: find where YAML would end it, with parentheses protecting
    // everything inside them. It never spans lines.
    size_t j = i;
    int depth = 0;
    bool has_paren = false;
    while (j < n && in[j] != '\n') {
      char d = in[j];
      if (d == '(') {
        ++depth;
        has_paren = true;
      } else if (d == ')') {
        if (depth > 0) --depth;
      } else if (depth == 0) {
        if (d == ':' && (space_at(j + 1) || (flow > 0 && std::strchr(",[]{}", in[j + 1])))) break;
        if (d == '#' && j > i && std::isspace(static_cast<unsigned char>(in[j - 1]))) break;
        if (flow > 0 && std::strchr(",[]{}", d)) break;
      }
      ++j;
    }
    size_t e = j;
    while (e > i && std::isspace(static_cast<unsigned char>(in[e - 1]))) --e;
    // An unclosed '(' inside a flow list would swallow the closing bracket; leave it
    // for the expression parser to report.
    if (has_paren && !(depth > 0 && flow > 0)) {
      out += '"';
      for (size_t k = i; k < e; ++k) {
        if (in[k] == '\\' || in[k] == '"') out += '\\';
        out += in[k];
      }
      out += '"';
      out.append(in, e, j - e);
    } else {
      out.append(in, i, j - i);
    }
    i = j;
  }
  return out;
}

// Builds messages: "line L: launch 2 (relu_tail), field 'grid': what".
struct Where {
  int line = 0;
  std::string who;    // "launch 2 (relu_tail)" or "scratch 'tmp'" or ""
  std::string field;  // "" for none
  std::string str() const {
    std::string s = "line " + std::to_string(line) + ": ";
    if (!who.empty()) s += who;
    if (!field.empty()) s += (who.empty() ? "" : ", ") + std::string("field '") + field + "'";
    if (!who.empty() || !field.empty()) s += ": ";
    return s;
  }
  [[noreturn]] void fail(const std::string& what) const { throw PlanError(str() + what); }
};

std::string launch_label(size_t index, const std::string& kernel) {
  std::string s = "launch " + std::to_string(index + 1);
  if (!kernel.empty()) s += " (" + kernel + ")";
  return s;
}

std::string node_kind(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Null: return "nothing";
    default: return "'" + n.as<std::string>() + "'";
  }
}

class PlanReader {
 public:
  PlanReader(int first_line, bool require_geometry) : first_line_(first_line), geometry_(require_geometry) {}

  int line(const YAML::Node& n, int fallback) const {
    const YAML::Mark m = n.Mark();
    if (m.line < 0) return fallback;
    return first_line_ + m.line;
  }

  LaunchPlan read(const YAML::Node& root) {
    LaunchPlan plan;
    plan.first_line = first_line_;
    Where top{first_line_, "", ""};
    if (!root.IsMap())
      top.fail("the launch plan must be a YAML mapping with 'launches:' (and optionally 'scratch:'), got " +
               node_kind(root));
    for (auto it = root.begin(); it != root.end(); ++it) {
      std::string key = it->first.as<std::string>();
      if (key != "launches" && key != "scratch")
        Where{line(it->first, first_line_), "", ""}.fail("unknown top-level key '" + key +
                                                          "'; allowed keys: launches, scratch");
    }
    YAML::Node launches = root["launches"];
    if (!launches)
      top.fail("missing 'launches:': expected a list of launches, each with kernel, grid, block and args");
    if (!launches.IsSequence() || launches.size() == 0)
      Where{line(launches, first_line_), "", "launches"}.fail("expected a non-empty list of launches, got " +
                                                              node_kind(launches));
    for (size_t i = 0; i < launches.size(); ++i) plan.launches.push_back(read_launch(launches[i], i));
    if (YAML::Node scratch = root["scratch"]) read_scratch(scratch, plan);
    return plan;
  }

 private:
  int first_line_;
  bool geometry_;

  PlanLaunch read_launch(const YAML::Node& node, size_t index) {
    PlanLaunch l;
    l.line = line(node, first_line_);
    if (!node.IsMap())
      Where{l.line, launch_label(index, ""), ""}.fail(
          "expected a mapping with fields kernel, grid, block and args, got " + node_kind(node));

    // The kernel first, so that every later message can name it.
    YAML::Node k = node["kernel"];
    if (!k || k.IsNull())
      Where{l.line, launch_label(index, ""), ""}.fail(
          "missing field 'kernel': expected the name of an extern \"C\" kernel function");
    std::string kname = k.IsScalar() ? trim(k.as<std::string>()) : "";
    if (!is_identifier(kname))
      Where{line(k, l.line), launch_label(index, ""), "kernel"}.fail(
          "expected the name of an extern \"C\" kernel function (a C identifier), got " + node_kind(k));
    l.kernel = kname;
    const std::string who = launch_label(index, kname);

    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string key = it->first.as<std::string>();
      static const std::set<std::string> allowed = {"kernel", "grid", "block", "cluster", "smem", "args"};
      if (!allowed.count(key))
        Where{line(it->first, l.line), who, ""}.fail("unknown field '" + key + "'; allowed fields: " +
                                                     kLaunchFields);
    }

    for (const char* f : {"grid", "block"}) {
      YAML::Node g = node[f];
      if (!geometry_) continue;  // the CPU backend has no geometry: ignored
      if (!g)
        Where{l.line, who, f}.fail(std::string("missing: expected 1 to 3 integer expressions, e.g. ") +
                                   (std::strcmp(f, "grid") == 0 ? "grid: ceil_div(N, 256)" : "block: 256"));
      (std::strcmp(f, "grid") == 0 ? l.grid : l.block) = read_dims(g, Where{line(g, l.line), who, f}, 3);
    }
    if (YAML::Node c = node["cluster"]) l.cluster = read_dims(c, Where{line(c, l.line), who, "cluster"}, 3);
    if (YAML::Node s = node["smem"]) {
      Where w{line(s, l.line), who, "smem"};
      if (!s.IsScalar()) w.fail("expected one integer expression (dynamic shared memory bytes), got " + node_kind(s));
      l.smem = parse_expr(s.as<std::string>(), w);
    }
    if (YAML::Node a = node["args"]) read_args(a, Where{line(a, l.line), who, "args"}, l);
    return l;
  }

  static Expr parse_expr(const std::string& text, const Where& w, const std::string& what = "") {
    std::string t = trim(text);
    if (t.empty()) w.fail((what.empty() ? "" : what + ": ") + "expected an integer expression, got nothing");
    try {
      return Expr::parse(t);
    } catch (const ExprError& e) {
      w.fail((what.empty() ? "" : what + ": ") + e.what());
    }
  }

  // grid / block / cluster: a scalar (one expression, or several separated by commas)
  // or a list of 1..max expressions.
  std::vector<Expr> read_dims(const YAML::Node& n, const Where& w, size_t max) {
    std::vector<std::pair<std::string, int>> items;  // text, line
    const std::string want = "expected 1 to " + std::to_string(max) + " integer expressions";
    if (n.IsScalar()) {
      for (auto& p : split_top(n.as<std::string>())) items.push_back({p, w.line});
    } else if (n.IsSequence()) {
      for (size_t i = 0; i < n.size(); ++i) {
        if (!n[i].IsScalar())
          Where{line(n[i], w.line), w.who, w.field}.fail(want + ", got " + node_kind(n[i]) + " as entry " +
                                                          std::to_string(i + 1));
        items.push_back({n[i].as<std::string>(), line(n[i], w.line)});
      }
    } else {
      w.fail(want + ", got " + node_kind(n));
    }
    if (items.empty() || items.size() > max) w.fail(want + ", got " + std::to_string(items.size()));
    std::vector<Expr> out;
    for (size_t i = 0; i < items.size(); ++i) {
      Where wi{items[i].second, w.who, w.field};
      out.push_back(parse_expr(items[i].first, wi, items.size() > 1 ? "entry " + std::to_string(i + 1) : ""));
    }
    return out;
  }

  void read_args(const YAML::Node& n, const Where& w, PlanLaunch& l) {
    std::vector<std::pair<std::string, int>> items;
    if (n.IsNull()) return;
    if (n.IsScalar()) {
      for (auto& p : split_top(n.as<std::string>())) items.push_back({p, w.line});
    } else if (n.IsSequence()) {
      for (size_t i = 0; i < n.size(); ++i) {
        int ln = line(n[i], w.line);
        if (!n[i].IsScalar())
          Where{ln, w.who, w.field}.fail("argument " + std::to_string(i + 1) + ": expected " + kArgForms +
                                         ", got " + node_kind(n[i]));
        items.push_back({n[i].as<std::string>(), ln});
      }
    } else {
      w.fail(std::string("expected a list of arguments, each ") + kArgForms + ", got " + node_kind(n));
    }
    for (size_t i = 0; i < items.size(); ++i) l.args.push_back(read_arg(items[i].first, items[i].second, w.who, i));
  }

  static PlanArg read_arg(const std::string& raw, int line, const std::string& who, size_t index) {
    PlanArg a;
    a.text = unquote(trim(raw));
    a.line = line;
    const std::string label = "argument " + std::to_string(index + 1) + " '" + a.text + "'";
    Where w{line, who, "args"};
    if (a.text.empty()) w.fail("argument " + std::to_string(index + 1) + " is empty: expected " + kArgForms);
    if (is_identifier(a.text)) {
      a.kind = PlanArg::Kind::tensor;
      a.tensor = a.text;
      return a;
    }
    size_t open = a.text.find('(');
    std::string head = open == std::string::npos ? "" : trim(a.text.substr(0, open));
    if (!is_identifier(head)) w.fail(label + ": expected " + kArgForms);
    // The '(' after the head must close at the very end.
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t k = open; k < a.text.size(); ++k) {
      if (a.text[k] == '(') ++depth;
      if (a.text[k] == ')' && --depth == 0) {
        close = k;
        break;
      }
    }
    if (close == std::string::npos) w.fail(label + ": expected ')' at the end");
    if (close + 1 != a.text.size())
      w.fail(label + ": expected the argument to end at the ')' closing " + head +
             "(...); put the whole expression inside it, e.g. i64(N / 4 * 4)");
    const std::string inner = a.text.substr(open + 1, close - open - 1);
    static const std::pair<const char*, ScalarType> scalars[] = {{"i32", ScalarType::i32},
                                                                 {"i64", ScalarType::i64},
                                                                 {"u32", ScalarType::u32},
                                                                 {"f32", ScalarType::f32},
                                                                 {"f64", ScalarType::f64}};
    for (const auto& [name, type] : scalars) {
      if (head != name) continue;
      a.kind = PlanArg::Kind::scalar;
      a.scalar_type = type;
      a.value = parse_expr(inner, w, label);
      return a;
    }
    if (head == "tma") {
      a.kind = PlanArg::Kind::tma;
      a.tma = read_tma(inner, w, label);
      return a;
    }
    w.fail(label + ": unknown argument form '" + head + "(...)': expected " + kArgForms);
  }

  static TmaSpec read_tma(const std::string& inner, const Where& w, const std::string& label) {
    TmaSpec t;
    std::vector<std::string> parts = split_top(inner);
    const std::string form = "tma(tensor, box: [e1, ..], swizzle: 0|32|64|128)";
    if (parts.empty() || !is_identifier(parts[0]))
      w.fail(label + ": expected " + form + " with a tensor name first");
    t.tensor = parts[0];
    bool have_box = false, have_swizzle = false;
    for (size_t i = 1; i < parts.size(); ++i) {
      size_t colon = parts[i].find(':');
      std::string key = trim(parts[i].substr(0, colon));
      if (colon == std::string::npos || (key != "box" && key != "swizzle"))
        w.fail(label + ": unknown tma option '" + parts[i] + "'; allowed options: box, swizzle (" + form + ")");
      std::string value = trim(parts[i].substr(colon + 1));
      if (key == "box") {
        if (have_box) w.fail(label + ": 'box' given twice");
        have_box = true;
        if (value.size() >= 2 && value.front() == '[' && value.back() == ']') value = value.substr(1, value.size() - 2);
        std::vector<std::string> dims = split_top(value);
        if (dims.size() == 1 && dims[0].empty()) dims.clear();
        if (dims.empty() || dims.size() > 5)
          w.fail(label + ": 'box' expects 1 to 5 integer expressions, got " + std::to_string(dims.size()));
        for (size_t d = 0; d < dims.size(); ++d)
          t.box.push_back(parse_expr(dims[d], w, label + ", box entry " + std::to_string(d + 1)));
      } else {
        if (have_swizzle) w.fail(label + ": 'swizzle' given twice");
        have_swizzle = true;
        if (value != "0" && value != "32" && value != "64" && value != "128")
          w.fail(label + ": 'swizzle' expects 0, 32, 64 or 128 (bytes), got '" + value + "'");
        t.swizzle = std::stoi(value);
      }
    }
    if (!have_box) w.fail(label + ": missing 'box': expected " + form);
    return t;
  }

  void read_scratch(const YAML::Node& n, LaunchPlan& plan) {
    Where w{line(n, first_line_), "", "scratch"};
    if (n.IsNull()) return;
    if (!n.IsMap())
      w.fail("expected a mapping of buffer names to {dtype: ..., count: ...}, got " + node_kind(n));
    for (auto it = n.begin(); it != n.end(); ++it) {
      ScratchSpec s;
      s.name = trim(it->first.as<std::string>());
      s.line = line(it->first, w.line);
      Where ws{s.line, "scratch '" + s.name + "'", ""};
      if (!is_identifier(s.name)) ws.fail("expected a buffer name that is a C identifier");
      for (const auto& other : plan.scratch)
        if (other.name == s.name) ws.fail("declared twice");
      const YAML::Node& v = it->second;
      if (!v.IsMap()) ws.fail("expected {dtype: f32, count: <integer expression>}, got " + node_kind(v));
      for (auto f = v.begin(); f != v.end(); ++f) {
        std::string key = f->first.as<std::string>();
        if (key != "dtype" && key != "count")
          Where{line(f->first, s.line), ws.who, ""}.fail("unknown field '" + key + "'; allowed fields: dtype, count");
      }
      YAML::Node dt = v["dtype"];
      const std::string dtypes = "f32, f16, bf16, f64, i32, i64, u8, bool";
      if (!dt || !dt.IsScalar()) Where{s.line, ws.who, "dtype"}.fail("missing: expected one of " + dtypes);
      auto parsed = parse_dtype(trim(dt.as<std::string>()));
      if (!parsed)
        Where{line(dt, s.line), ws.who, "dtype"}.fail("expected one of " + dtypes + ", got " + node_kind(dt));
      s.dtype = *parsed;
      YAML::Node count = v["count"];
      if (!count || !count.IsScalar())
        Where{s.line, ws.who, "count"}.fail("missing: expected an integer expression (number of elements)");
      s.count = parse_expr(count.as<std::string>(), Where{line(count, s.line), ws.who, "count"});
      plan.scratch.push_back(std::move(s));
    }
  }
};

// Values of the names an expression uses, for messages: "N = 3, sm_count = 132".
std::string name_values(const Expr& e, const ExprEnv& env) {
  std::vector<std::string> parts;
  for (const auto& n : e.names()) {
    if (auto it = env.ints.find(n); it != env.ints.end())
      parts.push_back(n + " = " + std::to_string(it->second));
    else if (auto r = env.reals.find(n); r != env.reals.end())
      parts.push_back(n + " = " + std::to_string(r->second));
  }
  return parts.empty() ? "" : " (with " + join(parts) + ")";
}

}  // namespace

LaunchPlan parse_launch_plan(const std::string& source, bool require_geometry) {
  std::vector<size_t> opens;
  for (size_t p = source.find(kOpen); p != std::string::npos; p = source.find(kOpen, p + 1)) opens.push_back(p);
  if (opens.empty())
    throw PlanError(
        "no launch plan found: the source must contain exactly one /*@launch ... @*/ comment block with a YAML "
        "plan (launches: - kernel: ..., grid: ..., block: ..., args: [...])");
  if (opens.size() > 1) {
    std::vector<std::string> lines;
    for (size_t p : opens) lines.push_back(std::to_string(line_of(source, p)));
    throw PlanError("found " + std::to_string(opens.size()) + " /*@launch blocks (lines " + join(lines) +
                    "): a candidate has exactly one; put all launches in one block");
  }
  const size_t open = opens[0];
  const int first_line = line_of(source, open);
  const size_t body_begin = open + std::strlen(kOpen);
  const size_t close = source.find(kClose, body_begin);
  const size_t c_close = source.find("*/", body_begin);
  if (close == std::string::npos || c_close < close + 1) {
    // The C comment ends before '@*/' (or there is none): the block is not closed.
    std::string at = c_close == std::string::npos ? "" : " (the comment ends with '*/' on line " +
                                                            std::to_string(line_of(source, c_close)) + ")";
    throw PlanError("line " + std::to_string(first_line) +
                    ": the /*@launch block is not closed: end it with '@*/' on a line of its own" + at);
  }
  const std::string body = source.substr(body_begin, close - body_begin);

  YAML::Node root;
  try {
    root = YAML::Load(quote_call_scalars(body));
  } catch (const YAML::Exception& e) {
    int ln = first_line + (e.mark.line >= 0 ? e.mark.line : 0);
    throw PlanError("line " + std::to_string(ln) + ": the launch plan is not valid YAML: " + e.msg +
                    " (check the indentation: the fields of a launch line up under 'kernel:', indented with spaces, not tabs)");
  }
  try {
    return PlanReader(first_line, require_geometry).read(root);
  } catch (const YAML::Exception& e) {
    int ln = first_line + (e.mark.line >= 0 ? e.mark.line : 0);
    throw PlanError("line " + std::to_string(ln) + ": unexpected YAML structure in the launch plan: " + e.msg);
  }
}

void check_plan_names(const LaunchPlan& plan, const std::vector<std::string>& known_tensors,
                      const std::vector<std::string>& known_ints, const std::vector<std::string>& known_reals) {
  std::vector<std::string> tensors = known_tensors;
  for (const auto& s : plan.scratch)
    if (std::find(tensors.begin(), tensors.end(), s.name) == tensors.end()) tensors.push_back(s.name);
  std::set<std::string> ints(known_ints.begin(), known_ints.end());
  std::set<std::string> reals(known_reals.begin(), known_reals.end());
  const std::string int_list = join({ints.begin(), ints.end()});

  auto check_expr = [&](const Expr& e, bool real_ok, const Where& w, const std::string& what) {
    for (const auto& n : e.names()) {
      if (ints.count(n) || (real_ok && reals.count(n))) continue;
      std::string pre = (what.empty() ? "" : what + ": ");
      if (reals.count(n))
        w.fail(pre + "'" + n + "' in '" + e.text() +
               "' is a real constant and may only be used inside f32(...) or f64(...); integer names: " + int_list);
      std::vector<std::string> known(ints.begin(), ints.end());
      if (real_ok) known.insert(known.end(), reals.begin(), reals.end());
      w.fail(pre + "unknown name '" + n + "' in '" + e.text() + "'; known names: " + join(known));
    }
  };
  auto check_tensor = [&](const std::string& t, const Where& w, const std::string& what) {
    if (std::find(tensors.begin(), tensors.end(), t) == tensors.end())
      w.fail(what + ": unknown tensor '" + t + "'; known tensors: " + join(tensors));
  };

  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const PlanLaunch& l = plan.launches[i];
    const std::string who = launch_label(i, l.kernel);
    for (auto [field, dims] : {std::pair{"grid", &l.grid}, {"block", &l.block}, {"cluster", &l.cluster}})
      for (const auto& e : *dims) check_expr(e, false, Where{l.line, who, field}, "");
    if (l.smem) check_expr(*l.smem, false, Where{l.line, who, "smem"}, "");
    for (size_t j = 0; j < l.args.size(); ++j) {
      const PlanArg& a = l.args[j];
      Where w{a.line ? a.line : l.line, who, "args"};
      const std::string what = "argument " + std::to_string(j + 1) + " '" + a.text + "'";
      switch (a.kind) {
        case PlanArg::Kind::tensor: check_tensor(a.tensor, w, what); break;
        case PlanArg::Kind::scalar:
          check_expr(a.value, a.scalar_type == ScalarType::f32 || a.scalar_type == ScalarType::f64, w, what);
          break;
        case PlanArg::Kind::tma:
          check_tensor(a.tma.tensor, w, what);
          for (const auto& e : a.tma.box) check_expr(e, false, w, what);
          break;
      }
    }
  }
  for (const auto& s : plan.scratch) check_expr(s.count, false, Where{s.line, "scratch '" + s.name + "'", "count"}, "");
}

std::vector<ResolvedLaunch> resolve_plan(const LaunchPlan& plan, const ExprEnv& env,
                                         const std::vector<TensorBinding>& tensors) {
  constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();
  auto eval = [&](const Expr& e, const Where& w, const std::string& what) -> int64_t {
    try {
      return e.eval(env);
    } catch (const ExprError& x) {
      w.fail((what.empty() ? "" : what + ": ") + x.what());
    }
  };
  auto find_tensor = [&](const std::string& name, const Where& w, const std::string& what) -> const TensorBinding& {
    for (const auto& t : tensors)
      if (t.name == name) return t;
    std::vector<std::string> bound;
    for (const auto& t : tensors) bound.push_back(t.name);
    w.fail(what + ": unknown tensor '" + name + "'; bound tensors: " + join(bound));
  };

  std::vector<ResolvedLaunch> out;
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const PlanLaunch& l = plan.launches[i];
    const std::string who = launch_label(i, l.kernel);
    ResolvedLaunch r;
    r.kernel = l.kernel;
    r.index = static_cast<int>(i);
    r.line = l.line;

    auto dims = [&](const std::vector<Expr>& in, int64_t* dst, const char* field) {
      Where w{l.line, who, field};
      for (size_t d = 0; d < in.size() && d < 3; ++d) {
        std::string what = in.size() > 1 ? "entry " + std::to_string(d + 1) : "";
        int64_t v = eval(in[d], w, what);
        if (v < 1 || v > kMaxDim)
          w.fail((what.empty() ? "" : what + ": ") + "'" + in[d].text() + "' is " + std::to_string(v) +
                 name_values(in[d], env) + "; each " + field + " size must be between 1 and " +
                 std::to_string(kMaxDim));
        dst[d] = v;
      }
    };
    dims(l.grid, r.grid, "grid");
    dims(l.block, r.block, "block");
    if (!l.cluster.empty()) {
      r.cluster[0] = r.cluster[1] = r.cluster[2] = 1;
      dims(l.cluster, r.cluster, "cluster");
    }
    if (l.smem) {
      Where w{l.line, who, "smem"};
      r.smem = eval(*l.smem, w, "");
      if (r.smem < 0 || r.smem > kMaxDim)
        w.fail("'" + l.smem->text() + "' is " + std::to_string(r.smem) + name_values(*l.smem, env) +
               "; dynamic shared memory must be between 0 and " + std::to_string(kMaxDim) + " bytes");
    }

    for (size_t j = 0; j < l.args.size(); ++j) {
      const PlanArg& a = l.args[j];
      Where w{a.line ? a.line : l.line, who, "args"};
      const std::string what = "argument " + std::to_string(j + 1) + " '" + a.text + "'";
      ResolvedArg ra;
      ra.kind = a.kind;
      switch (a.kind) {
        case PlanArg::Kind::tensor: {
          const TensorBinding& t = find_tensor(a.tensor, w, what);
          ra.buffer = t.buffer;
          ra.dtype = t.dtype;
          ra.shape = t.shape;
          break;
        }
        case PlanArg::Kind::scalar: {
          ra.scalar_type = a.scalar_type;
          if (a.scalar_type == ScalarType::f32 || a.scalar_type == ScalarType::f64) {
            try {
              ra.fval = a.value.eval_real(env);
            } catch (const ExprError& x) {
              w.fail(what + ": " + x.what());
            }
            if (a.scalar_type == ScalarType::f32 && std::isfinite(ra.fval) && std::fabs(ra.fval) > FLT_MAX)
              w.fail(what + ": " + std::to_string(ra.fval) + name_values(a.value, env) +
                     " does not fit in f32; use f64(...)");
            break;
          }
          ra.ival = eval(a.value, w, what);
          if (a.scalar_type == ScalarType::i32 &&
              (ra.ival < std::numeric_limits<int32_t>::min() || ra.ival > std::numeric_limits<int32_t>::max()))
            w.fail(what + ": the value " + std::to_string(ra.ival) + name_values(a.value, env) +
                   " does not fit in i32 (-2147483648 to 2147483647); use i64(...) and a 64-bit kernel parameter");
          if (a.scalar_type == ScalarType::u32 &&
              (ra.ival < 0 || ra.ival > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())))
            w.fail(what + ": the value " + std::to_string(ra.ival) + name_values(a.value, env) +
                   " does not fit in u32 (0 to 4294967295); use i64(...) and a 64-bit kernel parameter");
          break;
        }
        case PlanArg::Kind::tma: {
          const TensorBinding& t = find_tensor(a.tma.tensor, w, what);
          ra.buffer = t.buffer;
          ra.dtype = t.dtype;
          ra.shape = t.shape;
          ra.swizzle = a.tma.swizzle;
          if (a.tma.box.size() != t.shape.size())
            w.fail(what + ": box has " + std::to_string(a.tma.box.size()) + " entries but tensor '" + t.name +
                   "' has " + std::to_string(t.shape.size()) + " dimensions; give one box extent per dimension");
          for (size_t d = 0; d < a.tma.box.size(); ++d) {
            int64_t v = eval(a.tma.box[d], w, what + ", box entry " + std::to_string(d + 1));
            if (v < 1)
              w.fail(what + ": box entry " + std::to_string(d + 1) + " '" + a.tma.box[d].text() + "' is " +
                     std::to_string(v) + name_values(a.tma.box[d], env) + "; box extents must be at least 1");
            ra.box.push_back(v);
          }
          break;
        }
      }
      r.args.push_back(std::move(ra));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace crucible
