// Tests harness/results_store: records are appended one per line and read back on
// reopen (resume), a torn last line is dropped and cut off, candidates are stored by
// content hash, files are written atomically.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/results_store.h"

using namespace crucible;
namespace fs = std::filesystem;

static fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("crucible_test_store_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(d);
  return d;
}

static std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  return std::string((std::istreambuf_iterator<char>(f)), {});
}

TEST(ResultsStore, AppendsAndResumes) {
  auto d = fresh_dir("resume");
  {
    ResultsStore s(d);
    EXPECT_TRUE(s.existing().empty());
    s.append({{"key", "a"}, {"verdict", "pass"}});
    s.append({{"key", "b"}, {"verdict", "wrong_output"}});
    EXPECT_TRUE(s.has("a"));
  }
  ResultsStore s(d);
  ASSERT_EQ(s.existing().size(), 2u);
  EXPECT_EQ(s.existing()[1]["verdict"], "wrong_output");
  EXPECT_TRUE(s.has("a"));
  EXPECT_TRUE(s.has("b"));
  EXPECT_FALSE(s.has("c"));
  EXPECT_EQ(s.torn_lines_dropped(), 0);
}

TEST(ResultsStore, TornLastLineIsDroppedAndCutOff) {
  auto d = fresh_dir("torn");
  {
    ResultsStore s(d);
    s.append({{"key", "a"}});
    s.append({{"key", "b"}});
  }
  // A kill in the middle of a write leaves a partial line without a newline.
  {
    std::ofstream f(d / "records.jsonl", std::ios::app);
    f << "{\"key\": \"c\", \"verd";
  }
  {
    ResultsStore s(d);
    EXPECT_EQ(s.existing().size(), 2u);
    EXPECT_EQ(s.torn_lines_dropped(), 1);
    EXPECT_FALSE(s.has("c"));
    s.append({{"key", "c"}});
  }
  std::string text = slurp(d / "records.jsonl");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  EXPECT_EQ(text.find("verd"), std::string::npos);
  ResultsStore s(d);
  EXPECT_EQ(s.existing().size(), 3u);
  EXPECT_EQ(s.torn_lines_dropped(), 0);
}

TEST(ResultsStore, CandidatesByContentHash) {
  auto d = fresh_dir("cand");
  ResultsStore s(d);
  auto h1 = s.store_candidate("int x;");
  auto h2 = s.store_candidate("int x;");
  auto h3 = s.store_candidate("int y;");
  EXPECT_EQ(h1, h2);
  EXPECT_NE(h1, h3);
  EXPECT_EQ(h1.size(), 64u);
  EXPECT_EQ(slurp(d / "candidates" / h1), "int x;");
}

TEST(ResultsStore, WriteFileReplacesWhole) {
  auto d = fresh_dir("file");
  ResultsStore s(d);
  s.write_file("run.json", "{\"a\": 1}\n");
  s.write_file("run.json", "{}\n");
  EXPECT_EQ(slurp(d / "run.json"), "{}\n");
  for (auto& e : fs::directory_iterator(d)) EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos);
}
