// GPU reference for scalar_multiply: C = A * s. The scalar is read once per thread;
// a grid-stride loop over float4s (coalesced 16-byte accesses), then the N % 4 tail.
extern "C" __global__ void scalar_multiply_ref(const float* __restrict__ A, const float* __restrict__ s,
                                               float* __restrict__ C, int64_t n) {
  const float k = s[0];
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t n4 = n / 4;
  const float4* __restrict__ a4 = reinterpret_cast<const float4*>(A);
  float4* __restrict__ c4 = reinterpret_cast<float4*>(C);
  for (int64_t i = t; i < n4; i += stride) {
    float4 v = a4[i];
    v.x *= k; v.y *= k; v.z *= k; v.w *= k;
    c4[i] = v;
  }
  for (int64_t i = n4 * 4 + t; i < n; i += stride) C[i] = A[i] * k;
}

/*@launch
launches:
  - kernel: scalar_multiply_ref
    grid: min(ceil_div(M * N, 1024), sm_count * 8)
    block: 256
    args: [A, s, C, i64(M * N)]
@*/
