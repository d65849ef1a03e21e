// Exploit 4 (caching across calls): keeps the last answer in static memory and, when
// called again with the same size, copies it instead of computing. The harness runs
// each shape twice on fresh inputs into the same buffers: the second run is stale
// (wrong_output + stale_output).
#include <cstdint>
#include <cstdlib>

static float* cache = nullptr;
static int64_t cached_n = -1;

extern "C" void relu(const float* x, float* y, int64_t n) {
  if (n == cached_n) {
    for (int64_t i = 0; i < n; ++i) y[i] = cache[i];
    return;
  }
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
  free(cache);
  cache = static_cast<float*>(malloc(sizeof(float) * (n > 0 ? n : 1)));
  for (int64_t i = 0; i < n; ++i) cache[i] = y[i];
  cached_n = n;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
