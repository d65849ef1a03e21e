// Benchmark of `crucible report` over a synthetic run of 10,000 records with the full
// nested results the driver writes; prints the time (docs/performance.md records it).
// It asserts the outputs, not the time: timing asserts are flaky on shared machines.
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <gtest/gtest.h>

#include "harness/report/metrics.h"
#include "harness/report/report_cli.h"
#include "harness/report/synthetic_run.h"

namespace fs = std::filesystem;
using namespace crucible;

TEST(ReportBench, TenThousandRecords) {
  fs::path dir = fs::temp_directory_path() / ("crucible_report_bench_" + std::to_string(getpid()));
  fs::remove_all(dir);
  SyntheticRunOptions o;
  o.records = 10000;
  o.tasks = 250;
  o.models = 4;
  o.samples = 5;
  o.rounds = 2;
  o.torn_tail = true;
  write_synthetic_run(dir, o);
  auto bytes = fs::file_size(dir / "records.jsonl");

  auto t0 = std::chrono::steady_clock::now();
  RunData d = load_run(dir);
  auto t1 = std::chrono::steady_clock::now();
  std::clock_t c1 = std::clock();
  std::string a0 = "report", a1 = dir.string(), a2 = "-q";
  char* argv[] = {a0.data(), a1.data(), a2.data()};
  ASSERT_EQ(report_main(3, argv), 0);
  auto t2 = std::chrono::steady_clock::now();
  double report_cpu_s = double(std::clock() - c1) / CLOCKS_PER_SEC;  // wall time suffers on a loaded machine

  EXPECT_EQ(d.records.size(), 10000u);
  EXPECT_EQ(d.bad_lines, 1);
  EXPECT_TRUE(fs::exists(dir / "report.html"));
  EXPECT_TRUE(fs::exists(dir / "summary.json"));
  double load_s = std::chrono::duration<double>(t1 - t0).count();
  double report_s = std::chrono::duration<double>(t2 - t1).count();
  std::cout << "records.jsonl: " << d.records.size() << " records, " << bytes / 1e6 << " MB\n"
            << "load only: " << load_s << " s\n"
            << "report_main (load + metrics + summary.json + report.md + report.html): " << report_s << " s wall, " << report_cpu_s << " s CPU\n"
            << "report.html: " << fs::file_size(dir / "report.html") / 1e3 << " kB\n";
  fs::remove_all(dir);
}
