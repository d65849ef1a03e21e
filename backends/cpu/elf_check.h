// What a candidate's shared object would run by itself when loaded: constructors
// (.init_array, code added to .init), IFUNC resolvers. The executor loads the object
// before its strict seccomp filter is on (dlopen needs file access), so candidate code
// must not run at load time; objects that would are refused.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace crucible {

struct LoadTimeCode {
  bool parsed = false;
  std::string error;              // why it could not be parsed
  size_t init_bytes = 0;          // size of .init
  size_t init_array_entries = 0;  // .init_array (constructors, global objects' initialisers)
  size_t preinit_array_entries = 0;
  bool ifunc = false;             // STT_GNU_IFUNC symbols or IRELATIVE relocations
};

LoadTimeCode inspect_load_time_code(const std::vector<uint8_t>& elf);

// Compares with `baseline` (an empty object built the same way); empty when nothing
// extra runs at load time, else a message a model can act on.
std::string extra_load_time_code(const LoadTimeCode& candidate, const LoadTimeCode& baseline);

}  // namespace crucible
