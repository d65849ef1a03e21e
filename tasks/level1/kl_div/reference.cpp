// CPU reference for KL(Q || P), batchmean: row sums, then the pointwise terms, in double.
#include <cmath>
#include <cstdint>

extern "C" void kl_div_ref(const float* p, const float* q, float* loss, int64_t rows, int64_t cols) {
  double total = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* pr = p + r * cols;
    const float* qr = q + r * cols;
    double sp = 0, sq = 0;
    for (int64_t j = 0; j < cols; ++j) { sp += pr[j]; sq += qr[j]; }
    for (int64_t j = 0; j < cols; ++j) {
      const double P = pr[j] / sp, Q = qr[j] / sq;
      total += Q * (std::log(Q) - std::log(P));
    }
  }
  loss[0] = (float)(total / (double)rows);
}

/*@launch
launches:
  - kernel: kl_div_ref
    args: [predictions, targets, loss, i64(B), i64(D)]
@*/
