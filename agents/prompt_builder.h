// Prompts from templates in configs/prompts/ (system.md, task.md, feedback.md,
// candidate_format.md, example_gpu.md, example_cpu.md). Templates use {{name}} for a
// value and {{#name}} ... {{/name}} for a section kept only when the value is non-empty
// ({{^name}} ... {{/name}}: only when empty). An unknown name is an InputError, so a typo
// in a template fails the run at its start rather than reaching a model.
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/device.h"
#include "harness/task.h"

namespace crucible {

struct PromptOptions {
  std::filesystem::path prompts_dir = std::filesystem::path(CRUCIBLE_SOURCE_DIR) / "configs" / "prompts";
  std::string backend_family = "gpu";   // "gpu" | "cpu": which code and format the model writes
  bool include_candidate_format = true;
  bool include_device_facts = true;
  bool include_reference = false;       // the task's reference source for this family
  bool include_example = false;         // a one-shot example answer (for another task)
  std::string goal;                     // e.g. "a speedup of at least 2x"; shown when set
  size_t compile_log_cap = 4000;        // bytes of compiler output in feedback
  int max_shapes_in_feedback = 4;       // failing / timed shapes listed in feedback
};

// Fills a template text. `where` names the template for error messages.
std::string render_template(const std::string& text, const std::map<std::string, std::string>& vars,
                            const std::string& where);

std::string render_system_prompt(const PromptOptions&);
std::string render_task_prompt(const Task&, const DeviceFacts&, const PromptOptions&);
// From an evaluation result (harness/eval_result.h to_json, or the flat form
// {verdict, message, flags, compile_log, shapes:[{params, mismatches, count, max_abs_err,
// max_rel_err, first_mismatch, expected, actual, candidate_ms, reference_ms, speedup}],
// speedup, sol}); sol is a fraction of the speed of light (0..1).
std::string render_feedback(const nlohmann::json& eval_result, const PromptOptions&);

}  // namespace crucible
