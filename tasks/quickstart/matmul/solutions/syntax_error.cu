// Does not compile: a type error (a float4 assigned to a float) and an undeclared name.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int K, int N) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
  C[i * N + j] = acc + undeclared_bias;
}

/*@launch
launches:
  - kernel: matmul
    grid: [ceil_div(N, 16), ceil_div(M, 16)]
    block: [16, 16]
    args: [A, B, C, i32(M), i32(K), i32(N)]
@*/
