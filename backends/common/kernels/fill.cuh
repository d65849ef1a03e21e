// Device-side input generation: the Philox mapping of crucible/philox.h, one
// element per counter, so the result is bit-identical to generate_host() for every
// dtype and distribution. Shared by CUDA and HIP; compiled with contraction off
// (--fmad=false / -ffp-contract=off) although philox.h never relies on that.
#pragma once
#include <crucible/philox.h>

extern "C" __global__ void cru_fill(unsigned char* dst, unsigned long long count, unsigned long long seed,
                                    unsigned int stream, int dtype, int dist, double p0, double p1) {
  const int size = cru_dtype_size(dtype);
  const unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step)
    cru_gen_element(dtype, dist, p0, p1, seed, stream, i, dst + i * (unsigned long long)size);
}
