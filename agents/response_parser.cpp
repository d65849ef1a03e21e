// Fenced-block extraction from a model's answer (see response_parser.h). Fences follow
// CommonMark: ``` or ~~~ (3 or more), indented at most 3 spaces; a closing fence uses
// the same character, at least as long, with nothing after it.
#include "agents/response_parser.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace crucible {
namespace {

struct Block {
  std::string info;  // first word of the info string, lower-cased
  std::string body;
  bool closed = false;
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') continue;  // CRLF
      ch = '\n';
    }
    if (ch == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  lines.push_back(cur);
  return lines;
}

// A fence line: returns (char, length, rest) or length 0 when the line is no fence.
struct Fence {
  char ch = 0;
  size_t len = 0;
  std::string rest;
};
Fence fence_of(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && i < 4 && line[i] == ' ') ++i;
  if (i > 3 || i >= line.size() || (line[i] != '`' && line[i] != '~')) return {};
  const char ch = line[i];
  size_t j = i;
  while (j < line.size() && line[j] == ch) ++j;
  if (j - i < 3) return {};
  Fence f{ch, j - i, line.substr(j)};
  if (ch == '`' && f.rest.find('`') != std::string::npos) return {};  // inline code, not a fence
  return f;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<Block> fenced_blocks(const std::string& text) {
  std::vector<Block> blocks;
  const auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const Fence open = fence_of(lines[i]);
    if (!open.len) continue;
    Block b;
    std::string info = trim(open.rest);
    if (!info.empty() && info[0] == '{') info.erase(0, 1);  // ```{.cpp}
    if (!info.empty() && info[0] == '.') info.erase(0, 1);  // ```.cpp
    info = info.substr(0, info.find_first_of(" \t{}"));
    std::transform(info.begin(), info.end(), info.begin(), [](unsigned char c) { return std::tolower(c); });
    b.info = info;
    size_t k = i + 1;
    for (; k < lines.size(); ++k) {
      const Fence close = fence_of(lines[k]);
      if (close.len >= open.len && close.ch == open.ch && trim(close.rest).empty()) {
        b.closed = true;
        break;
      }
      b.body += lines[k];
      b.body += '\n';
    }
    blocks.push_back(std::move(b));
    i = k;  // an unclosed block runs to the end of the answer
  }
  return blocks;
}

bool has_plan(const std::string& code) { return code.find("/*@launch") != std::string::npos; }

std::string format_hint(const std::string& family) {
  if (family == "cpu")
    return "answer with one ```cpp block containing the extern \"C\" functions and the /*@launch ... @*/ plan";
  return "answer with one ```cuda block containing the kernels and the /*@launch ... @*/ plan";
}

}  // namespace

ExtractedCandidate extract_candidate(const std::string& response, const std::string& family) {
  static const std::set<std::string> gpu = {"cuda", "cu", "cuh", "hip", "cpp", "c++", "cxx", "cc", "c"};
  static const std::set<std::string> cpu = {"cpp", "c++", "cxx", "cc", "c"};
  const auto& accepted = family == "cpu" ? cpu : gpu;
  ExtractedCandidate out;

  const auto blocks = fenced_blocks(response);
  const Block* code = nullptr;
  const Block* plan = nullptr;
  bool unclosed_code = false, wrong_language = false;
  std::string wrong_info;
  for (const auto& b : blocks) {
    const bool is_code = accepted.count(b.info) || (b.info.empty() && b.body.find("extern \"C\"") != std::string::npos);
    const bool is_yaml = (b.info == "yaml" || b.info == "yml") && b.body.find("launches:") != std::string::npos;
    if (!b.closed) {
      if (is_code) unclosed_code = true;
      continue;
    }
    if (is_code) {
      code = &b;
    } else if (is_yaml) {
      plan = &b;
    } else if (family == "cpu" && (b.info == "cuda" || b.info == "cu" || b.info == "hip")) {
      wrong_language = true;
      wrong_info = b.info;
    }
  }

  if (!code) {
    if (wrong_language)
      out.error = "found a ```" + wrong_info + " block, but this target is the CPU backend, which compiles C++; " + format_hint(family);
    else if (unclosed_code)
      out.error = "the code block is not closed (was the answer cut off?); " + format_hint(family) +
                  ", closed with ```, and keep it short enough to fit";
    else if (blocks.empty())
      out.error = "no fenced code block found; " + format_hint(family);
    else
      out.error = "no fenced code block in an accepted language (" +
                  std::string(family == "cpu" ? "cpp, c++, c" : "cuda, hip, cpp, c++, c") + ") found; " + format_hint(family);
    return out;
  }

  std::string source = code->body;
  if (!has_plan(source)) {
    if (!plan) {
      out.error = "the code has no /*@launch ... @*/ plan and no separate ```yaml block with launches: was found; "
                  "add the plan (a YAML launches: list) inside a /*@launch ... @*/ comment at the end of the code";
      return out;
    }
    std::string yaml = plan->body;
    if (yaml.find("@*/") != std::string::npos) {
      out.error = "the ```yaml plan block contains '@*/', which would end the plan comment early; remove it";
      return out;
    }
    if (!source.empty() && source.back() != '\n') source += '\n';
    source += "/*@launch\n" + yaml;
    if (!yaml.empty() && yaml.back() != '\n') source += '\n';
    source += "@*/\n";
  }
  out.ok = true;
  out.source = std::move(source);
  return out;
}

}  // namespace crucible
