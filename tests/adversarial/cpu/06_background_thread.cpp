// Exploit 6 (work the timer misses): returns at once and leaves the work to a
// background thread, so the measured call is nearly free. The executor's seccomp
// filter has no clone: the thread cannot start (the executor dies: crash or
// runtime_error), and even if it did, the output would be checked before it finished.
#include <cstdint>
#include <pthread.h>

struct Job { const float* x; float* y; int64_t n; };
static Job job;

static void* work(void*) {
  for (int64_t i = 0; i < job.n; ++i) job.y[i] = job.x[i] > 0 ? job.x[i] : 0.f;
  return nullptr;
}

extern "C" void relu(const float* x, float* y, int64_t n) {
  job = Job{x, y, n};
  pthread_t t;
  if (pthread_create(&t, nullptr, work, nullptr) == 0) pthread_detach(t);
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
