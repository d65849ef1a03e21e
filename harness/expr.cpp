// The expression language of launch plans and task files: a recursive-descent
// parser to a small AST, an exact (checked) 64-bit integer evaluator and a double
// evaluator. Integer '/' and '%' follow C: '/' truncates toward zero, '%' takes the
// sign of the dividend. Messages quote the expression and name the column so that a
// model can fix its plan from the message alone.
#include "harness/expr.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace crucible {

struct ExprNode {
  enum class Kind : uint8_t { integer, real, name, neg, binary, call } kind = Kind::integer;
  int64_t ival = 0;
  double rval = 0;
  std::string name;    // name: the variable; call: the function; real: the literal as written
  char op = 0;         // binary: + - * / %
  int column = 1;      // 1-based column of the node's first character (operator for binary)
  std::vector<std::shared_ptr<const ExprNode>> kids;
};

namespace {

using NodeP = std::shared_ptr<const ExprNode>;

struct FunctionInfo {
  const char* name;
  int min_args;
  int max_args;  // -1: unbounded
};
constexpr FunctionInfo kFunctions[] = {
    {"ceil_div", 2, 2}, {"min", 2, -1}, {"max", 2, -1}, {"round_up", 2, 2}};

const FunctionInfo* find_function(const std::string& n) {
  for (const auto& f : kFunctions)
    if (n == f.name) return &f;
  return nullptr;
}

std::string function_list() {
  std::string s;
  for (const auto& f : kFunctions) {
    if (!s.empty()) s += ", ";
    s += f.name;
  }
  return s;
}

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  explicit Parser(const std::string& text) : t_(text) {}

  NodeP parse_all() {
    skip_space();
    NodeP n = parse_sum();
    skip_space();
    if (pos_ < t_.size()) {
      if (t_[pos_] == ')') fail("unmatched ')'");
      fail("expected an operator (+ - * / %) or the end of the expression");
    }
    return n;
  }

