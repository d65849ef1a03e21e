// The executor's seccomp filters (libseccomp; default action: kill the process, so a
// forbidden call ends as SIGSYS, which the trusted side reports as such).
#pragma once
#include <string>

namespace crucible {

// Stage 1, before the candidate's shared object is loaded: what dlopen needs (read-only
// opens, reads, mappings) and nothing that writes, spawns or connects anywhere.
// Returns an empty string or the error.
std::string install_load_filter(int control_fd);

// Stage 2, before the first candidate call: the control socket (read/recvmsg,
// write/sendmsg on that fd only), memory management for malloc (mmap, munmap,
// mprotect, mremap, brk, madvise), futex, close, clock_gettime, rt_sigreturn, exit.
std::string install_run_filter(int control_fd);

}  // namespace crucible
