/* Crucible's input generator: Philox-4x32-10 plus distributions and dtype
 * conversions that give bit-identical values on the host (g++/clang++), in CUDA
 * (NVRTC/nvcc) and in HIP (hiprtc/hipcc). docs/inputs.md states the mapping.
 *
 * Why every operation is spelled out: library transcendentals (log, cos, sqrt on
 * AMD) differ in the last bit between glibc, CUDA and ROCm, and compilers fuse
 * a*b+c into an fma when allowed. So the mapping from counter to value uses only
 * integer operations and the exactly rounded IEEE double operations + - * and fma,
 * written through CRU_ADD/CRU_SUB/CRU_MUL/CRU_FMA, which no compiler may contract:
 *   CUDA device: __dadd_rn/__dsub_rn/__dmul_rn/__fma_rn (never fused by nvcc/NVRTC);
 *   HIP device:  products pass an empty inline asm, so clang cannot fuse them;
 *   host:        the same asm barrier on x86-64 and aarch64 (GCC, Clang); other
 *                hosts rely on -ffp-contract=off, which builds should pass anyway
 *                (harness: crucible_core does).
 * Division and square root are our own Newton iterations on fma, because AMD's
 * f64 sqrt is not exactly rounded on every ROCm. Do not compile this header with
 * fast-math (-ffast-math, -use_fast_math is harmless: it only affects float).
 *
 * Plain C-style C++: no std headers under NVRTC/hiprtc. */
#ifndef CRUCIBLE_PHILOX_H
#define CRUCIBLE_PHILOX_H

/* ---- compilation targets ---- */
#if defined(__CUDA_ARCH__)
#define CRU_DEVICE_CUDA 1
#elif defined(__HIP_DEVICE_COMPILE__)
#define CRU_DEVICE_HIP 1
#endif

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__CUDACC_RTC__) || defined(__HIPCC_RTC__)
#define CRU_HD __host__ __device__ inline
#else
#define CRU_HD inline
#endif

typedef unsigned int cru_u32;
typedef unsigned long long cru_u64;
typedef long long cru_i64;

/* ---- ids shared with harness/dtype.h (enum order) and harness/device.h (FillSpec) ---- */
#define CRU_DTYPE_F32 0
#define CRU_DTYPE_F16 1
#define CRU_DTYPE_BF16 2
#define CRU_DTYPE_F64 3
#define CRU_DTYPE_I32 4
#define CRU_DTYPE_I64 5
#define CRU_DTYPE_U8 6
#define CRU_DTYPE_BOOL 7

#define CRU_DIST_NORMAL 0    /* p0 = mean, p1 = std */
#define CRU_DIST_UNIFORM 1   /* p0 = low, p1 = high */
#define CRU_DIST_RANDINT 2   /* integers in [p0, p1) */
#define CRU_DIST_BERNOULLI 3 /* 1 with probability p0, else 0 */
#define CRU_DIST_CONSTANT 4  /* p0 */

/* ---- Philox-4x32-10 (Salmon et al. 2011; Random123's constants and key schedule) ---- */
#define CRU_PHILOX_M0 0xD2511F53u
#define CRU_PHILOX_M1 0xCD9E8D57u
#define CRU_PHILOX_W0 0x9E3779B9u
#define CRU_PHILOX_W1 0xBB67AE85u
#define CRU_COUNTER_TAG 0x43525543u /* counter word 3: "CRUC" */

CRU_HD void cru_philox4x32_10(const cru_u32 ctr[4], const cru_u32 key[2], cru_u32 out[4]) {
  cru_u32 c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  cru_u32 k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += CRU_PHILOX_W0;
      k1 += CRU_PHILOX_W1;
    }
    cru_u64 p0 = (cru_u64)CRU_PHILOX_M0 * c0;
    cru_u64 p1 = (cru_u64)CRU_PHILOX_M1 * c2;
    cru_u32 n0 = (cru_u32)(p1 >> 32) ^ c1 ^ k0;
    cru_u32 n1 = (cru_u32)p1;
    cru_u32 n2 = (cru_u32)(p0 >> 32) ^ c3 ^ k1;
    cru_u32 n3 = (cru_u32)p0;
    c0 = n0; c1 = n1; c2 = n2; c3 = n3;
  }
  out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

