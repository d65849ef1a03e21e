// Tests report.html in a real browser: headless Chromium loads the report written by
// report_main over a synthetic run; the page raises no script or console errors,
// every plot's <svg> is in the DOM, a heatmap/table link to a candidate resolves to
// an existing file that Chromium opens, and a screenshot is taken
// (<build>/report-screenshot.png; docs/report-screenshot.png is a copy of it).
// Skips visibly when Chromium is not installed (scripts/setup.sh installs it).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/report/report_cli.h"
#include "harness/report/synthetic_run.h"

namespace fs = std::filesystem;
using namespace crucible;

namespace {

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string cmd = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) == 0) return name;
  }
  return "";
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs Chromium headless with the flags CI uses; stdout and stderr go to files.
int chromium(const std::string& exe, const std::string& extra, const std::string& url, const fs::path& out,
             const fs::path& err, const fs::path& profile) {
  std::string cmd = "timeout 90 " + exe +
                    " --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"
                    " --disable-sync --no-first-run --user-data-dir=" + profile.string() +
                    " --enable-logging=stderr --v=0 " + extra + " '" + url + "' >" + out.string() + " 2>" + err.string();
  return std::system(cmd.c_str());
}

class ReportBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    exe_ = find_chromium();
    if (exe_.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install -y chromium; scripts/setup.sh does it)";
    dir_ = fs::temp_directory_path() / ("crucible_report_browser_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    SyntheticRunOptions o;
    o.records = 180;
    o.tasks = 8;
    o.models = 3;
    o.samples = 2;
    o.rounds = 3;
    write_synthetic_run(dir_ / "h200-run", o);
    std::string a0 = "report", a1 = (dir_ / "h200-run").string(), a2 = "-q";
    char* argv[] = {a0.data(), a1.data(), a2.data()};
    ASSERT_EQ(report_main(3, argv), 0);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  std::string exe_;
  fs::path dir_;
};

}  // namespace

TEST_F(ReportBrowser, LoadsWithoutErrorsShowsPlotsAndLinksCandidates) {
  fs::path run = dir_ / "h200-run";
  std::string html = slurp(run / "report.html");
  ASSERT_FALSE(html.empty());
  // Self-contained: no external scripts, stylesheets or images.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);

  // A probe copy: the same page with an error hook first and a reporter last, so any
  // script error or console.error during load shows up in the dumped DOM.
  std::string probe = html;
  probe.insert(probe.find("<head>") + 6,
               "<script>window.__errs=[];window.addEventListener('error',function(e){window.__errs.push(String(e.message||e.type))},true);"
               "var __ce=console.error;console.error=function(){window.__errs.push([].join.call(arguments,' '));__ce.apply(console,arguments)};</script>");
  probe.insert(probe.rfind("</body>"),
               "<script>var d=document.createElement('div');d.id='crucible-probe';d.setAttribute('data-errors',String(window.__errs.length));"
               "d.setAttribute('data-svgs',String(document.querySelectorAll('svg.plot').length));d.textContent=window.__errs.join('|');"
               "document.body.appendChild(d);</script>");
  {
    std::ofstream f(run / "probe.html");
    f << probe;
  }
  fs::path out = dir_ / "dom.html", err = dir_ / "chromium.err";
  ASSERT_EQ(chromium(exe_, "--dump-dom", "file://" + (run / "probe.html").string(), out, err, dir_ / "profile1"), 0)
      << slurp(err);
  std::string dom = slurp(out), log = slurp(err);
  EXPECT_NE(dom.find("id=\"crucible-probe\" data-errors=\"0\" data-svgs=\"4\""), std::string::npos)
      << dom.substr(dom.find("crucible-probe") == std::string::npos ? 0 : dom.find("crucible-probe"), 400);
  EXPECT_EQ(log.find("CONSOLE("), std::string::npos) << log;  // no console message at all
  for (const char* id : {"plot-fastp", "plot-speedups", "plot-rounds", "plot-heatmap"})
    EXPECT_NE(dom.find(std::string("<svg id=\"") + id + "\""), std::string::npos) << id;

  // Heatmap cells and the kernels table link to candidates/<hash> next to the report.
  std::smatch mh;
  ASSERT_TRUE(std::regex_search(dom, mh, std::regex("<a href=\"(candidates/[0-9a-f]{64})\">")));
  EXPECT_TRUE(fs::exists(run / mh[1].str())) << mh[1];
  std::smatch mc;
  ASSERT_TRUE(std::regex_search(dom, mc, std::regex("class=\"candidate\" href=\"([^\"]+)\"")));
  fs::path cand = run / mc[1].str();
  ASSERT_TRUE(fs::exists(cand)) << cand;
  std::smatch mt;
  ASSERT_TRUE(std::regex_search(dom, mt, std::regex("class=\"transcript\" href=\"([^\"]+)\"")));
  EXPECT_TRUE(fs::exists(run / mt[1].str())) << mt[1];

  // Open the candidate the link points to, in the browser.
  fs::path cout_ = dir_ / "cand.html";
  ASSERT_EQ(chromium(exe_, "--dump-dom", "file://" + fs::canonical(cand).string(), cout_, dir_ / "c.err", dir_ / "profile2"), 0);
  std::string cdom = slurp(cout_);
  EXPECT_NE(cdom.find("synthetic candidate"), std::string::npos) << cdom.substr(0, 400);
  EXPECT_NE(cdom.find(slurp(cand).substr(0, 30)), std::string::npos);

  // The screenshot kept in docs/ is made here.
  fs::path shot = fs::path(CRUCIBLE_BINARY_DIR) / "report-screenshot.png";
  fs::remove(shot);
  ASSERT_EQ(chromium(exe_, "--hide-scrollbars --window-size=1400,2000 --screenshot=" + shot.string(),
                     "file://" + (run / "report.html").string(), dir_ / "s.out", dir_ / "s.err", dir_ / "profile3"),
            0)
      << slurp(dir_ / "s.err");
  ASSERT_TRUE(fs::exists(shot));
  EXPECT_GT(fs::file_size(shot), 20000u);  // a rendered page, not a blank image
  std::cout << "screenshot: " << shot << "\n";
}
