// GPU reference for the depthwise 2-D convolution: a 32 x 8 block computes a 32 x 32
// output tile of one (n, c) plane (4 rows per thread). It stages the (32 + K - 1)^2 input
// patch (coalesced rows) and the channel's K x K filter in shared memory once, so each
// input value is read from DRAM about once. Grid: [spatial tiles, planes].
#define DW_TW 32
#define DW_TH 32
#define DW_BY 8

extern "C" __global__ void __launch_bounds__(DW_TW * DW_BY) dwconv_ref(const float* __restrict__ x, const float* __restrict__ w,
                                                                       float* __restrict__ y, int64_t c, int64_t h,
                                                                       int64_t wd, int64_t k) {
  extern __shared__ float smem[];
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  const int64_t sw = DW_TW + k - 1, sh = DW_TH + k - 1;
  float* xs = smem;            // [sh][sw]
  float* ws = smem + sh * sw;  // [k][k]
  const int64_t tiles_w = (ow + DW_TW - 1) / DW_TW;
  const int64_t y0 = (int64_t)(blockIdx.x / tiles_w) * DW_TH, x0 = (int64_t)(blockIdx.x % tiles_w) * DW_TW;
  const int64_t p = blockIdx.y;
  const int tid = threadIdx.y * DW_TW + threadIdx.x;
  const float* xp = x + p * h * wd;
  for (int64_t e = tid; e < sh * sw; e += DW_TW * DW_BY) {
    const int64_t a = e / sw, b = e % sw;
    xs[e] = (y0 + a < h && x0 + b < wd) ? xp[(y0 + a) * wd + x0 + b] : 0.f;
  }
  for (int64_t e = tid; e < k * k; e += DW_TW * DW_BY) ws[e] = w[(p % c) * k * k + e];
  __syncthreads();
  float acc[DW_TH / DW_BY];
  for (int r = 0; r < DW_TH / DW_BY; ++r) acc[r] = 0.f;
  for (int64_t a = 0; a < k; ++a)
    for (int64_t b = 0; b < k; ++b) {
      const float wv = ws[a * k + b];
      for (int r = 0; r < DW_TH / DW_BY; ++r)
        acc[r] += wv * xs[(threadIdx.y + r * DW_BY + a) * sw + threadIdx.x + b];
    }
  const int64_t oj = x0 + threadIdx.x;
  for (int r = 0; r < DW_TH / DW_BY; ++r) {
    const int64_t oi = y0 + threadIdx.y + r * DW_BY;
    if (oi < oh && oj < ow) y[(p * oh + oi) * ow + oj] = acc[r];
  }
}

/*@launch
launches:
  - kernel: dwconv_ref
    grid: [ceil_div(H - K + 1, 32) * ceil_div(W - K + 1, 32), N * C]
    block: [32, 8]
    smem: 4 * ((32 + K - 1) * (32 + K - 1) + K * K)
    args: [x, w, y, i64(C), i64(H), i64(W), i64(K)]
@*/
