// Anthropic Messages API: request body and answer reading (anthropic_agent.h).
#include "agents/anthropic_agent.h"

#include <stdexcept>

namespace crucible {

std::string AnthropicAgent::url() const {
  // base_url is the API root; a root that already ends in /v1 is accepted as well.
  const std::string& b = cfg_.base_url;
  if (b.size() >= 3 && b.compare(b.size() - 3, 3, "/v1") == 0) return b + "/messages";
  return b + "/v1/messages";
}

std::vector<std::string> AnthropicAgent::headers() const {
  std::vector<std::string> h = {"Content-Type: application/json", "Accept: application/json",
                                "anthropic-version: 2023-06-01"};
  if (!key_.empty()) h.push_back("x-api-key: " + key_);
  for (const auto& [k, v] : cfg_.headers) h.push_back(k + ": " + v);
  return h;
}

nlohmann::json AnthropicAgent::body(const AgentRequest& req) const {
  nlohmann::json b;
  b["model"] = cfg_.model;
  b["max_tokens"] = cfg_.max_tokens;
  if (!req.system.empty()) b["system"] = req.system;
  auto msgs = nlohmann::json::array();
  for (const auto& m : req.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  b["messages"] = std::move(msgs);
  if (cfg_.has_temperature) b["temperature"] = cfg_.temperature;
  if (cfg_.has_top_p) b["top_p"] = cfg_.top_p;
  // The Messages API has no seed: cfg_.seed is not sent.
  if (!cfg_.extra_body.empty()) b.merge_patch(cfg_.extra_body);
  return b;
}

void AnthropicAgent::read_answer(const nlohmann::json& j, AgentResponse& r) const {
  const auto content = j.find("content");
  if (content == j.end() || !content->is_array()) throw std::runtime_error("no content list in the answer");
  for (const auto& block : *content) {
    // Only text blocks are the answer; thinking and tool blocks are not.
    if (block.is_object() && block.value("type", "") == "text" && block.contains("text") && block["text"].is_string())
      r.text += block["text"].get<std::string>();
  }
  if (auto s = j.find("stop_reason"); s != j.end() && s->is_string()) r.finish_reason = s->get<std::string>();
  r.truncated = r.finish_reason == "max_tokens";
  if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
    auto num = [&](const char* k) -> int64_t {
      auto p = u->find(k);
      return (p != u->end() && p->is_number_integer()) ? p->get<int64_t>() : 0;
    };
    // Cached prompt tokens are prompt tokens too (priced alike here; docs/agents.md).
    r.tokens_in = num("input_tokens") + num("cache_creation_input_tokens") + num("cache_read_input_tokens");
    r.tokens_out = num("output_tokens");
  }
}

}  // namespace crucible
