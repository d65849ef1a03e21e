// OpenAI-compatible Chat Completions: request body and answer reading (openai_agent.h).
#include "agents/openai_agent.h"

#include <stdexcept>

namespace crucible {

std::string OpenAIAgent::url() const { return cfg_.base_url + "/chat/completions"; }

std::vector<std::string> OpenAIAgent::headers() const {
  std::vector<std::string> h = {"Content-Type: application/json", "Accept: application/json"};
  if (!key_.empty()) h.push_back("Authorization: Bearer " + key_);
  for (const auto& [k, v] : cfg_.headers) h.push_back(k + ": " + v);
  return h;
}

nlohmann::json OpenAIAgent::body(const AgentRequest& req) const {
  nlohmann::json b;
  b["model"] = cfg_.model;
  auto msgs = nlohmann::json::array();
  if (!req.system.empty()) msgs.push_back({{"role", "system"}, {"content", req.system}});
  for (const auto& m : req.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  b["messages"] = std::move(msgs);
  b["max_tokens"] = cfg_.max_tokens;
  if (cfg_.has_temperature) b["temperature"] = cfg_.temperature;
  if (cfg_.has_top_p) b["top_p"] = cfg_.top_p;
  if (cfg_.seed) b["seed"] = *cfg_.seed;
  b["stream"] = false;
  // A merge patch: extra_body adds fields, overrides ours, and a null removes one
  // (e.g. {max_tokens: null, max_completion_tokens: 8192} for OpenAI's reasoning models).
  if (!cfg_.extra_body.empty()) b.merge_patch(cfg_.extra_body);
  return b;
}

void OpenAIAgent::read_answer(const nlohmann::json& j, AgentResponse& r) const {
  const auto choices = j.find("choices");
  if (choices == j.end() || !choices->is_array() || choices->empty() || !(*choices)[0].is_object())
    throw std::runtime_error("no choices[0] in the answer");
  const auto& c0 = (*choices)[0];
  const auto msg = c0.find("message");
  if (msg == c0.end() || !msg->is_object()) throw std::runtime_error("no choices[0].message in the answer");
  const auto content = msg->find("content");
  if (content == msg->end() || content->is_null()) {
    r.text.clear();  // a refusal or a tool call: no text, which the parser reports
  } else if (content->is_string()) {
    r.text = content->get<std::string>();
  } else if (content->is_array()) {  // content parts (some servers)
    for (const auto& part : *content)
      if (part.is_object() && part.contains("text") && part["text"].is_string()) r.text += part["text"].get<std::string>();
  } else {
    throw std::runtime_error("choices[0].message.content is neither a string nor a list of parts");
  }
  if (auto fr = c0.find("finish_reason"); fr != c0.end() && fr->is_string()) r.finish_reason = fr->get<std::string>();
  r.truncated = r.finish_reason == "length";
  if (auto u = j.find("usage"); u != j.end() && u->is_object()) {
    if (auto p = u->find("prompt_tokens"); p != u->end() && p->is_number_integer()) r.tokens_in = p->get<int64_t>();
    if (auto p = u->find("completion_tokens"); p != u->end() && p->is_number_integer()) r.tokens_out = p->get<int64_t>();
  }
}

}  // namespace crucible
