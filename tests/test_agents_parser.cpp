// Tests candidate extraction from model answers: the last complete fenced block of an
// accepted language wins, a separate ```yaml plan is appended as /*@launch ... @*/ only
// when the code has none, unlabeled blocks count when they hold extern "C", the CPU
// family takes C++ only, and every failure carries a message a model can act on.
#include <gtest/gtest.h>

#include "agents/response_parser.h"

using namespace crucible;

namespace {
const std::string kCode = "extern \"C\" __global__ void k(float* y) { y[0] = 1; }\n";
const std::string kPlan = "/*@launch\nlaunches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args: [y]\n@*/\n";
}  // namespace

TEST(ResponseParser, TakesTheCodeBlockWithItsOwnPlan) {
  const std::string answer = "Here is my kernel.\n\n```cuda\n" + kCode + kPlan + "```\n\nIt is fast.";
  const auto c = extract_candidate(answer, "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}

TEST(ResponseParser, TakesTheLastCompleteBlock) {
  const std::string answer = "First try:\n```cuda\n// old\n" + kPlan + "```\nBetter:\n```cu\n" + kCode + kPlan +
                             "```\nUsage in Python:\n```python\nprint(1)\n```\n";
  const auto c = extract_candidate(answer, "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}

TEST(ResponseParser, AnUnclosedLastBlockIsIgnoredForTheEarlierCompleteOne) {
  const std::string answer = "```cuda\n" + kCode + kPlan + "```\nNow a faster one:\n```cuda\nextern \"C\" __global__ void k2(";
  const auto c = extract_candidate(answer, "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}

TEST(ResponseParser, OnlyAnUnclosedBlockSaysSo) {
  const auto c = extract_candidate("```cuda\nextern \"C\" __global__ void k(", "gpu");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("not closed"), std::string::npos) << c.error;
}

TEST(ResponseParser, AppendsASeparateYamlPlan) {
  const std::string answer = "```cpp\n" + kCode + "```\n\nLaunch plan:\n\n```yaml\nlaunches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args: [y]\n```\n";
  const auto c = extract_candidate(answer, "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}

TEST(ResponseParser, YamlBeforeTheCodeWorksAndYamlWithoutLaunchesIsNotAPlan) {
  const std::string answer = "```yml\nlaunches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args: [y]\n```\n```yaml\nfoo: 1\n```\n```c++\n" + kCode + "```";
  const auto c = extract_candidate(answer, "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}

TEST(ResponseParser, TheCodesOwnPlanWinsOverAYamlBlock) {
  const std::string answer = "```cuda\n" + kCode + kPlan + "```\n```yaml\nlaunches: []\n```\n";
  const auto c = extract_candidate(answer, "gpu");
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.source, kCode + kPlan);
  EXPECT_EQ(c.source.find("launches: []"), std::string::npos);
}

TEST(ResponseParser, UnlabeledBlockCountsOnlyWithExternC) {
  auto c = extract_candidate("```\n" + kCode + kPlan + "```", "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  c = extract_candidate("```\nint main() {}\n```", "gpu");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("accepted language"), std::string::npos) << c.error;
}

TEST(ResponseParser, InfoStringVariants) {
  for (const std::string info : {"cuda", "CUDA", "cu", "hip", "cpp", "c++", "c", "cuda title=\"k.cu\"", "{.cpp}"}) {
    const auto c = extract_candidate("```" + info + "\n" + kCode + kPlan + "```", "gpu");
    EXPECT_TRUE(c.ok) << info << ": " << c.error;
  }
  EXPECT_FALSE(extract_candidate("```python\n" + kCode + kPlan + "```", "gpu").ok);
}

TEST(ResponseParser, TildeFencesLongerFencesAndCrlf) {
  auto c = extract_candidate("~~~cuda\n" + kCode + kPlan + "~~~\n", "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
  // A four-backtick fence holds a line with three backticks.
  c = extract_candidate("````cuda\n" + kCode + "// ``` not the end\n" + kPlan + "````\n", "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_NE(c.source.find("// ``` not the end"), std::string::npos);
  std::string crlf = "```cuda\r\n" + kCode + kPlan + "```\r\n";
  c = extract_candidate(crlf, "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}

TEST(ResponseParser, CpuFamilyTakesCppAndRejectsCuda) {
  const std::string cpu_code = "extern \"C\" void k(float* y) { y[0] = 1; }\n";
  const std::string cpu_plan = "/*@launch\nlaunches:\n  - kernel: k\n    args: [y]\n@*/\n";
  auto c = extract_candidate("```cpp\n" + cpu_code + cpu_plan + "```", "cpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, cpu_code + cpu_plan);
  c = extract_candidate("```cuda\n" + kCode + kPlan + "```", "cpu");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("CPU backend"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("```cpp"), std::string::npos) << c.error;
}

TEST(ResponseParser, NoBlockAtAll) {
  const auto c = extract_candidate("I cannot help with that.", "gpu");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.error,
            "no fenced code block found; answer with one ```cuda block containing the kernels and the /*@launch ... @*/ plan");
}

TEST(ResponseParser, CodeWithoutAnyPlan) {
  const auto c = extract_candidate("```cuda\n" + kCode + "```", "gpu");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("/*@launch"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("launches:"), std::string::npos) << c.error;
}

TEST(ResponseParser, YamlPlanThatWouldCloseTheCommentIsRefused) {
  const auto c = extract_candidate("```cuda\n" + kCode + "```\n```yaml\nlaunches: [] # @*/\n```", "gpu");
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("@*/"), std::string::npos);
}

TEST(ResponseParser, InlineTriplebackticksAreNotFences) {
  const auto c = extract_candidate("Use ```cuda``` blocks.\n```cuda\n" + kCode + kPlan + "```", "gpu");
  ASSERT_TRUE(c.ok) << c.error;
  EXPECT_EQ(c.source, kCode + kPlan);
}
