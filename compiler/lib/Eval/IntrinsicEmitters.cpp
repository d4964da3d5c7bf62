//===- IntrinsicEmitters.cpp - tlc's model of tilelang.intrinsics ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TileLang programs that write a GEMM by hand use the emitter objects of
// `tilelang.intrinsics` (`TensorCoreIntrinEmitter`: ldmatrix_a/_b, mma,
// stmatrix), the atom-level Hopper and Blackwell ones
// (`WGMMATensorCoreIntrinEmitter`, `TCGEN05TensorCoreIntrinEmitter`:
// IntrinsicEmittersSM90.py.inc, each atom a T.gemm of the slices it reads)
// and its layout helpers (`get_swizzle_layout`, `make_mma_swizzle_layout`). tlc models them as Python the interpreter
// runs (IntrinsicEmitters.py.inc): each method writes, for the calling
// thread, the elements the PTX fragment layouts give its lane, and `mma`
// gathers the other lanes' operands with T.shfl_sync, so the kernels are
// ordinary Tile IR every target builds. The AMD emitters (MFMA, DCU's
// MMAC; IntrinsicEmittersAMD.py.inc) do the same over wavefronts of 64
// with shuffles of width 64 (the CPU target), except that the MFMA one
// issues T.tvm_mfma, the instruction itself, when building for HIP. The
// model is run once per evaluation, on the first read of one of the names
// below; the other names of those modules stay unmodelled (ModuleAttrs.cpp).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;

/// The model's source: Python run as module `tilelang.intrinsics`.
static const char kModelSource[] =
#include "IntrinsicEmitters.py.inc"
#include "IntrinsicEmittersSM90.py.inc"
#include "IntrinsicEmittersAMD.py.inc"
    ;

/// The model's name for \p attr of \p module of `tilelang.intrinsics`, or
/// "" when tlc does not model it. DCU's emitter has the MFMA one's class
/// name in its own module.
static llvm::StringRef modelledName(llvm::StringRef module,
                                    llvm::StringRef attr) {
  bool emitter = attr == "TensorCoreIntrinEmitter";
  bool layouts =
      attr == "get_swizzle_layout" || attr == "make_mma_swizzle_layout";
  bool amdLayouts =
      attr == "make_mfma_swizzle_layout" || attr == "mfma_store_index_map";
  bool known = false;
  bool atomEmitter = attr == "WGMMATensorCoreIntrinEmitter" ||
                     attr == "TCGEN05TensorCoreIntrinEmitter";
  if (module == "tilelang.intrinsics")
    known = emitter || atomEmitter || layouts ||
            attr == "mma_store_index_map" ||
            attr == "make_mfma_swizzle_layout";
  else if (module == "tilelang.intrinsics.mma_macro_generator")
    known = emitter;
  else if (module == "tilelang.intrinsics.wgmma_macro_generator")
    return emitter ? "WGMMATensorCoreIntrinEmitter" : llvm::StringRef();
  else if (module == "tilelang.intrinsics.tcgen05_macro_generator")
    return emitter ? "TCGEN05TensorCoreIntrinEmitter" : llvm::StringRef();
  else if (module == "tilelang.intrinsics.utils")
    known = layouts || amdLayouts || attr == "mma_store_index_map";
  else if (module == "tilelang.intrinsics.mma_layout")
    known = layouts;
  else if (module == "tilelang.intrinsics.mfma_layout")
    known = attr == "make_mfma_swizzle_layout";
  else if (module == "tilelang.intrinsics.mfma_macro_generator")
    known = attr == "MatrixCoreIntrinEmitter" ||
            attr == "MatrixCorePreshuffleIntrinEmitter" ||
            attr == "mfma_store_index_map";
  else if (module == "tilelang.intrinsics.mmac_macro_generator") {
    if (attr == "MatrixCoreIntrinEmitter")
      return "_MMACIntrinEmitter";
    known = attr == "mfma_store_index_map";
  }
  return known ? attr : llvm::StringRef();
}

std::optional<Value> Interpreter::intrinsicsAttr(llvm::StringRef module,
                                                 llvm::StringRef attr,
                                                 Node at) {
  llvm::StringRef name = modelledName(module, attr);
  if (name.empty())
    return std::nullopt;
  if (!intrinsicsModel) {
    auto *m = heap.make<ModuleObj>();
    m->name = "tilelang.intrinsics";
    m->globals = heap.make<Env>();
    intrinsicsModel = m;
    runModuleSource(m, kModelSource, "<tlc>/tilelang.intrinsics.py",
                    /*isPackage=*/true, at);
  }
  auto it = intrinsicsModel->globals->vars.find(name);
  if (it == intrinsicsModel->globals->vars.end())
    return std::nullopt;
  return it->second;
}