/* The four words for element `index` of stream `stream` under `seed`. */
CRU_HD void cru_philox_words(cru_u64 seed, cru_u32 stream, cru_u64 index, cru_u32 out[4]) {
  cru_u32 key[2] = {(cru_u32)seed, (cru_u32)(seed >> 32)};
  cru_u32 ctr[4] = {(cru_u32)index, (cru_u32)(index >> 32), stream, CRU_COUNTER_TAG};
  cru_philox4x32_10(ctr, key, out);
}

/* ---- bit casts ---- */
#if defined(CRU_DEVICE_CUDA)
CRU_HD cru_u64 cru_d2u(double x) { return (cru_u64)__double_as_longlong(x); }
CRU_HD double cru_u2d(cru_u64 b) { return __longlong_as_double((long long)b); }
CRU_HD cru_u32 cru_f2u(float x) { return (cru_u32)__float_as_uint(x); }
CRU_HD float cru_u2f(cru_u32 b) { return __uint_as_float(b); }
#elif defined(__GNUC__) || defined(__clang__)
CRU_HD cru_u64 cru_d2u(double x) { cru_u64 b; __builtin_memcpy(&b, &x, 8); return b; }
CRU_HD double cru_u2d(cru_u64 b) { double x; __builtin_memcpy(&x, &b, 8); return x; }
CRU_HD cru_u32 cru_f2u(float x) { cru_u32 b; __builtin_memcpy(&b, &x, 4); return b; }
CRU_HD float cru_u2f(cru_u32 b) { float x; __builtin_memcpy(&x, &b, 4); return x; }
#else
CRU_HD cru_u64 cru_d2u(double x) { union { double d; cru_u64 u; } c; c.d = x; return c.u; }
CRU_HD double cru_u2d(cru_u64 b) { union { double d; cru_u64 u; } c; c.u = b; return c.d; }
CRU_HD cru_u32 cru_f2u(float x) { union { float f; cru_u32 u; } c; c.f = x; return c.u; }
CRU_HD float cru_u2f(cru_u32 b) { union { float f; cru_u32 u; } c; c.u = b; return c.f; }
#endif

/* ---- exactly rounded double operations that no compiler may fuse ---- */
#if defined(CRU_DEVICE_CUDA)
#define CRU_ADD(a, b) __dadd_rn((a), (b))
#define CRU_SUB(a, b) __dsub_rn((a), (b))
#define CRU_MUL(a, b) __dmul_rn((a), (b))
#define CRU_FMA(a, b, c) __fma_rn((a), (b), (c))
#else
#if defined(CRU_DEVICE_HIP)
/* The empty asm hides the product from the optimizer: no fma can absorb it. */
CRU_HD double cru_opaque(double x) { __asm__("" : "+v"(x)); return x; }
#define CRU_OPAQUE(x) cru_opaque(x)
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
/* Always on: clang -mfma does not define __FP_FAST_FMA, and an xmm register
 * constraint costs nothing. */
CRU_HD double cru_opaque(double x) { __asm__("" : "+x"(x)); return x; }
#define CRU_OPAQUE(x) cru_opaque(x)
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
CRU_HD double cru_opaque(double x) { __asm__("" : "+w"(x)); return x; }
#define CRU_OPAQUE(x) cru_opaque(x)
#else
#define CRU_OPAQUE(x) (x)
#endif
#define CRU_ADD(a, b) ((a) + (b))
#define CRU_SUB(a, b) ((a) - (b))
#define CRU_MUL(a, b) CRU_OPAQUE((a) * (b))
#if defined(__GNUC__) || defined(__clang__)
#define CRU_FMA(a, b, c) __builtin_fma((a), (b), (c))
#else
#define CRU_FMA(a, b, c) fma((a), (b), (c)) /* include <math.h> first */
#endif
#endif

