// Tests the expression language (harness/expr.h): parsing, precedence, functions,
// checked 64-bit arithmetic, C-like '/' and '%', real evaluation, names, and the
// content of error messages (column, expected token, known names).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "harness/expr.h"

using namespace crucible;

namespace {

ExprEnv env_n(int64_t n) {
  ExprEnv env;
  env.ints["N"] = n;
  env.ints["sm_count"] = 132;
  return env;
}

int64_t ev(const std::string& text, const ExprEnv& env = {}) { return Expr::parse(text).eval(env); }

// The message of the ExprError that `f` throws; fails the test if none is thrown.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const ExprError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected ExprError";
  return "";
}

std::string parse_error(const std::string& text) {
  return error_of([&] { Expr::parse(text); });
}

std::string eval_error(const std::string& text, const ExprEnv& env = {}) {
  return error_of([&] { Expr::parse(text).eval(env); });
}

}  // namespace

TEST(Expr, DefaultIsZero) {
  Expr e;
  EXPECT_EQ(e.eval({}), 0);
  EXPECT_EQ(e.text(), "0");
  EXPECT_TRUE(e.names().empty());
}

TEST(Expr, Constant) {
  Expr e = Expr::constant(-42);
  EXPECT_EQ(e.eval({}), -42);
  EXPECT_EQ(e.text(), "-42");
}

