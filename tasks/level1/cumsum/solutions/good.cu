// Correct GPU candidate (portable: cru_syncwarp from the prelude): one warp per row; the warp walks the row
// 32 elements at a time, scans them with a shared-memory Hillis-Steele scan and carries
// the running total.
extern "C" __global__ void cumsum_warp(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t len) {
  __shared__ float sh[8][64];
  const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  const int64_t row = (int64_t)blockIdx.x * 8 + w;
  if (row >= rows) return;
  const float* xr = x + row * len;
  float* yr = y + row * len;
  float carry = 0.f;
  for (int64_t base = 0; base < len; base += 32) {
    const int64_t j = base + lane;
    float v = j < len ? xr[j] : 0.f;
    // Hillis-Steele scan through a double-buffered shared array (warp-synchronous steps).
    int cur = 0;
    sh[w][lane] = v;
    cru_syncwarp();
    for (int d = 1; d < 32; d <<= 1) {
      const float add = lane >= d ? sh[w][cur * 32 + lane - d] : 0.f;
      sh[w][(1 - cur) * 32 + lane] = sh[w][cur * 32 + lane] + add;
      cru_syncwarp();
      cur = 1 - cur;
    }
    v = sh[w][cur * 32 + lane];
    if (j < len) yr[j] = carry + v;
    carry += sh[w][cur * 32 + 31];
    cru_syncwarp();
  }
}

/*@launch
launches:
  - kernel: cumsum_warp
    grid: ceil_div(B, 8)
    block: 256
    args: [x, y, i64(B), i64(L)]
@*/