/* ---- constants (decimal literals with 17 significant digits: exact doubles) ---- */
#define CRU_PI_2 1.5707963267948966          /* 0x3FF921FB54442D18 */
#define CRU_LN2_HI 0.69314670562744141       /* 0x3FE62E4200000000: 21 bits, e*hi exact */
#define CRU_LN2_LO 4.7493250390316726e-07    /* 0x3E9FDF473DE6AF28 = ln2 - hi */
#define CRU_SQRT2_BITS 0x3FF6A09E667F3BCDull /* sqrt(2) */

/* 1/b for positive normal b (not near the overflow threshold): magic-constant
 * estimate, five Newton steps on fma. */
CRU_HD double cru_recip(double b) {
  double r = cru_u2d(0x7FDE623822FC16E6ull - cru_d2u(b));
  for (int i = 0; i < 5; ++i) {
    double e = CRU_FMA(-b, r, 1.0);
    r = CRU_FMA(r, e, r);
  }
  return r;
}

/* a/b for positive normal b: a*(1/b) with one remainder correction (Markstein). */
CRU_HD double cru_div(double a, double b) {
  double r = cru_recip(b);
  double q = CRU_MUL(a, r);
  double rem = CRU_FMA(-q, b, a);
  return CRU_FMA(rem, r, q);
}

/* sqrt(x): inverse square root by Newton from a magic estimate, then one
 * remainder correction of x*r. Zero stays zero; negative or NaN gives NaN. */
CRU_HD double cru_sqrt(double x) {
  cru_u64 b = cru_d2u(x);
  if (x == 0.0) return x;
  if (!(x > 0.0)) return cru_u2d(0x7FF8000000000000ull);
  if ((b >> 52) == 0x7FF) return x; /* +inf */
  double scale = 1.0;
  if ((b >> 52) == 0) { /* subnormal: scale by 2^54, result by 2^-27 */
    x = CRU_MUL(x, 18014398509481984.0);
    b = cru_d2u(x);
    scale = 7.450580596923828125e-09;
  }
  double r = cru_u2d(0x5FE6EB50C7B537A9ull - (b >> 1));
  double hx = CRU_MUL(0.5, x);
  for (int i = 0; i < 5; ++i) {
    double rr = CRU_MUL(r, r);
    double e = CRU_FMA(-hx, rr, 0.5);
    r = CRU_FMA(r, e, r);
  }
  double s = CRU_MUL(x, r);
  double rem = CRU_FMA(-s, s, x);
  s = CRU_FMA(rem, CRU_MUL(0.5, r), s);
  return CRU_MUL(s, scale);
}

/* Natural log. x = 2^e * m with m in [sqrt(1/2), sqrt(2)); f = m - 1 (exact);
 * s = f/(2+f); log(m) = 2 atanh(s) = f - (f^2/2 - s*(f^2/2 + R)) with
 * R = sum_{k>=1} 2 s^(2k) / (2k+1) to k = 11; then + e*ln2 in two parts. */
