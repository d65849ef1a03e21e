// The expression language of launch plans and task files: integers, named
// parameters (N, M, K, ...), device facts (sm_count, warp_size, ...), + - * / %,
// parentheses, ceil_div, min, max, round_up. Integer arithmetic is 64-bit and
// exact: overflow and division by zero are errors, not wrap-around.
// In a real context (the inside of f32(...)/f64(...), task float constants) the
// same grammar also takes decimal literals (1e-5, 0.5) and real-valued names (eps).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace crucible {

class ExprError : public std::runtime_error {
 public:
  explicit ExprError(const std::string& what) : std::runtime_error(what) {}
};

struct ExprEnv {
  std::map<std::string, int64_t> ints;   // params and device facts
  std::map<std::string, double> reals;   // float constants of a task (eps, alpha)
};

struct ExprNode;  // defined in expr.cpp

class Expr {
 public:
  Expr();  // the constant 0
  // Throws ExprError naming the column and what was expected.
  static Expr parse(const std::string& text);
  static Expr constant(int64_t v);

  // Integer evaluation; unknown names, real literals, overflow and division by zero throw ExprError.
  int64_t eval(const ExprEnv& env) const;
  // Real evaluation ('/' is real division); integer names are converted.
  double eval_real(const ExprEnv& env) const;

  // Every name the expression refers to (functions excluded), sorted, unique.
  std::vector<std::string> names() const;
  const std::string& text() const { return text_; }

 private:
  std::shared_ptr<const ExprNode> root_;
  std::string text_;
};

}  // namespace crucible
