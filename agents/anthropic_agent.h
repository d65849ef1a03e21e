// Anthropic Messages client: POST {base_url}/v1/messages with x-api-key and
// anthropic-version; the system prompt is a top-level field; text content blocks are
// joined; stop_reason "max_tokens" marks a truncated answer.
#pragma once
#include "agents/http_agent.h"

namespace crucible {

class AnthropicAgent : public HttpAgent {
 public:
  explicit AnthropicAgent(ModelConfig cfg, AgentHooks hooks = {}) : HttpAgent(std::move(cfg), std::move(hooks)) {}

 protected:
  std::string url() const override;
  std::vector<std::string> headers() const override;
  nlohmann::json body(const AgentRequest&) const override;
  void read_answer(const nlohmann::json&, AgentResponse&) const override;
};

}  // namespace crucible
