// Exploit 11 (summing 99% of the data and rescaling), for tasks/quickstart/softmax:
// each row's normaliser is summed over the first 99% of the columns and scaled by
// 1/0.99. Rows of normal(0, 3) data are dominated by a few large exps, so the
// estimate is off far beyond rtol 1e-4: wrong_output.
#include <cmath>
#include <cstdint>

extern "C" void softmax(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float m = xr[0];
    for (int64_t j = 1; j < cols; ++j) m = xr[j] > m ? xr[j] : m;
    int64_t part = cols * 99 / 100;
    if (part < 1) part = 1;
    double s = 0;
    for (int64_t j = 0; j < part; ++j) s += std::exp((double)xr[j] - m);
    s *= (double)cols / (double)part;
    for (int64_t j = 0; j < cols; ++j) y[r * cols + j] = (float)(std::exp((double)xr[j] - m) / s);
  }
}

/*@launch
launches:
  - kernel: softmax
    args: [x, y, i64(R), i64(C)]
@*/
