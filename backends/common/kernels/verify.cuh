// Device-side verification: an order-independent checksum of a buffer's bytes, and
// the output-versus-reference comparison reduced to a small summary on the device
// (only the summary crosses to the host). Semantics are those of harness/device.h's
// CompareStats, identical on every backend. Shared by CUDA and HIP; compiled with
// contraction off so atol + rtol*|ref| rounds as on the host.
#pragma once
#include <crucible/philox.h>

#define CRU_REDUCE_THREADS 256  // the block size every reduction kernel is launched with

// The summary's layout; the host reads it as 10 unsigned 64-bit words.
struct CruCompareSummary {
  unsigned long long mismatches;
  unsigned long long nonfinite;
  unsigned long long unwritten;
  unsigned long long max_abs_bits;   // non-negative doubles order as their bits
  unsigned long long max_rel_bits;
  unsigned long long first_mismatch; // ~0: none
  unsigned long long out_min_key;    // cru_order_key of the smallest finite output; ~0: none
  unsigned long long out_max_key;    // of the largest; 0: none
  unsigned long long finite_outputs;
  unsigned long long reserved;
};

__device__ inline unsigned long long cru_mix64(unsigned long long x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Doubles mapped to unsigned integers of the same order (negative below positive).
__device__ inline unsigned long long cru_order_key(double d) {
  unsigned long long b = cru_d2u(d);
  return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
}

struct CruSum {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a + b; }
};
struct CruMax {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a > b ? a : b; }
};
struct CruMin {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a < b ? a : b; }
};

// Tree reduction in shared memory (portable across warp sizes); every thread gets the result.
template <class Op>
__device__ inline unsigned long long cru_block_reduce(unsigned long long v, Op op, unsigned long long* sh) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = CRU_REDUCE_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = op(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  unsigned long long r = sh[0];
  __syncthreads();
  return r;
}

// Sum over 8-byte words of mix(word, word index), plus the tail and the length: the
// same value as the CPU backend's host_checksum, independent of the order in which
// threads run, dependent on every byte and its place.
extern "C" __global__ void cru_checksum(const unsigned char* p, unsigned long long bytes, unsigned long long* result) {
  __shared__ unsigned long long sh[CRU_REDUCE_THREADS];
  const unsigned long long words = bytes / 8;
  const unsigned long long* w = (const unsigned long long*)p;
  const unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  const unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long acc = 0;
  for (unsigned long long i = tid; i < words; i += step)
    acc += cru_mix64(w[i] ^ cru_mix64(i + 0x9E3779B97F4A7C15ull));
  if (tid == 0) {
    if (bytes % 8) {
      unsigned long long tail = 0;  // little-endian, as memcpy into a u64 on the host
      for (unsigned long long k = 0; k < bytes % 8; ++k) tail |= (unsigned long long)p[words * 8 + k] << (8 * k);
      acc += cru_mix64(tail ^ cru_mix64(words + 0x9E3779B97F4A7C15ull) ^ 0xA5A5A5A5ull);
    }
  }
  acc = cru_block_reduce(acc, CruSum(), sh);
  if (threadIdx.x == 0) atomicAdd(result, acc);
}

// Element i of a buffer of `dtype`, widened exactly to double; *poison is set when
// every byte of the element is 0xFF (the pattern outputs are filled with before a run).
__device__ inline double cru_load_element(const unsigned char* p, unsigned long long i, int dtype, bool* poison,
                                          unsigned long long* raw) {
  switch (dtype) {
    case CRU_DTYPE_F32: {
      cru_u32 b = ((const cru_u32*)p)[i];
      *poison = b == 0xFFFFFFFFu;
      *raw = b;
      return cru_u2d(cru_f32_bits_to_f64_bits(b));
    }
    case CRU_DTYPE_F16: {
      unsigned short b = ((const unsigned short*)p)[i];
      *poison = b == 0xFFFF;
      *raw = b;
      return cru_u2d(cru_f32_bits_to_f64_bits(cru_f16_bits_to_f32_bits(b)));
    }
    case CRU_DTYPE_BF16: {
      unsigned short b = ((const unsigned short*)p)[i];
      *poison = b == 0xFFFF;
      *raw = b;
      return cru_u2d(cru_f32_bits_to_f64_bits(cru_bf16_bits_to_f32_bits(b)));
    }
    case CRU_DTYPE_F64: {
      cru_u64 b = ((const cru_u64*)p)[i];
      *poison = b == ~0ull;
      *raw = b;
      return cru_u2d(b);
    }
    case CRU_DTYPE_I32: {
      int v = ((const int*)p)[i];
      *poison = v == -1;
      *raw = (cru_u32)v;
      return (double)v;
    }
    case CRU_DTYPE_I64: {
      long long v = ((const long long*)p)[i];
      *poison = v == -1;
      *raw = (cru_u64)v;
      return (double)v;
    }
    case CRU_DTYPE_BOOL: {  // truth values: any non-zero byte is true
      unsigned char v = p[i];
      *poison = v == 0xFF;
      *raw = v != 0;
      return v != 0 ? 1.0 : 0.0;
    }
    default: {  // u8
      unsigned char v = p[i];
      *poison = v == 0xFF;
      *raw = v;
      return (double)v;
    }
  }
}

