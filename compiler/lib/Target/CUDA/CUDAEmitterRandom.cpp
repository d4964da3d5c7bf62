//===- CUDAEmitterRandom.cpp - T.rng_* for the CUDA and HIP targets -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang's per-thread random numbers. A kernel that calls `T.rng_init`
// declares one tlc::PhiloxState at its top (tlc_device/philox.h: curand's
// Philox4x32-10 state and draws, written for every target, so the CPU
// target and the sim device compute the same streams and no curand header
// is needed by NVRTC, nvcc or HIP's clang); `T.rng_init(seed, seq, off)` is
// `curand_init`, `T.rng_rand()` `curand`, `T.rng_rand_float(bit, dist)`
// `curand_uniform`, `curand_uniform_double`, `curand_normal` or
// `curand_normal_double`. The other curand generators TileLang names
// (XORWOW, MRG32k3a) are a build error at the call.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// Whether \p callee is one of TileLang's random-number primitives.
static bool isRngCallee(StringRef callee) {
  return callee == "T.rng_init" || callee == "T.rng_rand" ||
         callee == "T.rng_rand_float";
}

bool Emitter::drawsRandomNumbers(Operation *op) {
  return op
      ->walk([](IntrinsicOp i) {
        return isRngCallee(i.getCallee()) ? WalkResult::interrupt()
                                          : WalkResult::advance();
      })
      .wasInterrupted();
}

void Emitter::declareRngState(KernelOp kernel) {
  rngState.clear();
  if (!drawsRandomNumbers(kernel))
    return;
  rngState = fresh("rng");
  line("tlc::PhiloxState " + rngState + ";  // T.rng_init: Philox4x32-10");
}

std::optional<LogicalResult> Emitter::emitRngIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (!isRngCallee(callee))
    return std::nullopt;
  if (rngState.empty())
    return op.emitError() << callee
                          << " outside a kernel that calls T.rng_init";
  if (callee == "T.rng_init") {
    if (DictionaryAttr d = op.getOptionsAttr())
      if (auto g = d.getAs<StringAttr>("generator"))
        if (g.getValue() != "curandStatePhilox4_32_10_t")
          return op.emitError()
                 << "the " << (lang.isHip() ? "HIP" : "CUDA")
                 << " target implements T.rng_init's "
                    "curandStatePhilox4_32_10_t generator only, not "
                 << g.getValue();
    if (op.getArgs().size() != 3)
      return op.emitError("T.rng_init needs seed, seq and off");
    std::string args;
    for (Value v : op.getArgs())
      args += (args.empty() ? "" : ", ") +
              ("(unsigned long long)(" + expr(v) + ")");
    line(rngState + ".init(" + args + ");");
    return success();
  }
  if (op.getNumResults() != 1)
    return op.emitError() << callee << " needs a result";
  Type t = op.getResult(0).getType();
  FailureOr<std::string> vt = valueType(t, op);
  if (failed(vt))
    return failure();
  std::string draw;
  if (callee == "T.rng_rand") {
    draw = rngState + ".next()";
  } else {
    bool normal = false;
    if (DictionaryAttr d = op.getOptionsAttr())
      if (auto s = d.getAs<StringAttr>("dist"))
        normal = s.getValue() == "normal";
    draw = rngState + (t.isF64()
                           ? (normal ? ".normalDouble()" : ".uniformDouble()")
                           : (normal ? ".normal()" : ".uniform()"));
  }
  line("const " + *vt + " " + define(op.getResult(0), "rnd") + " = (" + *vt +
       ")(" + draw + ");");
  return success();
}
