#include "harness/dtype.h"

namespace crucible {

size_t dtype_size(Dtype d) {
  switch (d) {
    case Dtype::f32: case Dtype::i32: return 4;
    case Dtype::f16: case Dtype::bf16: return 2;
    case Dtype::f64: case Dtype::i64: return 8;
    case Dtype::u8: case Dtype::boolean: return 1;
  }
  return 0;
}

const char* dtype_name(Dtype d) {
  switch (d) {
    case Dtype::f32: return "f32";
    case Dtype::f16: return "f16";
    case Dtype::bf16: return "bf16";
    case Dtype::f64: return "f64";
    case Dtype::i32: return "i32";
    case Dtype::i64: return "i64";
    case Dtype::u8: return "u8";
    case Dtype::boolean: return "bool";
  }
  return "?";
}

const char* dtype_c_type(Dtype d) {
  switch (d) {
    case Dtype::f32: return "float";
    case Dtype::f16: return "__half";
    case Dtype::bf16: return "__nv_bfloat16";
    case Dtype::f64: return "double";
    case Dtype::i32: return "int32_t";
    case Dtype::i64: return "int64_t";
    case Dtype::u8: return "uint8_t";
    case Dtype::boolean: return "bool";
  }
  return "?";
}

std::optional<Dtype> parse_dtype(const std::string& s) {
  for (Dtype d : {Dtype::f32, Dtype::f16, Dtype::bf16, Dtype::f64, Dtype::i32, Dtype::i64, Dtype::u8, Dtype::boolean})
    if (s == dtype_name(d)) return d;
  return std::nullopt;
}

bool dtype_is_float(Dtype d) {
  return d == Dtype::f32 || d == Dtype::f16 || d == Dtype::bf16 || d == Dtype::f64;
}

}  // namespace crucible
