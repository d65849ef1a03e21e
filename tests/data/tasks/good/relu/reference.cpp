// Reference ReLU for the task fixture, CPU backend.
extern "C" void relu(const float* x, float* y, long n) {
  for (long i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
}
/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
