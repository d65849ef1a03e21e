// Task inputs on the host: the same Philox mapping as the device fills
// (backends/common/include/crucible/philox.h, docs/inputs.md), so host and device
// inputs for a seed are identical bit for bit; plus the per-run seed mix and the
// small element conversions the CPU comparison needs.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "harness/device.h"
#include "harness/dtype.h"

namespace crucible {

// Distribution names as task.yaml spells them ("normal", "uniform", "randint",
// "bernoulli", "constant") <-> CRU_DIST_* ids.
std::optional<int> parse_dist(const std::string& name);
const char* dist_name(int dist);

// Throws InputError when the spec cannot be generated: unknown distribution,
// negative or non-finite std, uniform bounds not finite, randint bounds not
// integers below 2^53 or high <= low, bernoulli probability outside [0, 1].
void check_fill_spec(const FillSpec&);

// Fills dst with spec.count elements of spec.dtype (dtype_size bytes each).
// Parallel over chunks; the result does not depend on the thread count.
void generate_host(const FillSpec&, void* dst);
// Elements [first, first + count) of the same sequence, written to dst[0..count).
void generate_host_range(const FillSpec&, uint64_t first, uint64_t count, void* dst);

// Steele, Lea & Flood's splitmix64 finaliser (the one java.util.SplittableRandom uses):
// a bijective 64-bit mix in which every input bit changes about half the output bits.
uint64_t splitmix64(uint64_t z);

// A per-run secret seed for one public seed and one shape: a splitmix64 chain, so
// every input bit changes about half the output bits.
uint64_t mix_seed(uint64_t run_secret, uint64_t public_seed, uint64_t shape_index);

// Exact widening of half / bfloat16 bits; RNE narrowing (overflow to inf, NaN kept).
float half_to_float(uint16_t);
float bf16_to_float(uint16_t);
uint16_t float_to_half(float);
uint16_t float_to_bf16(float);

// Element i of an array of `dtype`, as a double (exact for every dtype but i64
// beyond 2^53).
double element_as_double(Dtype, const void* base, uint64_t i);

}  // namespace crucible
