// Correct GPU candidate: one thread per (b, position), straightforward loops, 1/sqrt in
// full precision.
extern "C" __global__ void rmsnorm(const float* __restrict__ x, float* __restrict__ y, int64_t b,
                                   int64_t f, int64_t hw, float eps) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= b * hw) return;
  const int64_t n = i / hw, s = i % hw;
  const float* xp = x + n * f * hw + s;
  float acc = 0.f;
  for (int64_t c = 0; c < f; ++c) acc += xp[c * hw] * xp[c * hw];
  const float inv = 1.f / sqrtf(acc / (float)f + eps);
  for (int64_t c = 0; c < f; ++c) y[n * f * hw + c * hw + s] = xp[c * hw] * inv;
}

/*@launch
launches:
  - kernel: rmsnorm
    grid: ceil_div(B * H * W, 128)
    block: 128
    args: [x, y, i64(B), i64(F), i64(H * W), f32(eps)]
@*/
