// OpenAI-compatible Chat Completions client: OpenAI, OpenRouter, vLLM, SGLang,
// Ollama (/v1), llama.cpp's server. POST {base_url}/chat/completions.
#pragma once
#include "agents/http_agent.h"

namespace crucible {

class OpenAIAgent : public HttpAgent {
 public:
  explicit OpenAIAgent(ModelConfig cfg, AgentHooks hooks = {}) : HttpAgent(std::move(cfg), std::move(hooks)) {}

 protected:
  std::string url() const override;
  std::vector<std::string> headers() const override;
  nlohmann::json body(const AgentRequest&) const override;
  void read_answer(const nlohmann::json&, AgentResponse&) const override;
};

}  // namespace crucible
