// The command agent: any agent framework plugs in as a program. The request goes to
// its stdin as JSON ({"model", "system", "messages", "max_tokens", ...}); its stdout is
// the answer, either a JSON object ({"text", "finish_reason", "tokens_in",
// "tokens_out", "cost_usd"}) or plain text. A deadline kills its whole process group.
// Its environment is the harness's minus every credential variable, except those the
// config names in command_pass_env.
#pragma once
#include "agents/agent.h"

namespace crucible {

class CommandAgent : public Agent {
 public:
  explicit CommandAgent(ModelConfig cfg);
  std::string name() const override { return cfg_.name; }
  AgentResponse complete(const AgentRequest&) override;

  // The request as the program receives it on stdin.
  nlohmann::json request_json(const AgentRequest&) const;

 private:
  ModelConfig cfg_;
  std::vector<std::string> env_;  // the scrubbed environment, "NAME=value"
  std::vector<std::string> secrets_;  // values of passed-through credential variables, redacted from output
};

// Runs argv with `input` on stdin, collecting stdout (capped) and the tail of stderr,
// killing the process group at the deadline. Used by CommandAgent; exposed for tests.
struct ProcessResult {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;     // valid when exited normally
  int term_signal = 0;    // set when killed by a signal
  std::string out;
  std::string err_tail;
  bool out_truncated = false;
  std::string error;      // why it could not run
};
ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::string& input, double timeout_s, size_t out_cap = 16u << 20);

}  // namespace crucible
