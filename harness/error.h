// Harness faults: exceptions that carry the source location and the failed call,
// as nvbench's NVBENCH_THROW does. A candidate's failure is never one of these: it
// is a Verdict (harness/verdict.h).
#pragma once
#include <stdexcept>
#include <string>

namespace crucible {

class Error : public std::runtime_error {
 public:
  Error(const std::string& what, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what) {}
};

// A problem in a user-supplied file (task.yaml, config, candidate plan): the message
// names the file, the line and the field, and says what was expected.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace crucible

#define CRU_THROW(msg) throw ::crucible::Error((msg), __FILE__, __LINE__)
#define CRU_CHECK(cond, msg)                                             \
  do {                                                                   \
    if (!(cond)) CRU_THROW(std::string("check failed: " #cond ": ") + (msg)); \
  } while (0)
