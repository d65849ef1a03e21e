#include "backends/cpu/seccomp_filter.h"

#include <fcntl.h>
#include <seccomp.h>

#include <cstring>
#include <initializer_list>

namespace crucible {

namespace {

class Filter {
 public:
  Filter() : ctx_(seccomp_init(SCMP_ACT_KILL_PROCESS)) {
    // The executor sets no_new_privs itself; libseccomp need not call prctl.
    if (ctx_) seccomp_attr_set(ctx_, SCMP_FLTATR_CTL_NNP, 0);
  }
  ~Filter() {
    if (ctx_) seccomp_release(ctx_);
  }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  void allow(std::initializer_list<int> calls) {
    for (int nr : calls) note(seccomp_rule_add(ctx_, SCMP_ACT_ALLOW, nr, 0), nr);
  }
  // Allowed only when the first argument (the fd) is `fd`.
  void allow_on_fd(std::initializer_list<int> calls, int fd) {
    for (int nr : calls)
      note(seccomp_rule_add(ctx_, SCMP_ACT_ALLOW, nr, 1, SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(fd))), nr);
  }
  void allow_read_only_open() {
    // Flags must not ask for writing, creating or truncating.
    const scmp_datum_t mask = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | O_TMPFILE;
    note(seccomp_rule_add(ctx_, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, mask, O_RDONLY)),
         SCMP_SYS(openat));
  }
  std::string load() {
    if (!ctx_) return "seccomp_init failed";
    if (!error_.empty()) return error_;
    int rc = seccomp_load(ctx_);
    return rc == 0 ? std::string() : std::string("seccomp_load: ") + std::strerror(-rc);
  }

 private:
  void note(int rc, int nr) {
    if (rc != 0 && error_.empty()) error_ = "seccomp_rule_add(" + std::to_string(nr) + "): " + std::strerror(-rc);
  }
  scmp_filter_ctx ctx_;
  std::string error_;
};

void allow_common(Filter& f, int control_fd) {
  f.allow_on_fd({SCMP_SYS(read), SCMP_SYS(recvmsg), SCMP_SYS(write), SCMP_SYS(sendmsg)}, control_fd);
  f.allow({SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mprotect), SCMP_SYS(mremap), SCMP_SYS(brk),
           SCMP_SYS(madvise), SCMP_SYS(futex), SCMP_SYS(close), SCMP_SYS(clock_gettime), SCMP_SYS(rt_sigreturn),
           SCMP_SYS(exit), SCMP_SYS(exit_group)});
}

}  // namespace

std::string install_load_filter(int control_fd) {
  Filter f;
  allow_common(f, control_fd);
  f.allow_read_only_open();
  f.allow({SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx),
           SCMP_SYS(lseek), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(rt_sigprocmask),
           // to install stage 2 (filters only ever add restrictions)
           SCMP_SYS(seccomp)});
  return f.load();
}

std::string install_run_filter(int control_fd) {
  Filter f;
  allow_common(f, control_fd);
  return f.load();
}

}  // namespace crucible
