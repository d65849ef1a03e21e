// Loads a task suite: every folder below the root that holds a task.yaml. One bad
// task does not stop the others; every bad task's message is kept, so a suite author
// sees all of them at once.
#include <fnmatch.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

#include "harness/error.h"
#include "harness/task.h"

namespace crucible {
namespace fs = std::filesystem;

namespace {

// What a task file says its name and level are, read leniently: used to apply the
// filter to a task that failed to load, and to find the line of a duplicate name.
struct Peek {
  std::optional<std::string> name;
  int name_line = 1;
  std::optional<int> level;
};

Peek peek(const fs::path& file) {
  Peek p;
  try {
    const YAML::Node root = YAML::LoadFile(file.string());
    if (!root.IsMap()) return p;
    if (const YAML::Node n = root["name"]; n.IsScalar()) {
      p.name = n.Scalar();
      if (n.Mark().line >= 0) p.name_line = n.Mark().line + 1;
    }
    if (const YAML::Node n = root["level"]; n.IsScalar()) p.level = n.as<int>();
  } catch (const YAML::Exception&) {
  }
  return p;
}

bool name_matches(const std::string& glob, const std::string& name) {
  return fnmatch(glob.c_str(), name.c_str(), 0) == 0;
}

}  // namespace

SuiteLoad load_suite(const fs::path& root, const SuiteFilter& filter) {
  if (!fs::is_directory(root)) throw InputError(root.string() + ": suite folder not found");

  std::vector<fs::path> dirs;
  if (fs::is_regular_file(root / "task.yaml")) dirs.push_back(root);
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (!it->is_directory(ec)) continue;
    if (it->path().filename().string().starts_with(".")) {  // .git and the like
      it.disable_recursion_pending();
      continue;
    }
    if (fs::is_regular_file(it->path() / "task.yaml")) dirs.push_back(it->path());
  }
  if (ec) throw InputError(root.string() + ": cannot walk the suite folder: " + ec.message());
  std::sort(dirs.begin(), dirs.end());  // deterministic order for messages and duplicates

  SuiteLoad out;
  std::vector<Task> loaded;
  for (const auto& dir : dirs) {
    try {
      loaded.push_back(load_task(dir));
    } catch (const InputError& e) {
      // A bad task that the filter would leave out anyway is not the caller's concern.
      const Peek p = peek(dir / "task.yaml");
      if (p.name && !name_matches(filter.name_glob, *p.name)) continue;
      if (p.level && filter.level && *p.level != *filter.level) continue;
      out.errors.push_back(e.what());
    }
  }

  // Task names identify results: two tasks of one name make both ambiguous, so neither runs.
  std::map<std::string, std::vector<size_t>> by_name;
  for (size_t i = 0; i < loaded.size(); ++i) by_name[loaded[i].name].push_back(i);
  std::vector<bool> dropped(loaded.size(), false);
  for (const auto& [name, idxs] : by_name) {
    if (idxs.size() < 2) continue;
    for (size_t i : idxs) dropped[i] = true;
    if (!name_matches(filter.name_glob, name)) continue;
    std::string msg;
    for (size_t k = 0; k < idxs.size(); ++k) {
      const Task& t = loaded[idxs[k]];
      if (k == 0) {
        msg = t.file.string() + ":" + std::to_string(peek(t.file).name_line) + ": name: duplicate task name '" + name +
              "' in this suite; also used by";
      } else {
        msg += std::string(k > 1 ? "," : "") + " " + t.file.string() + ":" + std::to_string(peek(t.file).name_line);
      }
    }
    out.errors.push_back(msg + "; expected every task name to be unique");
  }

  for (size_t i = 0; i < loaded.size(); ++i) {
    if (dropped[i]) continue;
    const Task& t = loaded[i];
    if (!name_matches(filter.name_glob, t.name)) continue;
    if (filter.level && t.level != *filter.level) continue;
    out.tasks.push_back(std::move(loaded[i]));
  }
  std::sort(out.tasks.begin(), out.tasks.end(),
            [](const Task& a, const Task& b) { return std::tie(a.level, a.name) < std::tie(b.level, b.name); });
  return out;
}

}  // namespace crucible