TEST(Expr, Literals) {
  EXPECT_EQ(ev("7"), 7);
  EXPECT_EQ(ev("  1610612736  "), 1610612736);
  EXPECT_EQ(ev("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Expr::parse("N").text(), "N");
}

TEST(Expr, Precedence) {
  EXPECT_EQ(ev("2 + 3 * 4"), 14);
  EXPECT_EQ(ev("(2 + 3) * 4"), 20);
  EXPECT_EQ(ev("10 - 4 - 3"), 3);  // left associative
  EXPECT_EQ(ev("100 / 10 / 5"), 2);
  EXPECT_EQ(ev("2 * 7 % 4"), 2);   // (2*7)%4
  EXPECT_EQ(ev("1 + 7 % 4 * 2"), 7);
  EXPECT_EQ(ev("-2 * 3"), -6);
  EXPECT_EQ(ev("- -5"), 5);
  EXPECT_EQ(ev("-(2 + 3) * 2"), -10);
  EXPECT_EQ(ev("+4"), 4);
  EXPECT_EQ(ev("N / 4 * 4", env_n(1000003)), 1000000);
}

TEST(Expr, DivisionTruncatesTowardZeroLikeC) {
  EXPECT_EQ(ev("7 / 2"), 3);
  EXPECT_EQ(ev("-7 / 2"), -3);
  EXPECT_EQ(ev("7 / -2"), -3);
  EXPECT_EQ(ev("-7 % 3"), -1);
  EXPECT_EQ(ev("7 % -3"), 1);
  EXPECT_EQ(ev("(-9223372036854775807 - 1) % -1"), 0);  // traps in C; 0 here
}

TEST(Expr, Functions) {
  EXPECT_EQ(ev("ceil_div(10, 3)"), 4);
  EXPECT_EQ(ev("ceil_div(9, 3)"), 3);
  EXPECT_EQ(ev("ceil_div(0, 3)"), 0);
  EXPECT_EQ(ev("ceil_div(-7, 2)"), -3);  // the mathematical ceiling of -3.5
  EXPECT_EQ(ev("ceil_div(7, -2)"), -3);
  EXPECT_EQ(ev("ceil_div(-7, -2)"), 4);
  EXPECT_EQ(ev("round_up(10, 4)"), 12);
  EXPECT_EQ(ev("round_up(12, 4)"), 12);
  EXPECT_EQ(ev("min(5, 3)"), 3);
  EXPECT_EQ(ev("min(5, 3, 9, -1)"), -1);
  EXPECT_EQ(ev("max(5, 3)"), 5);
  EXPECT_EQ(ev("max(1, 2, 3, 2)"), 3);
  EXPECT_EQ(ev("min(ceil_div(N / 4, 256), sm_count * 8)", env_n(1610612736)), 1056);
  EXPECT_EQ(ev("min(ceil_div(N / 4, 256), sm_count * 8)", env_n(1000)), 1);
  EXPECT_EQ(ev("max ( 1 , 2 )"), 2);  // spaces before '(' are allowed
}

TEST(Expr, FunctionArity) {
  EXPECT_NE(parse_error("ceil_div(1)").find("ceil_div takes 2 arguments, got 1"), std::string::npos);
  EXPECT_NE(parse_error("round_up(1, 2, 3)").find("round_up takes 2 arguments, got 3"), std::string::npos);
  EXPECT_NE(parse_error("min(1)").find("min takes 2 or more arguments"), std::string::npos);
  EXPECT_NE(parse_error("max()").find("expected an argument of max"), std::string::npos);
}

TEST(Expr, UnknownFunction) {
  std::string m = parse_error("floor(N, 2)");
  EXPECT_NE(m.find("unknown function 'floor'"), std::string::npos) << m;
  EXPECT_NE(m.find("ceil_div, min, max, round_up"), std::string::npos) << m;
  EXPECT_NE(m.find("column 1"), std::string::npos) << m;
}

TEST(Expr, ParseErrorsNameColumnAndExpectation) {
  EXPECT_EQ(parse_error("N / (4"), "at column 7 of 'N / (4': expected ')'");
  std::string m = parse_error("N +");
  EXPECT_NE(m.find("at column 4 of 'N +'"), std::string::npos) << m;
  EXPECT_NE(m.find("expected a number, a name or '('"), std::string::npos) << m;
  m = parse_error("N N");
  EXPECT_NE(m.find("at column 3"), std::string::npos) << m;
  EXPECT_NE(m.find("got 'N'"), std::string::npos) << m;
  m = parse_error("");
  EXPECT_NE(m.find("at column 1 of ''"), std::string::npos) << m;
  m = parse_error("(N))");
  EXPECT_NE(m.find("unmatched ')'"), std::string::npos) << m;
  EXPECT_NE(m.find("column 4"), std::string::npos) << m;
  m = parse_error("min(1 2)");
  EXPECT_NE(m.find("expected ',' or ')'"), std::string::npos) << m;
  m = parse_error("N & 3");
  EXPECT_NE(m.find("column 3"), std::string::npos) << m;
  EXPECT_NE(m.find("got '&'"), std::string::npos) << m;
  m = parse_error("2N");
  EXPECT_NE(m.find("column 2"), std::string::npos) << m;
  m = parse_error("1e");
  EXPECT_NE(m.find("exponent"), std::string::npos) << m;
  m = parse_error("99999999999999999999");
  EXPECT_NE(m.find("64-bit range"), std::string::npos) << m;
}

TEST(Expr, OverflowIsAnError) {
  ExprEnv env = env_n(std::numeric_limits<int64_t>::max());
  EXPECT_NE(eval_error("N + 1", env).find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("N * 2", env).find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("-N - 2", env).find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("3037000500 * 3037000500").find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("-(-9223372036854775807 - 1)").find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("(-9223372036854775807 - 1) / -1").find("overflow"), std::string::npos);
  EXPECT_NE(eval_error("round_up(N, 2)", env).find("overflow"), std::string::npos);
  // Just below the limit is fine.
  EXPECT_EQ(ev("N - 1 + 1", env), std::numeric_limits<int64_t>::max());
  std::string m = eval_error("N * 2", env);
  EXPECT_NE(m.find("column 3 of 'N * 2'"), std::string::npos) << m;
}

TEST(Expr, DivisionByZeroIsAnError) {
  ExprEnv env = env_n(0);
  EXPECT_NE(eval_error("10 / N", env).find("division by zero"), std::string::npos);
  EXPECT_NE(eval_error("10 % N", env).find("modulo by zero"), std::string::npos);
  EXPECT_NE(eval_error("ceil_div(10, N)", env).find("division by zero"), std::string::npos);
  EXPECT_NE(eval_error("round_up(10, N)", env).find("division by zero"), std::string::npos);
  EXPECT_NE(error_of([&] { Expr::parse("1 / N").eval_real(env); }).find("division by zero"), std::string::npos);
}

TEST(Expr, UnknownNameListsKnownNames) {
  std::string m = eval_error("M * 2", env_n(4));
  EXPECT_NE(m.find("unknown name 'M'"), std::string::npos) << m;
  EXPECT_NE(m.find("known names: N, sm_count"), std::string::npos) << m;
  EXPECT_NE(m.find("column 1 of 'M * 2'"), std::string::npos) << m;
}

TEST(Expr, RealsRejectedInIntegerContext) {
  std::string m = eval_error("N * 0.5", env_n(4));
  EXPECT_NE(m.find("real number 0.5"), std::string::npos) << m;
  EXPECT_NE(m.find("column 5"), std::string::npos) << m;
  ExprEnv env = env_n(4);
  env.reals["eps"] = 1e-5;
  m = eval_error("N + eps", env);
  EXPECT_NE(m.find("'eps' is a real constant"), std::string::npos) << m;
}

TEST(Expr, RealEvaluation) {
  ExprEnv env = env_n(8);
  env.reals["eps"] = 1e-5;
  env.reals["alpha"] = 0.25;
  EXPECT_DOUBLE_EQ(Expr::parse("1e-5").eval_real(env), 1e-5);
  EXPECT_DOUBLE_EQ(Expr::parse("0.5 * N").eval_real(env), 4.0);
  EXPECT_DOUBLE_EQ(Expr::parse("1 / N").eval_real(env), 0.125);  // real division
  EXPECT_DOUBLE_EQ(Expr::parse("eps * 2").eval_real(env), 2e-5);
  EXPECT_DOUBLE_EQ(Expr::parse("-alpha").eval_real(env), -0.25);
  EXPECT_DOUBLE_EQ(Expr::parse("max(alpha, 0.5, 0.1)").eval_real(env), 0.5);
  EXPECT_DOUBLE_EQ(Expr::parse("min(alpha, 0.5)").eval_real(env), 0.25);
  EXPECT_DOUBLE_EQ(Expr::parse("ceil_div(7, 2)").eval_real(env), 4.0);
  EXPECT_DOUBLE_EQ(Expr::parse("round_up(7, 4)").eval_real(env), 8.0);
  EXPECT_DOUBLE_EQ(Expr::parse("2.5E2").eval_real(env), 250.0);
  EXPECT_DOUBLE_EQ(Expr::parse(".5").eval_real(env), 0.5);
  std::string m = error_of([&] { Expr::parse("beta").eval_real(env); });
  EXPECT_NE(m.find("unknown name 'beta'"), std::string::npos) << m;
  EXPECT_NE(m.find("alpha"), std::string::npos) << m;
  EXPECT_NE(m.find("eps"), std::string::npos) << m;
}

TEST(Expr, NamesAreSortedUniqueWithoutFunctions) {
  Expr e = Expr::parse("min(ceil_div(N / 4, 256), sm_count * 8) + N * K");
  std::vector<std::string> want = {"K", "N", "sm_count"};
  EXPECT_EQ(e.names(), want);
  EXPECT_TRUE(Expr::parse("ceil_div(3, 2)").names().empty());
}

TEST(Expr, CopiesShareTheTree) {
  Expr a = Expr::parse("N + 1");
  Expr b = a;
  EXPECT_EQ(b.eval(env_n(1)), 2);
  EXPECT_EQ(b.text(), "N + 1");
}