__device__ inline bool cru_isnan(double x) { return x != x; }
__device__ inline bool cru_isinf(double x) { return (cru_d2u(x) & 0x7FFFFFFFFFFFFFFFull) == 0x7FF0000000000000ull; }
__device__ inline double cru_fabs(double x) { return cru_u2d(cru_d2u(x) & 0x7FFFFFFFFFFFFFFFull); }

// Float dtypes: an element matches when |out - ref| <= atol + rtol*|ref|; where ref
// is NaN, out must be NaN; where ref is +-Inf, out must equal it; NaN/Inf where ref
// is finite is a mismatch counted as nonfinite. Integer dtypes compare exactly when
// atol = rtol = 0 (i64 beyond 2^53 too), else with the same tolerance; bool compares
// truth values. Unwritten: the output element's bytes are all 0xFF, the reference's
// not. As the CPU backend's host_compare.
extern "C" __global__ void cru_compare(const unsigned char* out, const unsigned char* ref, unsigned long long count,
                                       int dtype, double atol, double rtol, CruCompareSummary* s) {
  __shared__ unsigned long long sh[CRU_REDUCE_THREADS];
  const unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
  const bool is_int = dtype == CRU_DTYPE_I32 || dtype == CRU_DTYPE_I64 || dtype == CRU_DTYPE_U8 || dtype == CRU_DTYPE_BOOL;
  const bool exact = atol == 0.0 && rtol == 0.0;
  unsigned long long mism = 0, nonfin = 0, unwr = 0, finite = 0;
  unsigned long long max_abs = 0, max_rel = 0, first = ~0ull, omin = ~0ull, omax = 0;
  for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
    bool opois, rpois;
    unsigned long long oraw, rraw;
    double o = cru_load_element(out, i, dtype, &opois, &oraw);
    double r = cru_load_element(ref, i, dtype, &rpois, &rraw);
    if (opois && !rpois) ++unwr;
    bool bad = false;
    const bool o_finite = !cru_isnan(o) && !cru_isinf(o);
    if (is_int) {
      double a = cru_fabs(CRU_SUB(o, r));
      unsigned long long db = cru_d2u(a);
      if (db > max_abs) max_abs = db;
      if (r != 0.0) {
        unsigned long long rb = cru_d2u(a / cru_fabs(r));
        if (rb > max_rel) max_rel = rb;
      }
      bad = exact ? oraw != rraw : a > CRU_ADD(atol, CRU_MUL(rtol, cru_fabs(r)));
    } else if (cru_isnan(r)) {
      bad = !cru_isnan(o);
    } else if (cru_isinf(r)) {
      bad = !(o == r);
    } else if (!o_finite) {
      bad = true;
      ++nonfin;
    } else {
      double a = cru_fabs(CRU_SUB(o, r));
      unsigned long long db = cru_d2u(a);
      if (db > max_abs) max_abs = db;
      if (r != 0.0) {
        unsigned long long rb = cru_d2u(a / cru_fabs(r));
        if (rb > max_rel) max_rel = rb;
      }
      bad = a > CRU_ADD(atol, CRU_MUL(rtol, cru_fabs(r)));
    }
    if (o_finite) {
      unsigned long long k = cru_order_key(o);
      if (k < omin) omin = k;
      if (k > omax) omax = k;
      ++finite;
    }
    if (bad) {
      ++mism;
      if (i < first) first = i;
    }
  }
  mism = cru_block_reduce(mism, CruSum(), sh);
  nonfin = cru_block_reduce(nonfin, CruSum(), sh);
  unwr = cru_block_reduce(unwr, CruSum(), sh);
  finite = cru_block_reduce(finite, CruSum(), sh);
  max_abs = cru_block_reduce(max_abs, CruMax(), sh);
  max_rel = cru_block_reduce(max_rel, CruMax(), sh);
  first = cru_block_reduce(first, CruMin(), sh);
  omin = cru_block_reduce(omin, CruMin(), sh);
  omax = cru_block_reduce(omax, CruMax(), sh);
  if (threadIdx.x == 0) {
    if (mism) atomicAdd(&s->mismatches, mism);
    if (nonfin) atomicAdd(&s->nonfinite, nonfin);
    if (unwr) atomicAdd(&s->unwritten, unwr);
    if (finite) atomicAdd(&s->finite_outputs, finite);
    if (max_abs) atomicMax(&s->max_abs_bits, max_abs);
    if (max_rel) atomicMax(&s->max_rel_bits, max_rel);
    if (first != ~0ull) atomicMin(&s->first_mismatch, first);
    if (omin != ~0ull) atomicMin(&s->out_min_key, omin);
    if (omax) atomicMax(&s->out_max_key, omax);
  }
}
