// The agent factory: one ModelConfig kind → one client.
#include "agents/agent.h"
#include "agents/anthropic_agent.h"
#include "agents/command_agent.h"
#include "agents/openai_agent.h"
#include "harness/error.h"

namespace crucible {

std::unique_ptr<Agent> make_agent(const ModelConfig& cfg) {
  if (cfg.kind == "openai") return std::make_unique<OpenAIAgent>(cfg);
  if (cfg.kind == "anthropic") return std::make_unique<AnthropicAgent>(cfg);
  if (cfg.kind == "command") return std::make_unique<CommandAgent>(cfg);
  throw InputError(cfg.where + ": model kind '" + cfg.kind + "' has no client here" +
                   (cfg.kind == "replay" ? " (replay is served by the run driver)" : ""));
}

}  // namespace crucible
