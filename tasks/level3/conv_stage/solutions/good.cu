// Correct candidate: the reference kernels, resubmitted as a candidate.
// GPU reference for conv_stage: two shared-memory tiled direct 3x3 convolutions with ReLU fused
// (16 x 16 outputs x 8 channels per block), then a coalesced 2x2 max-pool pass.
#define NEG_BIG (-3.402823466e+38f)

__device__ __forceinline__ float gelu_f(float v) { return 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); }
__device__ __forceinline__ float sigmoid_f(float v) { return 1.f / (1.f + expf(-v)); }
__device__ __forceinline__ float softplus_f(float v) { return v > 20.f ? v : log1pf(expf(v)); }
__device__ __forceinline__ float mish_f(float v) { return v * tanhf(softplus_f(v)); }

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v += cru_shfl_xor(v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = CRU_WARP_SIZE / 2; o > 0; o >>= 1) v = fmaxf(v, cru_shfl_xor(v, o));
  return v;
}
// Block-wide reductions; every thread gets the result. sh holds one float per warp.
__device__ float block_sum(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_sum(lane < warps ? sh[lane] : 0.f);
  __syncthreads();
  return v;
}
__device__ float block_max(float v, float* sh) {
  const int lane = threadIdx.x % CRU_WARP_SIZE, warp = threadIdx.x / CRU_WARP_SIZE;
  const int warps = (blockDim.x + CRU_WARP_SIZE - 1) / CRU_WARP_SIZE;
  v = warp_max(v);
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  v = warp_max(lane < warps ? sh[lane] : NEG_BIG);
  __syncthreads();
  return v;
}

extern "C" __global__ void conv_relu(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ cb,
                                  float* __restrict__ y, int Ci, int H, int W, int Co, int Ho, int Wo, int P) {
  __shared__ float xs[18][19];
  __shared__ float ws[8][9];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int tiles_x = (Wo + 15) / 16;
  const int ox0 = (blockIdx.x % tiles_x) * 16, oy0 = (blockIdx.x / tiles_x) * 16;
  const int co0 = blockIdx.y * 8, n = blockIdx.z;
  float acc[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  for (int ci = 0; ci < Ci; ++ci) {
    const float* xc = x + ((int64_t)n * Ci + ci) * H * W;
    for (int i = tid; i < 18 * 18; i += 256) {
      const int iy = oy0 - P + i / 18, ix = ox0 - P + i % 18;
      xs[i / 18][i % 18] = (iy >= 0 && iy < H && ix >= 0 && ix < W) ? xc[(int64_t)iy * W + ix] : 0.f;
    }
    if (tid < 72) {
      const int cc = tid / 9, co = co0 + cc;
      ws[cc][tid % 9] = co < Co ? w[((int64_t)co * Ci + ci) * 9 + tid % 9] : 0.f;
    }
    __syncthreads();
    for (int ky = 0; ky < 3; ++ky)
      for (int kx = 0; kx < 3; ++kx) {
        const float xv = xs[ty + ky][tx + kx];
        for (int cc = 0; cc < 8; ++cc) acc[cc] = fmaf(xv, ws[cc][ky * 3 + kx], acc[cc]);
      }
    __syncthreads();
  }
  const int oy = oy0 + ty, ox = ox0 + tx;
  if (oy < Ho && ox < Wo)
    for (int cc = 0; cc < 8; ++cc) {
      const int co = co0 + cc;
      if (co < Co) {
        const float v = acc[cc] + cb[co];
        y[(((int64_t)n * Co + co) * Ho + oy) * Wo + ox] = fmaxf(v, 0.f);
      }
    }
}
extern "C" __global__ void maxpool2(const float* __restrict__ u, float* __restrict__ y, int64_t planes, int H, int W) {
  const int Hp = H / 2, Wp = W / 2;
  const int64_t n = planes * Hp * Wp, stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int j = (int)(i % Wp), r = (int)((i / Wp) % Hp);
    const float* q = u + (i / ((int64_t)Hp * Wp)) * H * W + (int64_t)(2 * r) * W + 2 * j;
    y[i] = fmaxf(fmaxf(q[0], q[1]), fmaxf(q[W], q[W + 1]));
  }
}

/*@launch
scratch:
  t: {dtype: f32, count: Nb * Co * H * W}
  u: {dtype: f32, count: Nb * Co * H * W}
launches:
- kernel: conv_relu
  grid: [ceil_div(W, 16) * ceil_div(H, 16), ceil_div(Co, 8), Nb]
  block: [16, 16]
  args: [x, w1, b1, t, i32(Ci), i32(H), i32(W), i32(Co), i32(H), i32(W), i32(1)]
- kernel: conv_relu
  grid: [ceil_div(W, 16) * ceil_div(H, 16), ceil_div(Co, 8), Nb]
  block: [16, 16]
  args: [t, w2, b2, u, i32(Co), i32(H), i32(W), i32(Co), i32(H), i32(W), i32(1)]
- kernel: maxpool2
  grid: min(ceil_div(Nb * Co * (H / 2) * (W / 2), 256), sm_count * 8)
  block: 256
  args: [u, y, i64(Nb * Co), i32(H), i32(W)]
@*/
