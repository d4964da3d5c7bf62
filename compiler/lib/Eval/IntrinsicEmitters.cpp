//===- IntrinsicEmitters.cpp - tlc's model of tilelang.intrinsics ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TileLang programs that write a GEMM by hand use the emitter objects of
// `tilelang.intrinsics` (`TensorCoreIntrinEmitter`: ldmatrix_a/_b, mma,
// stmatrix) and its layout helpers (`get_swizzle_layout`,
// `make_mma_swizzle_layout`). tlc models them as Python the interpreter
// runs (IntrinsicEmitters.py.inc): each method writes, for the calling
// thread, the elements the PTX fragment layouts give its lane, and `mma`
// gathers the other lanes' operands with T.shfl_sync, so the kernels are
// ordinary Tile IR every target builds. The model is run once per
// evaluation, on the first read of one of the names below; the other
// names of those modules stay unmodelled (Primitives.cpp).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;

/// The model's source: Python run as module `tilelang.intrinsics`.
static const char kModelSource[] =
#include "IntrinsicEmitters.py.inc"
    ;

/// The names each module of `tilelang.intrinsics` takes from the model.
static bool isModelledName(llvm::StringRef module, llvm::StringRef attr) {
  bool emitter = attr == "TensorCoreIntrinEmitter";
  bool layouts =
      attr == "get_swizzle_layout" || attr == "make_mma_swizzle_layout";
  if (module == "tilelang.intrinsics")
    return emitter || layouts || attr == "mma_store_index_map";
  if (module == "tilelang.intrinsics.mma_macro_generator")
    return emitter;
  if (module == "tilelang.intrinsics.utils")
    return layouts || attr == "mma_store_index_map";
  if (module == "tilelang.intrinsics.mma_layout")
    return layouts;
  return false;
}

std::optional<Value> Interpreter::intrinsicsAttr(llvm::StringRef module,
                                                 llvm::StringRef attr,
                                                 Node at) {
  if (!isModelledName(module, attr))
    return std::nullopt;
  if (!intrinsicsModel) {
    auto *m = heap.make<ModuleObj>();
    m->name = "tilelang.intrinsics";
    m->globals = heap.make<Env>();
    intrinsicsModel = m;
    runModuleSource(m, kModelSource, "<tlc>/tilelang.intrinsics.py",
                    /*isPackage=*/true, at);
  }
  auto it = intrinsicsModel->globals->vars.find(attr);
  if (it == intrinsicsModel->globals->vars.end())
    return std::nullopt;
  return it->second;
}
