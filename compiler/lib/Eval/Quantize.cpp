//===- Quantize.cpp - TileLang's quantize library at trace time -----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `tilelang.quantize.get_lop3_intrin_group(...)` returns the name and the
// CUDA source of a BitBLAS decoder that a kernel imports with
// T.import_source and calls with T.call_extern. Its source is inline PTX
// (lop3.b32, sub.f16x2), which only NVIDIA GPUs run; tlc returns its own
// portable source of the same function instead, under the same name, so
// the kernel builds for every target and computes the same values.
//
// What the decoders compute (the PTX's arithmetic): from the 32-bit word w
// at the source pointer, `lop3(w >> 4i, 0x000f000f, 0x64006400)` with
// (a & b) | c puts field i (bits 4i..4i+3) and field i + 4 (bits
// 16+4i..16+4i+3) into the mantissas of two float16 of exponent 1024
// (0x6400), and `sub.f16x2` of 0x6400 (unsigned) or 0x6408 (signed: 1032)
// leaves the field, or the field minus 8. So output 2i is field i and
// output 2i+1 is field i + 4: the order tilelang.quantize.utils'
// interleave_weight stores the weights in.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;

/// tlc's source of decode_i4<u|s>_to_f16: see the file comment.
static std::string decodeI4ToF16Source(llvm::StringRef name, bool isSigned) {
  std::string s;
  s += "// tlc's " + name.str() +
       " (tilelang.quantize.get_lop3_intrin_group): output 2i is bits\n"
       "// 4i..4i+3 of the 32-bit word at src, output 2i+1 bits "
       "16+4i..16+4i+3,\n// ";
  s += isSigned ? "minus 8.\n" : "unsigned.\n";
  s += "template <typename S, typename D>\n__device__ inline void " +
       name.str() +
       "(S *src, D *dst, const int n = 8) {\n"
       "  const unsigned char *b = (const unsigned char *)src;\n"
       "  const unsigned w = unsigned(b[0]) | unsigned(b[1]) << 8 |\n"
       "                     unsigned(b[2]) << 16 | unsigned(b[3]) << 24;\n"
       "  for (int i = 0; i < n / 2; ++i) {\n";
  std::string bias = isSigned ? " - 8" : "";
  s += "    dst[2 * i] = D(float(int((w >> (4 * i)) & 15u)" + bias + "));\n";
  s += "    dst[2 * i + 1] = D(float(int((w >> (16 + 4 * i)) & 15u)" + bias +
       "));\n";
  s += "  }\n}\n";
  return s;
}

std::optional<Value> Interpreter::callQuantizeHelper(llvm::StringRef qualified,
                                                     CallArgs &args, Node at) {
  (void)at;
  if (qualified != "tilelang.quantize.get_lop3_intrin_group" &&
      qualified != "tilelang.quantize.lop3.get_lop3_intrin_group")
    return std::nullopt;
  // The parameters, by position or keyword, with TileLang's defaults.
  static const char *const params[] = {
      "out_dtype",   "source_format", "source_bit", "storage_dtype",
      "with_scaling", "with_zeros",   "zeros_mode", "storage_scope"};
  llvm::StringMap<Value> v;
  v["source_format"] = heap.str("uint");
  v["source_bit"] = Value::integer(4);
  v["storage_dtype"] = heap.str("int8");
  v["with_scaling"] = Value::boolean(false);
  v["with_zeros"] = Value::boolean(false);
  for (auto [i, p] : llvm::enumerate(params))
    if (i < args.pos.size())
      v[p] = args.pos[i];
  for (auto &kv : args.kw)
    v[kv.first] = kv.second;
  auto str = [&](llvm::StringRef p) -> std::string {
    Value x = v.lookup(p);
    if (x.isStr())
      return getStr(x).str();
    if (x.is(ValueKind::DType))
      return x.getDType().getName();
    return "";
  };
  auto isFalse = [&](llvm::StringRef p) {
    Value x = v.lookup(p);
    return x.isIntLike() && x.getInt() == 0;
  };
  // Modelled: 4-bit fields of a 32-bit word to float16, without scales or
  // zeros (the other decoders stay opaque: building a kernel that calls
  // one is an error there).
  std::string format = str("source_format"), storage = str("storage_dtype");
  Value bits = v.lookup("source_bit");
  if (str("out_dtype") != "float16" || !bits.isIntLike() ||
      bits.getInt() != 4 || (format != "uint" && format != "int") ||
      (storage != "int8" && storage != "int32") || !isFalse("with_scaling") ||
      !isFalse("with_zeros"))
    return std::nullopt;
  bool isSigned = format == "int";
  std::string name = isSigned ? "decode_i4s_to_f16" : "decode_i4u_to_f16";
  Value d = heap.dict();
  dictPut(d.as<DictObj>(), heap.str("func_name"), heap.str(name));
  dictPut(d.as<DictObj>(), heap.str("c_source"),
          heap.str(decodeI4ToF16Source(name, isSigned)));
  return d;
}