 private:
  const std::string& t_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& expected) const {
    std::string msg = "at column " + std::to_string(pos_ + 1) + " of '" + t_ + "': " + expected;
    if (pos_ < t_.size()) msg += ", got '" + token_at(pos_) + "'";
    throw ExprError(msg);
  }

  // The token starting at p, for "got '...'" in messages.
  std::string token_at(size_t p) const {
    size_t e = p;
    if (is_name_char(t_[p]) || t_[p] == '.') {
      while (e < t_.size() && (is_name_char(t_[e]) || t_[e] == '.')) ++e;
    } else {
      e = p + 1;
    }
    return t_.substr(p, e - p);
  }

  void skip_space() {
    while (pos_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[pos_]))) ++pos_;
  }

  bool accept(char c) {
    skip_space();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  static NodeP binary(char op, int column, NodeP a, NodeP b) {
    auto n = std::make_shared<ExprNode>();
    n->kind = ExprNode::Kind::binary;
    n->op = op;
    n->column = column;
    n->kids = {std::move(a), std::move(b)};
    return n;
  }

  // sum := product (('+' | '-') product)*
  NodeP parse_sum() {
    NodeP lhs = parse_product();
    for (;;) {
      skip_space();
      if (pos_ >= t_.size() || (t_[pos_] != '+' && t_[pos_] != '-')) return lhs;
      char op = t_[pos_];
      int col = static_cast<int>(pos_) + 1;
      ++pos_;
      lhs = binary(op, col, lhs, parse_product());
    }
  }

  // product := unary (('*' | '/' | '%') unary)*
  NodeP parse_product() {
    NodeP lhs = parse_unary();
    for (;;) {
      skip_space();
      if (pos_ >= t_.size() || (t_[pos_] != '*' && t_[pos_] != '/' && t_[pos_] != '%')) return lhs;
      char op = t_[pos_];
      int col = static_cast<int>(pos_) + 1;
      ++pos_;
      lhs = binary(op, col, lhs, parse_unary());
    }
  }

  // unary := ('-' | '+') unary | primary
  NodeP parse_unary() {
    skip_space();
    if (pos_ < t_.size() && (t_[pos_] == '-' || t_[pos_] == '+')) {
      char op = t_[pos_];
      int col = static_cast<int>(pos_) + 1;
      ++pos_;
      NodeP operand = parse_unary();
      if (op == '+') return operand;
      auto n = std::make_shared<ExprNode>();
      n->kind = ExprNode::Kind::neg;
      n->column = col;
      n->kids = {operand};
      return n;
    }
    return parse_primary();
  }

  // primary := number | name | name '(' sum (',' sum)* ')' | '(' sum ')'
  NodeP parse_primary() {
    skip_space();
    if (pos_ >= t_.size()) fail("expected a number, a name or '('");
    char c = t_[pos_];
    int col = static_cast<int>(pos_) + 1;
    if (c == '(') {
      ++pos_;
      NodeP inner = parse_sum();
      if (!accept(')')) fail("expected ')'");
      return inner;
    }
    if (is_digit(c) || (c == '.' && pos_ + 1 < t_.size() && is_digit(t_[pos_ + 1]))) return parse_number();
    if (is_name_start(c)) {
      size_t b = pos_;
      while (pos_ < t_.size() && is_name_char(t_[pos_])) ++pos_;
      std::string name = t_.substr(b, pos_ - b);
      size_t after = pos_;
      skip_space();
      if (pos_ < t_.size() && t_[pos_] == '(') {
        const FunctionInfo* f = find_function(name);
        if (!f) {
          pos_ = b;
          fail("unknown function '" + name + "'; the functions are " + function_list());
        }
        ++pos_;
        auto n = std::make_shared<ExprNode>();
        n->kind = ExprNode::Kind::call;
        n->name = name;
        n->column = col;
        skip_space();
        if (pos_ < t_.size() && t_[pos_] == ')') {
          fail("expected an argument of " + name);
        }
        for (;;) {
          n->kids.push_back(parse_sum());
          if (accept(',')) continue;
          if (accept(')')) break;
          fail("expected ',' or ')' in the arguments of " + name);
        }
        int k = static_cast<int>(n->kids.size());
        if (k < f->min_args || (f->max_args >= 0 && k > f->max_args)) {
          pos_ = static_cast<size_t>(col - 1);
          std::string want = f->max_args < 0 ? std::to_string(f->min_args) + " or more arguments"
                                             : std::to_string(f->min_args) + " arguments";
          throw ExprError("at column " + std::to_string(col) + " of '" + t_ + "': " + name + " takes " + want +
                          ", got " + std::to_string(k));
        }
        return n;
      }
      pos_ = after;
      auto n = std::make_shared<ExprNode>();
      n->kind = ExprNode::Kind::name;
      n->name = name;
      n->column = col;
      return n;
    }
    fail("expected a number, a name or '('");
  }

  NodeP parse_number() {
    size_t b = pos_;
    bool real = false;
    while (pos_ < t_.size() && is_digit(t_[pos_])) ++pos_;
    if (pos_ < t_.size() && t_[pos_] == '.') {
      real = true;
      ++pos_;
      while (pos_ < t_.size() && is_digit(t_[pos_])) ++pos_;
    }
    if (pos_ < t_.size() && (t_[pos_] == 'e' || t_[pos_] == 'E')) {
      size_t e = pos_ + 1;
      if (e < t_.size() && (t_[e] == '+' || t_[e] == '-')) ++e;
      if (e < t_.size() && is_digit(t_[e])) {
        real = true;
        pos_ = e;
        while (pos_ < t_.size() && is_digit(t_[pos_])) ++pos_;
      } else {
        pos_ = e;
        fail("expected the digits of an exponent");
      }
    }
    if (pos_ < t_.size() && is_name_char(t_[pos_])) fail("expected an operator after the number");
    std::string lit = t_.substr(b, pos_ - b);
    auto n = std::make_shared<ExprNode>();
    n->column = static_cast<int>(b) + 1;
    n->name = lit;
    if (real) {
      n->kind = ExprNode::Kind::real;
      n->rval = std::strtod(lit.c_str(), nullptr);
      return n;
    }
    n->kind = ExprNode::Kind::integer;
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(lit.c_str(), &end, 10);
    if (errno == ERANGE) {
      pos_ = b;
      fail("integer literal out of the 64-bit range");
    }
    n->ival = static_cast<int64_t>(v);
    return n;
  }
};

