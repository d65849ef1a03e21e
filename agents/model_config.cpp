// Reads a model endpoint config (configs/models/*.yaml) into ModelConfig, strictly:
// an unknown key is an error, because a misspelt "max_tokens" silently ignored would
// change what a whole campaign measures.
#include <set>

#include "agents/agent.h"
#include "harness/error.h"

namespace crucible {
namespace {

std::string at(const std::string& where, const YAML::Node& n) {
  return where + ":" + std::to_string(n.Mark().line + 1);
}

[[noreturn]] void fail(const std::string& where, const YAML::Node& n, const std::string& field,
                       const std::string& expected) {
  throw InputError(at(where, n) + ": model config field '" + field + "': " + expected);
}

std::string get_string(const YAML::Node& n, const std::string& where, const std::string& field) {
  if (!n.IsScalar()) fail(where, n, field, "expected a string");
  return n.as<std::string>();
}

double get_double(const YAML::Node& n, const std::string& where, const std::string& field, double lo, double hi) {
  double v = 0;
  try {
    v = n.as<double>();
  } catch (const YAML::Exception&) {
    fail(where, n, field, "expected a number");
  }
  if (!(v >= lo && v <= hi))
    fail(where, n, field, "expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + n.as<std::string>());
  return v;
}

int64_t get_int(const YAML::Node& n, const std::string& where, const std::string& field, int64_t lo, int64_t hi) {
  int64_t v = 0;
  try {
    v = n.as<int64_t>();
  } catch (const YAML::Exception&) {
    fail(where, n, field, "expected an integer");
  }
  if (v < lo || v > hi)
    fail(where, n, field, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " + std::to_string(v));
  return v;
}

// YAML → JSON for extra_body: scalars keep their YAML type (true, 3, 0.5, "x", null).
nlohmann::json to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      auto a = nlohmann::json::array();
      for (const auto& e : n) a.push_back(to_json(e));
      return a;
    }
    case YAML::NodeType::Map: {
      auto o = nlohmann::json::object();
      for (const auto& kv : n) o[kv.first.as<std::string>()] = to_json(kv.second);
      return o;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string s = n.Scalar();
  if (n.Tag() == "!") return s;  // quoted in the source: a string, whatever it looks like
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (s == "null" || s == "~") return nullptr;
  try {
    size_t pos = 0;
    long long i = std::stoll(s, &pos);
    if (pos == s.size()) return i;
  } catch (...) {
  }
  try {
    size_t pos = 0;
    double d = std::stod(s, &pos);
    if (pos == s.size()) return d;
  } catch (...) {
  }
  return s;
}

}  // namespace

ModelConfig parse_model_config(const YAML::Node& node, const std::string& where_in) {
  // `where` names the file; a "file:line" is accepted too (its line is replaced by each
  // field's own).
  std::string where = where_in;
  if (const auto colon = where.rfind(':'); colon != std::string::npos && colon + 1 < where.size() &&
      where.find_first_not_of("0123456789", colon + 1) == std::string::npos)
    where.erase(colon);
  if (!node.IsMap()) throw InputError(at(where, node) + ": a model config must be a mapping (name, kind, model, ...)");
  ModelConfig c;
  c.node = node;
  c.where = at(where, node);

  static const std::set<std::string> known = {
      "name", "kind", "base_url", "model", "api_key_env", "temperature", "top_p", "max_tokens", "seed",
      "extra_body", "headers", "price_in_per_mtok", "price_out_per_mtok", "max_retries", "retry_base_s",
      "retry_cap_s", "retry_after_max_s", "connect_timeout_s", "read_timeout_s", "command",
      "command_timeout_s", "command_pass_env", "max_concurrency"};

  const YAML::Node kind = node["kind"];
  if (!kind) throw InputError(c.where + ": model config field 'kind' is missing: expected openai, anthropic, command or replay");
  c.kind = get_string(kind, where, "kind");
  if (c.kind != "openai" && c.kind != "anthropic" && c.kind != "command" && c.kind != "replay")
    fail(where, kind, "kind", "expected openai, anthropic, command or replay, got '" + c.kind + "'");

  for (const auto& kv : node) {
    const std::string key = kv.first.as<std::string>();
    if (!known.count(key) && c.kind != "replay")  // replay's own keys belong to the run driver
      fail(where, kv.first, key, "unknown key (see docs/agents.md for the fields)");
  }

  if (const auto n = node["name"]) c.name = get_string(n, where, "name");
  if (const auto n = node["base_url"]) c.base_url = get_string(n, where, "base_url");
  if (const auto n = node["model"]) c.model = get_string(n, where, "model");
  if (const auto n = node["api_key_env"]) c.api_key_env = get_string(n, where, "api_key_env");
  if (const auto n = node["temperature"]) {
    c.temperature = get_double(n, where, "temperature", 0, 2);
    c.has_temperature = true;
  }
  if (const auto n = node["top_p"]) {
    c.top_p = get_double(n, where, "top_p", 0, 1);
    c.has_top_p = true;
  }
  if (const auto n = node["max_tokens"]) c.max_tokens = get_int(n, where, "max_tokens", 1, 10'000'000);
  if (const auto n = node["seed"]) {
    if (!n.IsNull()) c.seed = get_int(n, where, "seed", INT64_MIN, INT64_MAX);
  }
  if (const auto n = node["extra_body"]) {
    if (!n.IsMap()) fail(where, n, "extra_body", "expected a mapping merged into the request body");
    c.extra_body = to_json(n);
  }
  if (const auto n = node["headers"]) {
    if (!n.IsMap()) fail(where, n, "headers", "expected a mapping of header name to value");
    for (const auto& kv : n) c.headers[kv.first.as<std::string>()] = get_string(kv.second, where, "headers");
  }
  if (const auto n = node["price_in_per_mtok"]) c.price_in_per_mtok = get_double(n, where, "price_in_per_mtok", 0, 1e6);
  if (const auto n = node["price_out_per_mtok"]) c.price_out_per_mtok = get_double(n, where, "price_out_per_mtok", 0, 1e6);
  if (const auto n = node["max_retries"]) c.max_retries = static_cast<int>(get_int(n, where, "max_retries", 0, 100));
  if (const auto n = node["retry_base_s"]) c.retry_base_s = get_double(n, where, "retry_base_s", 0, 3600);
  if (const auto n = node["retry_cap_s"]) c.retry_cap_s = get_double(n, where, "retry_cap_s", 0, 86400);
  if (const auto n = node["retry_after_max_s"]) c.retry_after_max_s = get_double(n, where, "retry_after_max_s", 0, 86400);
  if (const auto n = node["connect_timeout_s"]) c.connect_timeout_s = get_double(n, where, "connect_timeout_s", 0.001, 3600);
  if (const auto n = node["read_timeout_s"]) c.read_timeout_s = get_double(n, where, "read_timeout_s", 0.001, 86400);
  if (const auto n = node["command"]) {
    if (n.IsScalar()) {
      fail(where, n, "command", "expected a list: the program and its arguments, e.g. [python3, my_agent.py]");
    }
    if (!n.IsSequence() || n.size() == 0) fail(where, n, "command", "expected a non-empty list (argv)");
    for (const auto& e : n) c.command.push_back(get_string(e, where, "command"));
  }
  if (const auto n = node["command_timeout_s"]) c.command_timeout_s = get_double(n, where, "command_timeout_s", 0.001, 86400);
  if (const auto n = node["command_pass_env"]) {
    if (!n.IsSequence()) fail(where, n, "command_pass_env", "expected a list of environment variable names");
    for (const auto& e : n) c.command_pass_env.push_back(get_string(e, where, "command_pass_env"));
  }
  if (const auto n = node["max_concurrency"]) c.max_concurrency = static_cast<int>(get_int(n, where, "max_concurrency", 1, 100000));

  // Per-kind requirements.
  if (c.kind == "openai" || c.kind == "anthropic") {
    if (c.base_url.empty()) throw InputError(c.where + ": model config field 'base_url' is missing (kind " + c.kind + ")");
    if (c.model.empty()) throw InputError(c.where + ": model config field 'model' is missing (kind " + c.kind + ")");
    if (c.base_url.rfind("http://", 0) != 0 && c.base_url.rfind("https://", 0) != 0)
      fail(where, node["base_url"], "base_url", "expected an http:// or https:// URL");
    while (!c.base_url.empty() && c.base_url.back() == '/') c.base_url.pop_back();
  }
  if (c.kind == "command" && c.command.empty())
    throw InputError(c.where + ": model config field 'command' is missing: kind command needs argv, e.g. [python3, agent.py]");
  if (c.name.empty()) c.name = c.model.empty() ? c.kind : c.model;
  if (c.retry_cap_s < c.retry_base_s) fail(where, node, "retry_cap_s", "must be at least retry_base_s");
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw InputError(path + ": cannot read model config");
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  return parse_model_config(root, path);
}

}  // namespace crucible
