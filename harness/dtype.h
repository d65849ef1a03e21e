// Element types a task's tensors may have.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace crucible {

enum class Dtype : uint8_t { f32, f16, bf16, f64, i32, i64, u8, boolean };

size_t dtype_size(Dtype);
const char* dtype_name(Dtype);          // "f32", ..., "bool"
std::optional<Dtype> parse_dtype(const std::string&);
bool dtype_is_float(Dtype);
// C type spelled in kernels (with the prelude header): "float", "__half", ...
const char* dtype_c_type(Dtype);

}  // namespace crucible