std::string join_names(const std::vector<std::string>& names) {
  if (names.empty()) return "(none)";
  std::string s;
  for (const auto& n : names) {
    if (!s.empty()) s += ", ";
    s += n;
  }
  return s;
}

template <class M>
std::vector<std::string> keys_of(const M& m) {
  std::vector<std::string> k;
  for (const auto& [name, v] : m) k.push_back(name);
  return k;
}

class IntEval {
 public:
  IntEval(const std::string& text, const ExprEnv& env) : text_(text), env_(env) {}

  int64_t eval(const ExprNode& n) const {
    switch (n.kind) {
      case ExprNode::Kind::integer: return n.ival;
      case ExprNode::Kind::real:
        throw ExprError(where(n) + "the real number " + n.name +
                        " is not allowed in an integer expression (only inside f32(...) or f64(...))");
      case ExprNode::Kind::name: {
        auto it = env_.ints.find(n.name);
        if (it != env_.ints.end()) return it->second;
        if (env_.reals.count(n.name))
          throw ExprError(where(n) + "'" + n.name +
                          "' is a real constant and may only be used inside f32(...) or f64(...); integer names: " +
                          join_names(keys_of(env_.ints)));
        throw ExprError(where(n) + "unknown name '" + n.name + "'; known names: " + join_names(keys_of(env_.ints)));
      }
      case ExprNode::Kind::neg: {
        int64_t a = eval(*n.kids[0]), r = 0;
        if (__builtin_sub_overflow(int64_t{0}, a, &r)) overflow(n, "-(" + std::to_string(a) + ")");
        return r;
      }
      case ExprNode::Kind::binary: return binary(n, eval(*n.kids[0]), eval(*n.kids[1]));
      case ExprNode::Kind::call: return call(n);
    }
    return 0;
  }

 private:
  const std::string& text_;
  const ExprEnv& env_;

  std::string where(const ExprNode& n) const {
    return "at column " + std::to_string(n.column) + " of '" + text_ + "': ";
  }

  [[noreturn]] void overflow(const ExprNode& n, const std::string& what) const {
    throw ExprError(where(n) + "64-bit integer overflow in " + what);
  }

  int64_t checked_div(const ExprNode& n, int64_t a, int64_t b, const char* what) const {
    if (b == 0) throw ExprError(where(n) + "division by zero in " + what);
    if (a == INT64_MIN && b == -1) overflow(n, what);
    return a / b;
  }

  int64_t binary(const ExprNode& n, int64_t a, int64_t b) const {
    std::string shown = std::to_string(a) + " " + n.op + " " + std::to_string(b);
    int64_t r = 0;
    switch (n.op) {
      case '+':
        if (__builtin_add_overflow(a, b, &r)) overflow(n, shown);
        return r;
      case '-':
        if (__builtin_sub_overflow(a, b, &r)) overflow(n, shown);
        return r;
      case '*':
        if (__builtin_mul_overflow(a, b, &r)) overflow(n, shown);
        return r;
      case '/': return checked_div(n, a, b, shown.c_str());
      case '%':
        if (b == 0) throw ExprError(where(n) + "modulo by zero in " + shown);
        if (b == -1) return 0;  // INT64_MIN % -1 traps in C; the answer is 0
        return a % b;
    }
    return 0;
  }

  int64_t ceil_div(const ExprNode& n, int64_t a, int64_t b) const {
    std::string shown = "ceil_div(" + std::to_string(a) + ", " + std::to_string(b) + ")";
    int64_t q = checked_div(n, a, b, shown.c_str());
    if (a % b != 0 && ((a < 0) == (b < 0))) ++q;  // round the true quotient up
    return q;
  }

