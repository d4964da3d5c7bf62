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
// `tilelang.quantize.get_mxfp_intrin_group(out_dtype, source_format,
// source_bit, storage_dtype, use_twiddling, target)` returns the same two
// keys for a decoder of OCP E2M1 (FP4) codes to bfloat16, without the
// block's scale (the kernel multiplies by it). Its functions take
// (src, dst, n) and decode n groups of four bytes into 8n values:
//
// * decode_fp4_to_bf16_twiddling (TileLang's CUDA decoder, inline PTX:
//   prmt, and/shl/shr masks, mul.bf16x2 by 2^126): the bytes b0..b3 of
//   group g form the 16-bit halves h0 = b0 << 8 | b1 and h1 = b2 << 8 | b3,
//   four codes each, whose bits are spread over the half (the order
//   Triton's Hopper value layout shuffles the weights into): code j takes
//   its sign from bit 15, 12, 9 or 14, its two exponent bits from bits
//   8:7, 5:4, 2:1 or 11:10 and its mantissa bit from bit 6, 3, 0 or 13.
//   Output 8g + j is code j of h0, output 8g + 4 + j code j of h1.
// * decode_fp4_to_bf16 (TileLang's gfx950 decoder): byte b of group g
//   holds output 8g + b in its low nibble and 8g + 4 + b in its high one,
//   each nibble the code s e1 e0 m from its high bit down.
//
// An E2M1 code with exponent e and mantissa m is 0.5 m for e = 0 and
// 2^(e-1) (1 + 0.5 m) otherwise, negated by the sign: exact in bfloat16.
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

/// The statement that decodes the E2M1 code of sign bit \p s, exponent
/// bits \p e (two, low one first in the shift) and mantissa bit \p m of the
/// unsigned `w` into `dst[\p index]`.
static std::string decodeE2M1(llvm::StringRef index, llvm::StringRef s,
                              llvm::StringRef e, llvm::StringRef m) {
  return ("      dst[" + index + "] = D(tlc_e2m1((w >> " + s +
          ") & 1u, (w >> " + e + ") & 3u, (w >> " + m + ") & 1u));\n")
      .str();
}

/// tlc's source of the E2M1 decoder \p name of get_mxfp_intrin_group
/// (\p twiddled: the twiddling one): see the file comment.
static std::string decodeFp4ToBf16Source(llvm::StringRef name, bool twiddled) {
  std::string s = "// tlc's " + name.str() +
                  " (tilelang.quantize.get_mxfp_intrin_group): E2M1 codes "
                  "to bfloat16,\n// 8 per group of 4 bytes, without the "
                  "block's scale.\n";
  s += "__device__ inline float tlc_e2m1(unsigned s, unsigned e, unsigned "
       "m) {\n"
       "  const float v = e == 0u ? 0.5f * float(m)\n"
       "                          : 0.5f * float(1u << e) * (1.0f + 0.5f * "
       "float(m));\n"
       "  return s ? -v : v;\n"
       "}\n";
  s += "template <typename S, typename D>\n__device__ inline void " +
       name.str() +
       "(S *src, D *dst, const int n = 8) {\n"
       "  for (int g = 0; g < n; ++g) {\n"
       "    const unsigned char *b = (const unsigned char *)&src[4 * g];\n";
  if (twiddled) {
    // Four codes per 16-bit half, their bits spread over it.
    s += "    for (int h = 0; h < 2; ++h) {\n"
         "      const unsigned w = unsigned(b[2 * h]) << 8 | unsigned(b[2 * "
         "h + 1]);\n";
    s += decodeE2M1("8 * g + 4 * h", "15", "7", "6");
    s += decodeE2M1("8 * g + 4 * h + 1", "12", "4", "3");
    s += decodeE2M1("8 * g + 4 * h + 2", "9", "1", "0");
    s += decodeE2M1("8 * g + 4 * h + 3", "14", "10", "13");
    s += "    }\n";
  } else {
    // Two codes per byte, the low nibble first.
    s += "    for (int i = 0; i < 4; ++i) {\n"
         "      const unsigned w = unsigned(b[i]);\n";
    s += decodeE2M1("8 * g + i", "3", "1", "0");
    s += decodeE2M1("8 * g + 4 + i", "7", "5", "4");
    s += "    }\n";
  }
  s += "  }\n}\n";
  return s;
}

/// The arguments of a tilelang.quantize helper with parameters \p params:
/// \p v holds the defaults and receives the call's values.
static void bindQuantizeArgs(llvm::ArrayRef<const char *> params,
                             CallArgs &args, llvm::StringMap<Value> &v) {
  for (auto [i, p] : llvm::enumerate(params))
    if (i < args.pos.size())
      v[p] = args.pos[i];
  for (auto &kv : args.kw)
    v[kv.first] = kv.second;
}

/// `get_mxfp_intrin_group(...)`: the FP4-to-bfloat16 decoders (file
/// comment); nullopt for the requests tlc does not model (they stay
/// objects from outside TileLang).
static std::optional<Value> mxfpIntrinGroup(Interpreter &in, CallArgs &args,
                                            Node at) {
  static const char *const params[] = {"out_dtype",     "source_format",
                                       "source_bit",    "storage_dtype",
                                       "use_twiddling", "target"};
  llvm::StringMap<Value> v;
  v["out_dtype"] = in.heap.str("bfloat16");
  v["source_format"] = in.heap.str("uint");
  v["source_bit"] = Value::integer(4);
  v["storage_dtype"] = in.heap.str("uint8");
  v["use_twiddling"] = Value::boolean(false);
  v["target"] = Value::none();
  bindQuantizeArgs(params, args, v);
  auto str = [&](llvm::StringRef p) -> std::string {
    Value x = v.lookup(p);
    if (x.isStr())
      return getStr(x).str();
    if (x.is(ValueKind::DType))
      return x.getDType().getName();
    return "";
  };
  Value bits = v.lookup("source_bit"), twiddling = v.lookup("use_twiddling");
  std::string out = str("out_dtype"), storage = str("storage_dtype");
  if (out != "bfloat16" || !bits.isIntLike() || bits.getInt() != 4 ||
      !twiddling.isIntLike() ||
      (storage != "uint8" && storage != "int8" && storage != "int32"))
    return std::nullopt;
  bool twiddled = twiddling.getInt() != 0;
  // TileLang has the plain decoder for gfx950 targets only; with no target
  // its CUDA table has no key 'fp4_to_bf16'.
  if (!twiddled && v.lookup("target").isNone())
    return in.raiseDefinite("KeyError", "'fp4_to_bf16'", at);
  std::string name =
      twiddled ? "decode_fp4_to_bf16_twiddling" : "decode_fp4_to_bf16";
  Value d = in.heap.dict();
  in.dictPut(d.as<DictObj>(), in.heap.str("func_name"), in.heap.str(name));
  in.dictPut(d.as<DictObj>(), in.heap.str("c_source"),
             in.heap.str(decodeFp4ToBf16Source(name, twiddled)));
  return d;
}

std::optional<Value> Interpreter::callQuantizeHelper(llvm::StringRef qualified,
                                                     CallArgs &args, Node at) {
  if (qualified == "tilelang.quantize.get_mxfp_intrin_group" ||
      qualified == "tilelang.quantize.mxfp.get_mxfp_intrin_group")
    return mxfpIntrinGroup(*this, args, at);
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
  bindQuantizeArgs(params, args, v);
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
