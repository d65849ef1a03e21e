#include "backends/cpu/elf_check.h"

#include <elf.h>

#include <cstring>

namespace crucible {

namespace {

template <typename T>
bool read_at(const std::vector<uint8_t>& b, uint64_t off, T& out) {
  if (off > b.size() || sizeof(T) > b.size() - off) return false;
  std::memcpy(&out, b.data() + off, sizeof(T));
  return true;
}

}  // namespace

LoadTimeCode inspect_load_time_code(const std::vector<uint8_t>& b) {
  LoadTimeCode r;
  Elf64_Ehdr eh;
  if (!read_at(b, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    r.error = "not a 64-bit little-endian ELF file";
    return r;
  }
  if (eh.e_type != ET_DYN) {
    r.error = "not a shared object";
    return r;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum) {
    r.error = "no section headers";
    return r;
  }
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  for (size_t i = 0; i < sh.size(); ++i)
    if (!read_at(b, eh.e_shoff + i * sizeof(Elf64_Shdr), sh[i])) {
      r.error = "truncated section headers";
      return r;
    }
  const Elf64_Shdr& strs = sh[eh.e_shstrndx];
  auto name_of = [&](const Elf64_Shdr& s) -> std::string {
    uint64_t off = strs.sh_offset + s.sh_name;
    if (s.sh_name >= strs.sh_size || off >= b.size()) return {};
    const char* p = reinterpret_cast<const char*>(b.data() + off);
    return std::string(p, strnlen(p, b.size() - off));
  };
  for (const auto& s : sh) {
    if (s.sh_type == SHT_INIT_ARRAY) r.init_array_entries += s.sh_size / 8;
    if (s.sh_type == SHT_PREINIT_ARRAY) r.preinit_array_entries += s.sh_size / 8;
    if (s.sh_type == SHT_PROGBITS && name_of(s) == ".init") r.init_bytes += s.sh_size;
    if ((s.sh_type == SHT_DYNSYM || s.sh_type == SHT_SYMTAB) && s.sh_entsize == sizeof(Elf64_Sym)) {
      for (uint64_t k = 0; k < s.sh_size / sizeof(Elf64_Sym); ++k) {
        Elf64_Sym sym;
        if (!read_at(b, s.sh_offset + k * sizeof(Elf64_Sym), sym)) break;
        if (ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) r.ifunc = true;
      }
    }
    if (s.sh_type == SHT_RELA && s.sh_entsize == sizeof(Elf64_Rela)) {
      for (uint64_t k = 0; k < s.sh_size / sizeof(Elf64_Rela); ++k) {
        Elf64_Rela rel;
        if (!read_at(b, s.sh_offset + k * sizeof(Elf64_Rela), rel)) break;
        if (ELF64_R_TYPE(rel.r_info) == R_X86_64_IRELATIVE) r.ifunc = true;
      }
    }
  }
  r.parsed = true;
  return r;
}

std::string extra_load_time_code(const LoadTimeCode& c, const LoadTimeCode& base) {
  const char* why =
      ": the CPU backend runs no candidate code outside the plan's calls. Remove global objects with "
      "constructors (std::vector/std::string globals, <iostream>), __attribute__((constructor)), ifunc "
      "and code placed in .init; use plain data or initialise inside the called function.";
  if (!c.parsed) return "the shared object could not be inspected: " + c.error;
  if (c.init_array_entries > base.init_array_entries)
    return "the shared object has " + std::to_string(c.init_array_entries - base.init_array_entries) +
           " load-time initialiser(s)" + why;
  if (c.preinit_array_entries > base.preinit_array_entries) return std::string("the shared object has load-time .preinit_array entries") + why;
  if (c.init_bytes != base.init_bytes) return std::string("the shared object adds load-time code to .init") + why;
  if (c.ifunc && !base.ifunc) return std::string("the shared object uses ifunc resolvers (load-time code)") + why;
  return {};
}

}  // namespace crucible
