// Renders computed metrics as the headline text table, report.md and one
// self-contained report.html (inline CSS and SVG; no scripts, no network).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/report/metrics.h"

namespace crucible {

// Fixed-width text: one row per model x backend x device.
std::string headline_text(const Metrics& m);

std::string render_markdown(const Metrics& m, const std::vector<RunData>& runs);

// Links (candidates, transcripts) are relative to out_dir, where report.html is written.
std::string render_html(const Metrics& m, const std::vector<RunData>& runs, const std::filesystem::path& out_dir);

// Formatting shared by the renderers and `crucible compare`.
std::string fmt_x(double speedup);         // "1.83x", "-" for NaN
std::string fmt_pct(double fraction);      // "42.0%", "-" for NaN
std::string verdict_colour(const std::string& verdict, double speedup);
std::string relative_link(const std::filesystem::path& target, const std::filesystem::path& from_dir);

}  // namespace crucible
