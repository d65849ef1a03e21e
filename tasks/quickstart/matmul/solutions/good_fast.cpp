// Correct and fast: i-k-j loop order (B and C read along rows), four rows of C at a time
// so every loaded piece of B is used four times, and the j loop eight floats at a time
// with a GCC/Clang vector type (SIMD whatever the optimisation level).
#include <cstdint>

typedef float v8f __attribute__((vector_size(32)));

static inline v8f load8(const float* p) { v8f v; __builtin_memcpy(&v, p, sizeof v); return v; }
static inline void store8(float* p, v8f v) { __builtin_memcpy(p, &v, sizeof v); }

// C[rows r0 .. r0+R) = A[rows] · B, for R <= 4.
template <int R>
static void rows(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                 int64_t r0, int64_t K, int64_t N) {
  float* c[R];
  for (int r = 0; r < R; ++r) {
    c[r] = C + (r0 + r) * N;
    for (int64_t j = 0; j < N; ++j) c[r][j] = 0.f;
  }
  for (int64_t k = 0; k < K; ++k) {
    float a[R];
    for (int r = 0; r < R; ++r) a[r] = A[(r0 + r) * K + k];
    const float* b = B + k * N;
    int64_t j = 0;
    for (; j + 8 <= N; j += 8) {
      const v8f bv = load8(b + j);
      for (int r = 0; r < R; ++r) store8(c[r] + j, load8(c[r] + j) + a[r] * bv);
    }
    for (; j < N; ++j)
      for (int r = 0; r < R; ++r) c[r][j] += a[r] * b[j];
  }
}

extern "C" void matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                       int64_t M, int64_t K, int64_t N) {
  int64_t i = 0;
  for (; i + 4 <= M; i += 4) rows<4>(A, B, C, i, K, N);
  for (; i < M; ++i) rows<1>(A, B, C, i, K, N);
}

/*@launch
launches:
  - kernel: matmul
    args: [A, B, C, i64(M), i64(K), i64(N)]
@*/