CRU_HD double cru_log(double x) {
  cru_u64 b = cru_d2u(x);
  if (x == 0.0) return cru_u2d(0xFFF0000000000000ull); /* -inf */
  if (!(x > 0.0)) return cru_u2d(0x7FF8000000000000ull);
  if ((b >> 52) == 0x7FF) return x;
  int e = 0;
  if ((b >> 52) == 0) { /* subnormal */
    x = CRU_MUL(x, 18014398509481984.0);
    b = cru_d2u(x);
    e = -54;
  }
  e += (int)(b >> 52) - 1023;
  cru_u64 mb = (b & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;
  if (mb > CRU_SQRT2_BITS) { /* m in (sqrt 2, 2): use m/2 */
    mb = (b & 0x000FFFFFFFFFFFFFull) | 0x3FE0000000000000ull;
    e += 1;
  }
  double m = cru_u2d(mb);
  double f = CRU_SUB(m, 1.0);
  double s = cru_div(f, CRU_ADD(2.0, f));
  double z = CRU_MUL(s, s);
  double p = 0.086956521739130432; /* 2/23 */
  p = CRU_FMA(p, z, 0.095238095238095233);
  p = CRU_FMA(p, z, 0.10526315789473684);
  p = CRU_FMA(p, z, 0.11764705882352941);
  p = CRU_FMA(p, z, 0.13333333333333333);
  p = CRU_FMA(p, z, 0.15384615384615385);
  p = CRU_FMA(p, z, 0.18181818181818182);
  p = CRU_FMA(p, z, 0.22222222222222221);
  p = CRU_FMA(p, z, 0.2857142857142857);
  p = CRU_FMA(p, z, 0.40000000000000002);
  p = CRU_FMA(p, z, 0.66666666666666663); /* 2/3 */
  double R = CRU_MUL(z, p);
  double hfsq = CRU_MUL(CRU_MUL(0.5, f), f);
  double de = (double)e;
  double t = CRU_FMA(s, CRU_ADD(hfsq, R), CRU_MUL(de, CRU_LN2_LO));
  return CRU_ADD(CRU_MUL(de, CRU_LN2_HI), CRU_SUB(f, CRU_SUB(hfsq, t)));
}

/* Taylor polynomials on |x| <= pi/4 (truncation below 1e-19). */
CRU_HD double cru_sin_poly(double x) {
  double z = CRU_MUL(x, x);
  double p = 2.8114572543455206e-15; /* 1/17! */
  p = CRU_FMA(p, z, -7.6471637318198164e-13);
  p = CRU_FMA(p, z, 1.6059043836821613e-10);
  p = CRU_FMA(p, z, -2.505210838544172e-08);
  p = CRU_FMA(p, z, 2.7557319223985893e-06);
  p = CRU_FMA(p, z, -0.00019841269841269841);
  p = CRU_FMA(p, z, 0.0083333333333333332);
  p = CRU_FMA(p, z, -0.16666666666666666); /* -1/3! */
  return CRU_FMA(CRU_MUL(x, z), p, x);
}

CRU_HD double cru_cos_poly(double x) {
  double z = CRU_MUL(x, x);
  double p = -1.5619206968586225e-16; /* -1/18! */
  p = CRU_FMA(p, z, 4.7794773323873853e-14);
  p = CRU_FMA(p, z, -1.1470745597729725e-11);
  p = CRU_FMA(p, z, 2.08767569878681e-09);
  p = CRU_FMA(p, z, -2.7557319223985888e-07);
  p = CRU_FMA(p, z, 2.4801587301587302e-05);
  p = CRU_FMA(p, z, -0.0013888888888888889);
  p = CRU_FMA(p, z, 0.041666666666666664); /* 1/4! */
  double hz = CRU_MUL(0.5, z);
  double w = CRU_SUB(1.0, hz);
  /* (1 - w) - hz recovers the rounding error of w exactly (Sterbenz). */
  double corr = CRU_SUB(CRU_SUB(1.0, w), hz);
  return CRU_ADD(w, CRU_FMA(CRU_MUL(z, z), p, corr));
}

/* cos(2*pi*u) and sin(2*pi*u). The argument is reduced in turns, which is
 * exact: t = 4u, q = nearest integer, f = t - q in [-1/2, 1/2], so
 * 2*pi*u = (pi/2)(q + f) and only x = f*pi/2 is rounded. |u| >= 2^52 is an
 * integer: sin 0, cos 1; inf and NaN give NaN. */
CRU_HD void cru_sincos2pi(double u, double* sin_out, double* cos_out) {
  if (!(u < 4503599627370496.0 && u > -4503599627370496.0)) {
    int finite = ((cru_d2u(u) >> 52) & 0x7FF) != 0x7FF;
    *sin_out = finite ? 0.0 : cru_u2d(0x7FF8000000000000ull);
    *cos_out = finite ? 1.0 : cru_u2d(0x7FF8000000000000ull);
    return;
  }
  double t = CRU_MUL(4.0, u);
  cru_i64 q = (cru_i64)t; /* toward zero, exact */
  double f = CRU_SUB(t, (double)q);
  if (f > 0.5) { f = CRU_SUB(f, 1.0); q += 1; }
  else if (f < -0.5) { f = CRU_ADD(f, 1.0); q -= 1; }
  double x = CRU_MUL(f, CRU_PI_2);
  double s = cru_sin_poly(x), c = cru_cos_poly(x);
  switch ((int)(q & 3)) {
    case 0: *sin_out = s; *cos_out = c; break;
    case 1: *sin_out = c; *cos_out = -s; break;
    case 2: *sin_out = -s; *cos_out = -c; break;
    default: *sin_out = -c; *cos_out = s; break;
  }
}

CRU_HD double cru_cos2pi(double u) {
  double s, c;
  cru_sincos2pi(u, &s, &c);
  return c;
}

/* ---- uniforms ---- */
/* (2m+1) * 2^-53 with m the 52 bits (a << 20) | (b >> 12): exactly representable,
 * strictly inside (0, 1), symmetric about 1/2. */
CRU_HD double cru_u01(cru_u32 a, cru_u32 b) {
  cru_u64 m = ((cru_u64)a << 20) | (cru_u64)(b >> 12);
  return CRU_MUL((double)(2 * m + 1), 1.1102230246251565e-16); /* 2^-53 */
}

/* Standard normal by Box-Muller: sqrt(-2 ln u1) * cos(2 pi u2); u1 from words
 * 0,1, u2 from words 2,3. Tails reach about 8.57. */
CRU_HD double cru_std_normal(const cru_u32 w[4]) {
  double u1 = cru_u01(w[0], w[1]);
  double u2 = cru_u01(w[2], w[3]);
  double r = cru_sqrt(CRU_MUL(-2.0, cru_log(u1)));
  return CRU_MUL(r, cru_cos2pi(u2));
}

/* Integer in [low, high): low + ((w0 | w1 << 32) mod (high - low)). The modulo
 * bias is below range/2^64, negligible for any range a task uses. high <= low
 * gives low. Bounds are doubles holding integers with |value| < 2^63. */
CRU_HD cru_i64 cru_randint(const cru_u32 w[4], double low, double high) {
  cru_i64 lo = (cru_i64)low, hi = (cru_i64)high;
  if (hi <= lo) return lo;
  cru_u64 range = (cru_u64)hi - (cru_u64)lo;
  cru_u64 x = (cru_u64)w[0] | ((cru_u64)w[1] << 32);
  return (cru_i64)((cru_u64)lo + x % range);
}

/* ---- rounding to narrower floats, round to nearest even, on bits ---- */
/* Rounds the double with bits `b` to a binary format with `ebits` exponent bits
 * and `mbits` fraction bits (f32: 8,23; f16: 5,10; bf16: 8,7). Overflow gives
 * inf, underflow gives subnormals or a signed zero, NaN gives the quiet NaN
 * with the input's sign. */
CRU_HD cru_u32 cru_round_f64_bits(cru_u64 b, int ebits, int mbits) {
  cru_u32 sign = (cru_u32)(b >> 63) << (ebits + mbits);
  int E = (int)((b >> 52) & 0x7FF);
  cru_u64 F = b & 0x000FFFFFFFFFFFFFull;
  cru_u32 emax = (1u << ebits) - 1u;
  if (E == 0x7FF) return sign | (emax << mbits) | (F ? (1u << (mbits - 1)) : 0u);
  if (E == 0) return sign; /* zero or f64 subnormal: below half the least subnormal */
  int bias = (1 << (ebits - 1)) - 1;
  int te = E - 1023 + bias;
  if (te >= (int)emax) return sign | (emax << mbits);
  cru_u64 m = F | (1ull << 52);
  int shift = 52 - mbits;
  cru_u64 q;
  if (te >= 1) {
    q = ((cru_u64)te << mbits) | (F >> shift);
  } else {
    shift += 1 - te; /* into the subnormal range */
    if (shift > 60) return sign;
    q = m >> shift;
  }
  cru_u64 rem = (te >= 1 ? F : m) & ((1ull << shift) - 1);
  cru_u64 half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q += 1; /* a carry may reach inf: correct */
  return sign | (cru_u32)q;
}

/* Exact float -> double on bits (a device's ftz mode cannot flush subnormals). */
CRU_HD cru_u64 cru_f32_bits_to_f64_bits(cru_u32 u) {
  cru_u64 sign = (cru_u64)(u >> 31) << 63;
  int E = (int)((u >> 23) & 0xFF);
  cru_u64 F = u & 0x7FFFFFu;
  if (E == 0xFF) return sign | 0x7FF0000000000000ull | (F << 29);
  if (E == 0) {
    if (F == 0) return sign;
    int e = -126;
    while (!(F & 0x800000u)) { F <<= 1; --e; }
    return sign | ((cru_u64)(e + 1023) << 52) | ((F & 0x7FFFFFu) << 29);
  }
  return sign | ((cru_u64)(E - 127 + 1023) << 52) | (F << 29);
}

CRU_HD cru_u32 cru_f64_to_f32_bits(double v) { return cru_round_f64_bits(cru_d2u(v), 8, 23); }
CRU_HD unsigned short cru_f64_to_f16_bits(double v) { return (unsigned short)cru_round_f64_bits(cru_d2u(v), 5, 10); }
CRU_HD unsigned short cru_f64_to_bf16_bits(double v) { return (unsigned short)cru_round_f64_bits(cru_d2u(v), 8, 7); }
CRU_HD unsigned short cru_f32_to_f16_bits(float v) {
  return (unsigned short)cru_round_f64_bits(cru_f32_bits_to_f64_bits(cru_f2u(v)), 5, 10);
}
CRU_HD unsigned short cru_f32_to_bf16_bits(float v) {
  return (unsigned short)cru_round_f64_bits(cru_f32_bits_to_f64_bits(cru_f2u(v)), 8, 7);
}

/* Exact widening of f16 / bf16 bits to f32 bits. */
CRU_HD cru_u32 cru_f16_bits_to_f32_bits(unsigned short h) {
  cru_u32 sign = (cru_u32)(h >> 15) << 31;
  int E = (h >> 10) & 0x1F;
  cru_u32 F = h & 0x3FFu;
  if (E == 0x1F) return sign | 0x7F800000u | (F << 13);
  if (E == 0) {
    if (F == 0) return sign;
    int e = -14;
    while (!(F & 0x400u)) { F <<= 1; --e; }
    return sign | ((cru_u32)(e + 127) << 23) | ((F & 0x3FFu) << 13);
  }
  return sign | ((cru_u32)(E - 15 + 127) << 23) | (F << 13);
}
CRU_HD cru_u32 cru_bf16_bits_to_f32_bits(unsigned short h) { return (cru_u32)h << 16; }

/* ---- the value and the element ---- */
/* floor(v) saturated to [lo, hi]; NaN gives 0. */
CRU_HD cru_i64 cru_floor_sat(double v, cru_i64 lo, cru_i64 hi) {
  if (!(v == v)) return 0;
  if (v <= (double)lo) return lo;
  if (v >= (double)hi) return hi;
  cru_i64 t = (cru_i64)v;
  if ((double)t > v) t -= 1;
  return t;
}

/* The distribution's value for one element. Integer distributions (randint,
 * bernoulli) set *is_int and *ival; the others return the double. */
CRU_HD double cru_gen_value(int dist, double p0, double p1, cru_u64 seed, cru_u32 stream,
                            cru_u64 index, int* is_int, cru_i64* ival) {
  *is_int = 0;
  *ival = 0;
  if (dist == CRU_DIST_CONSTANT) return p0;
  cru_u32 w[4];
  cru_philox_words(seed, stream, index, w);
  switch (dist) {
    case CRU_DIST_NORMAL:
      return CRU_ADD(p0, CRU_MUL(p1, cru_std_normal(w)));
    case CRU_DIST_UNIFORM:
      return CRU_ADD(p0, CRU_MUL(CRU_SUB(p1, p0), cru_u01(w[0], w[1])));
    case CRU_DIST_RANDINT:
      *is_int = 1;
      *ival = cru_randint(w, p0, p1);
      return (double)*ival;
    case CRU_DIST_BERNOULLI:
      *is_int = 1;
      *ival = cru_u01(w[0], w[1]) < p0 ? 1 : 0;
      return (double)*ival;
    default:
      return p0;
  }
}

CRU_HD int cru_dtype_size(int dtype) {
  switch (dtype) {
    case CRU_DTYPE_F32: case CRU_DTYPE_I32: return 4;
    case CRU_DTYPE_F16: case CRU_DTYPE_BF16: return 2;
    case CRU_DTYPE_F64: case CRU_DTYPE_I64: return 8;
    case CRU_DTYPE_U8: case CRU_DTYPE_BOOL: return 1;
    default: return 0;
  }
}

/* Writes element `index` (dtype_size bytes) to out_element. Float dtypes round
 * the double to nearest even; integer dtypes take integer distributions as
 * they are and floor() the others, saturating to the type's range; bool is
 * value != 0. An unknown dtype writes nothing. */
CRU_HD void cru_gen_element(int dtype, int dist, double p0, double p1, cru_u64 seed,
                            cru_u32 stream, cru_u64 index, void* out_element) {
  int is_int;
  cru_i64 iv;
  double v = cru_gen_value(dist, p0, p1, seed, stream, index, &is_int, &iv);
  switch (dtype) {
    case CRU_DTYPE_F32: *(cru_u32*)out_element = cru_f64_to_f32_bits(v); break;
    case CRU_DTYPE_F16: *(unsigned short*)out_element = cru_f64_to_f16_bits(v); break;
    case CRU_DTYPE_BF16: *(unsigned short*)out_element = cru_f64_to_bf16_bits(v); break;
    case CRU_DTYPE_F64: *(double*)out_element = v; break;
    case CRU_DTYPE_I32: {
      cru_i64 lo = -2147483647LL - 1, hi = 2147483647LL;
      cru_i64 x = is_int ? (iv < lo ? lo : iv > hi ? hi : iv) : cru_floor_sat(v, lo, hi);
      *(int*)out_element = (int)x;
      break;
    }
    case CRU_DTYPE_I64:
      *(cru_i64*)out_element =
          is_int ? iv : cru_floor_sat(v, -9223372036854775807LL - 1, 9223372036854775807LL);
      break;
    case CRU_DTYPE_U8: {
      cru_i64 x = is_int ? (iv < 0 ? 0 : iv > 255 ? 255 : iv) : cru_floor_sat(v, 0, 255);
      *(unsigned char*)out_element = (unsigned char)x;
      break;
    }
    case CRU_DTYPE_BOOL:
      *(unsigned char*)out_element = (unsigned char)((is_int ? iv != 0 : v != 0.0) ? 1 : 0);
      break;
    default: break;
  }
}

#endif /* CRUCIBLE_PHILOX_H */
