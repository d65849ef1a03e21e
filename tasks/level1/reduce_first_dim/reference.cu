// GPU reference for column sums, deterministic in two launches:
//  1. grid (column tiles of 256, S row slices): each thread sums one column over its
//     slice (four independent chains; loads coalesced across the warp) into part[s][j];
//  2. one thread per column adds the S partials in order.
// S = min(ceil_div(M, 256), 64) slices, so tall matrices still fill the GPU.
extern "C" __global__ void colsum_partial(const float* __restrict__ x, float* __restrict__ part, int64_t m,
                                          int64_t n, int64_t rows_per) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const int64_t i0 = (int64_t)blockIdx.y * rows_per, i1 = min(m, i0 + rows_per);
  const float* xp = x + j;
  float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;
  int64_t i = i0;
  for (; i + 3 < i1; i += 4) {
    a0 += xp[i * n];
    a1 += xp[(i + 1) * n];
    a2 += xp[(i + 2) * n];
    a3 += xp[(i + 3) * n];
  }
  for (; i < i1; ++i) a0 += xp[i * n];
  part[(int64_t)blockIdx.y * n + j] = (a0 + a1) + (a2 + a3);
}

extern "C" __global__ void colsum_final(const float* __restrict__ part, float* __restrict__ y, int64_t n, int64_t slices) {
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float s = 0.f;
  for (int64_t k = 0; k < slices; ++k) s += part[k * n + j];
  y[j] = s;
}

/*@launch
scratch:
  part: {dtype: f32, count: min(ceil_div(M, 256), 64) * N}
launches:
  - kernel: colsum_partial
    grid: [ceil_div(N, 256), min(ceil_div(M, 256), 64)]
    block: 256
    args: [x, part, i64(M), i64(N), i64(ceil_div(M, min(ceil_div(M, 256), 64)))]
  - kernel: colsum_final
    grid: ceil_div(N, 256)
    block: 256
    args: [part, y, i64(N), i64(min(ceil_div(M, 256), 64))]
@*/
