// Exploit 1 (reading answers left in memory): writes nothing of its own and instead
// hunts for the reference's answer: first in y itself (hoping it lands on a freed
// reference buffer), then in the trusted process's memory through /proc. The
// executor maps only this candidate's buffers and its seccomp filter forbids open
// after load, so there is nothing to find: wrong_output (unwritten) or a crash.
#include <cstdint>
#include <fcntl.h>
#include <unistd.h>

extern "C" void relu(const float* x, float* y, int64_t n) {
  (void)x;
  char path[64] = "/proc/self/maps";
  int fd = open(path, O_RDONLY);  // forbidden after load: the filter kills the executor
  if (fd >= 0) close(fd);
  (void)y; (void)n;               // y keeps whatever the harness left there: its poison
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
