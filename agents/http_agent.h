// The request/retry loop shared by the HTTP model clients: send, classify, wait as the
// retry policy says, read the body, redact the key. Subclasses say only how their API
// spells the request and the answer (openai_agent.h, anthropic_agent.h).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/http_client.h"
#include "agents/retry_policy.h"

namespace crucible {

// Test seams: a recording sleeper instead of real waits, a fixed clock for HTTP dates.
struct AgentHooks {
  RetryPolicy::Sleeper sleeper;
  RetryPolicy::Clock clock;
  uint64_t seed = 0;
};

class HttpAgent : public Agent {
 public:
  HttpAgent(ModelConfig cfg, AgentHooks hooks);
  std::string name() const override { return cfg_.name; }
  AgentResponse complete(const AgentRequest&) final;
  const ModelConfig& config() const { return cfg_; }

 protected:
  virtual std::string url() const = 0;
  virtual std::vector<std::string> headers() const = 0;   // "Name: value", auth included
  virtual nlohmann::json body(const AgentRequest&) const = 0;
  // Reads a 2xx answer into text, finish_reason, truncated, tokens. Throws
  // std::runtime_error saying what is missing when the JSON is not the API's shape.
  virtual void read_answer(const nlohmann::json&, AgentResponse&) const = 0;

  ModelConfig cfg_;
  std::string key_;      // from getenv(cfg_.api_key_env); may be empty (local servers)
  bool key_set_ = false;

 private:
  std::string describe_http_error(const HttpResult&) const;
  HttpClient client_;
  RetryPolicy policy_;
};

// The error message a JSON error body carries ({"error": {"message": ...}} in both
// APIs, or {"error": "..."} / {"detail": ...} from some local servers); "" if none.
std::string json_error_message(const std::string& body);

}  // namespace crucible
