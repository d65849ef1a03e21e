// The CPU backend's device-side building blocks of verification, on host memory:
// the order-independent checksum and the element-wise comparison of an output with
// the reference (CompareStats), parallel with oneTBB for large buffers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "harness/device.h"

namespace crucible {

// Exact conversions of the 16-bit float formats (every value, subnormals, Inf, NaN).
float half_bits_to_float(uint16_t h);
float bf16_bits_to_float(uint16_t b);

// Sum over 8-byte words of a mix of (word, word index), plus the length: any split of
// the work gives the same value, and moving bytes changes it.
uint64_t host_checksum(const void* data, size_t bytes);

// See CompareStats: |out - ref| <= atol + rtol*|ref| on finite pairs; a NaN matches a
// NaN reference; NaN/Inf where the reference is finite is a mismatch and `nonfinite`;
// an element whose bytes are all 0xFF (the poison) where the reference's are not is
// `unwritten` (for floats it is also a NaN, so it counts in `nonfinite` too).
// Integer dtypes compare exactly when atol = rtol = 0; bool compares truth values.
CompareStats host_compare(const void* out, const void* ref, Dtype dtype, uint64_t count, const Tolerance& tol);

}  // namespace crucible