  int64_t call(const ExprNode& n) const {
    std::vector<int64_t> v;
    for (const auto& k : n.kids) v.push_back(eval(*k));
    if (n.name == "min") return *std::min_element(v.begin(), v.end());
    if (n.name == "max") return *std::max_element(v.begin(), v.end());
    if (n.name == "ceil_div") return ceil_div(n, v[0], v[1]);
    if (n.name == "round_up") {
      int64_t q = ceil_div(n, v[0], v[1]), r = 0;
      if (__builtin_mul_overflow(q, v[1], &r))
        overflow(n, "round_up(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ")");
      return r;
    }
    throw ExprError(where(n) + "unknown function '" + n.name + "'");
  }
};

class RealEval {
 public:
  RealEval(const std::string& text, const ExprEnv& env) : text_(text), env_(env) {}

  double eval(const ExprNode& n) const {
    switch (n.kind) {
      case ExprNode::Kind::integer: return static_cast<double>(n.ival);
      case ExprNode::Kind::real: return n.rval;
      case ExprNode::Kind::name: {
        auto r = env_.reals.find(n.name);
        if (r != env_.reals.end()) return r->second;
        auto i = env_.ints.find(n.name);
        if (i != env_.ints.end()) return static_cast<double>(i->second);
        std::vector<std::string> known = keys_of(env_.reals);
        for (const auto& k : keys_of(env_.ints)) known.push_back(k);
        std::sort(known.begin(), known.end());
        throw ExprError(where(n) + "unknown name '" + n.name + "'; known names: " + join_names(known));
      }
      case ExprNode::Kind::neg: return -eval(*n.kids[0]);
      case ExprNode::Kind::binary: {
        double a = eval(*n.kids[0]), b = eval(*n.kids[1]);
        switch (n.op) {
          case '+': return a + b;
          case '-': return a - b;
          case '*': return a * b;
          case '/':
            if (b == 0) throw ExprError(where(n) + "division by zero");
            return a / b;
          case '%':
            if (b == 0) throw ExprError(where(n) + "modulo by zero");
            return std::fmod(a, b);
        }
        return 0;
      }
      case ExprNode::Kind::call: {
        std::vector<double> v;
        for (const auto& k : n.kids) v.push_back(eval(*k));
        if (n.name == "min") return *std::min_element(v.begin(), v.end());
        if (n.name == "max") return *std::max_element(v.begin(), v.end());
        if (v[1] == 0) throw ExprError(where(n) + "division by zero in " + n.name);
        double q = std::ceil(v[0] / v[1]);
        return n.name == "round_up" ? q * v[1] : q;
      }
    }
    return 0;
  }

 private:
  const std::string& text_;
  const ExprEnv& env_;
  std::string where(const ExprNode& n) const {
    return "at column " + std::to_string(n.column) + " of '" + text_ + "': ";
  }
};

void collect_names(const ExprNode& n, std::set<std::string>& out) {
  if (n.kind == ExprNode::Kind::name) out.insert(n.name);
  for (const auto& k : n.kids) collect_names(*k, out);
}

NodeP make_constant(int64_t v) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::integer;
  n->ival = v;
  return n;
}

}  // namespace

Expr::Expr() : root_(make_constant(0)), text_("0") {}

Expr Expr::parse(const std::string& text) {
  Expr e;
  e.root_ = Parser(text).parse_all();
  e.text_ = text;
  return e;
}

Expr Expr::constant(int64_t v) {
  Expr e;
  e.root_ = make_constant(v);
  e.text_ = std::to_string(v);
  return e;
}

int64_t Expr::eval(const ExprEnv& env) const { return IntEval(text_, env).eval(*root_); }

double Expr::eval_real(const ExprEnv& env) const { return RealEval(text_, env).eval(*root_); }

std::vector<std::string> Expr::names() const {
  std::set<std::string> s;
  collect_names(*root_, s);
  return {s.begin(), s.end()};
}

}  // namespace crucible
