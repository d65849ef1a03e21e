// The model-agent interface the run driver calls: one request (system prompt plus
// conversation) in, one answer out, with usage, cost and a failure description.
// Clients: OpenAI-compatible Chat Completions, Anthropic Messages, and an external
// command (docs/agents.md). A client never throws for a remote failure; it returns
// ok=false (fatal=true when the credentials are refused, so that the driver stops this
// model and only this model).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace crucible {

struct ChatMessage {
  std::string role;     // "user" | "assistant"
  std::string content;
};

struct AgentRequest {
  std::string system;
  std::vector<ChatMessage> messages;
};

struct AgentResponse {
  bool ok = false;
  std::string text;
  std::string finish_reason;   // as the API said it ("stop", "length", "end_turn", "max_tokens", ...)
  bool truncated = false;      // the answer was cut at max_tokens
  int64_t tokens_in = 0, tokens_out = 0;
  double cost_usd = 0;
  double latency_ms = 0;       // wall time of complete(), retries and waits included
  int attempts = 0;            // HTTP requests sent (or commands run)
  std::string error;           // empty when ok; never contains an API key
  std::string raw_body;        // the last body received (kept for malformed answers); keys redacted
  bool fatal = false;          // 401/402/403: stop this model's part of the run
  int http_status = 0;         // last HTTP status seen (0: none / not HTTP)
};

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string name() const = 0;
  // Thread-safe: the driver may call it from several threads at once.
  virtual AgentResponse complete(const AgentRequest&) = 0;
};

struct ModelConfig {
  std::string name;            // the name records carry
  std::string kind;            // openai | anthropic | command | replay
  std::string base_url;        // openai: ".../v1"; anthropic: "https://api.anthropic.com"
  std::string model;           // the API's model id
  std::string api_key_env;     // name of the environment variable holding the key (may be unset)
  double temperature = 1.0;
  double top_p = 1.0;
  bool has_temperature = false;  // sampling parameters are sent only when the config sets them
  bool has_top_p = false;
  int64_t max_tokens = 8192;
  std::optional<int64_t> seed; // openai-compatible only
  nlohmann::json extra_body = nlohmann::json::object();  // JSON merge patch onto the request body
  std::map<std::string, std::string> headers;             // extra HTTP headers (OpenRouter's HTTP-Referer, ...)
  double price_in_per_mtok = 0, price_out_per_mtok = 0;   // USD per million tokens
  int max_retries = 4;
  double retry_base_s = 1.0;   // exponential backoff with full jitter: U(0, min(cap, base*2^k))
  double retry_cap_s = 60.0;
  double retry_after_max_s = 600.0;  // a server's Retry-After is honoured up to this
  double connect_timeout_s = 10.0;
  double read_timeout_s = 600.0;     // whole exchange, per attempt
  std::vector<std::string> command;  // command kind: argv
  double command_timeout_s = 600.0;
  std::vector<std::string> command_pass_env;  // command kind: variables kept despite the key scrub
  int max_concurrency = 8;           // requests in flight to this endpoint
  YAML::Node node;                   // the config as written (replay and future kinds read their own keys)
  std::string where;                 // "file:line" of the config, for messages
};

// Reads one model config (docs/agents.md). `where` names the file. Throws InputError
// naming the file, line and field.
ModelConfig parse_model_config(const YAML::Node&, const std::string& where);
// Loads configs/models/<x>.yaml (a single model mapping).
ModelConfig load_model_config(const std::string& path);

// openai, anthropic and command kinds; throws InputError for any other kind (replay is
// the run driver's).
std::unique_ptr<Agent> make_agent(const ModelConfig&);

}  // namespace crucible
