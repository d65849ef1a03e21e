// Turns a model's answer into one candidate file: the last complete fenced code block
// of an accepted language, plus a separate ```yaml plan block (launches:) when the code
// carries no /*@launch ... @*/ block of its own. Anything else is a format error whose
// message goes back to the model.
#pragma once
#include <string>

namespace crucible {

struct ExtractedCandidate {
  bool ok = false;
  std::string source;  // the candidate file as stored
  std::string error;   // for the model: what was wrong and what to send instead
};

// backend_family: "gpu" accepts cuda, cu, cuh, hip, cpp, c++, c; "cpu" accepts cpp, c++,
// cc, cxx, c. In both, a block without an info string counts when it contains extern "C".
ExtractedCandidate extract_candidate(const std::string& response, const std::string& backend_family);

}  // namespace crucible
