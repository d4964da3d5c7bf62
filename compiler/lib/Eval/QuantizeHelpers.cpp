//===- QuantizeHelpers.cpp - tlc's model of tilelang.quantize helpers ----===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Dequantizing kernels call the scalar TIR helpers of `tilelang.quantize`
// (`_tir_u8_to_f4_to_bf16`, `_tir_packed_int_to_int_convert`,
// `_tir_f32x2_to_bf16x2_to_u32`, ...): Python functions that build an
// expression of shifts, masks, casts and reinterprets from IR values. tlc
// models them as Python the interpreter runs (QuantizeHelpers.py.inc), in
// the builtins every target generates, so a kernel that decodes with them
// is ordinary Tile IR. The model is run once per evaluation, on the first
// read of one of its names; the other names of tilelang.quantize (the LOP3
// decoder tables, Quantize.cpp) are unaffected.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;

/// The model's source: Python run as module `tilelang.quantize`.
static const char kQuantizeSource[] =
#include "QuantizeHelpers.py.inc"
    ;

std::optional<Value> Interpreter::quantizeAttr(llvm::StringRef module,
                                               llvm::StringRef attr,
                                               Node at) {
  // TileLang moved these helpers to its examples tree
  // (examples/dequantize_gemm/quantize/quantization.py), which its tests
  // import by that dotted path from a checkout's root; where no such
  // directory is next to the analysed file, that path names the same
  // helpers.
  llvm::StringRef pkg = module;
  if (!pkg.consume_front("tilelang.quantize") &&
      !pkg.consume_front("examples.dequantize_gemm.quantize"))
    return std::nullopt;
  if ((!pkg.empty() && pkg != ".quantization") || !attr.starts_with("_tir_"))
    return std::nullopt;
  if (!quantizeModel) {
    auto *m = heap.make<ModuleObj>();
    m->name = "tilelang.quantize";
    m->globals = heap.make<Env>();
    quantizeModel = m;
    runModuleSource(m, kQuantizeSource, "<tlc>/tilelang.quantize.py",
                    /*isPackage=*/true, at);
  }
  auto it = quantizeModel->globals->vars.find(attr);
  if (it == quantizeModel->globals->vars.end())
    return std::nullopt;
  return it->second;
}
