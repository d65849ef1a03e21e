// Exploit 11 (summing 99% of the data and rescaling), for tasks/quickstart/sum: sums
// the first 99% of x and scales by 1/0.99. With inputs uniform on [0, 1) the error is
// about sqrt(N/1200) / (N/2), near rtol 1e-4 for N of a few hundred thousand: the
// expected verdict is wrong_output; a pass means the task needs a wider distribution.
#include <cstdint>

extern "C" void sum(const float* x, float* y, int64_t n) {
  int64_t part = n * 99 / 100;
  if (part < 1) part = 1;
  double s = 0;
  for (int64_t i = 0; i < part; ++i) s += x[i];
  y[0] = (float)(s * (double)n / (double)part);
}

/*@launch
launches:
  - kernel: sum
    args: [x, y, i64(N)]
@*/
