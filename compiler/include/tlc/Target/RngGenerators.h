//===- RngGenerators.h - TileLang's random-number primitives ---*- C++ -*-===//
//
// Part of tlc. The facts about `T.rng_*` that the CUDA/HIP and CPU printers
// share: which calls are random-number primitives, the curand state type a
// `T.rng_init` names, and the tlc_device generator that implements it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_RNGGENERATORS_H
#define TLC_TARGET_RNGGENERATORS_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

namespace tlc::target {

/// Whether \p callee is one of TileLang's random-number primitives.
inline bool isRngCallee(llvm::StringRef callee) {
  return callee == "T.rng_init" || callee == "T.rng_rand" ||
         callee == "T.rng_rand_float";
}

/// The curand state type \p init (a `T.rng_init`) names: its `generator`
/// option, Philox by default (TileLang's default).
inline llvm::StringRef namedRngGenerator(tile::IntrinsicOp init) {
  if (mlir::DictionaryAttr d = init.getOptionsAttr())
    if (auto g = d.getAs<mlir::StringAttr>("generator"))
      return g.getValue();
  return "curandStatePhilox4_32_10_t";
}

/// The tlc_device type of curand's state type \p generator, or "" when tlc
/// has none.
inline llvm::StringRef rngStateType(llvm::StringRef generator) {
  return llvm::StringSwitch<llvm::StringRef>(generator)
      .Case("curandStatePhilox4_32_10_t", "tlc::PhiloxState")
      .Case("curandStateXORWOW_t", "tlc::XorwowState")
      .Case("curandStateMRG32k3a_t", "tlc::Mrg32k3aState")
      .Default("");
}

} // namespace tlc::target

#endif // TLC_TARGET_RNGGENERATORS_H
