//===- CUDAEmitterRandom.cpp - T.rng_* for the CUDA and HIP targets -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang's per-thread random numbers. A kernel that calls `T.rng_init`
// declares one generator state at its top, of the curand generator its
// `T.rng_init` names: tlc::PhiloxState (tlc_device/philox.h, the default
// curandStatePhilox4_32_10_t), tlc::XorwowState (xorwow.h,
// curandStateXORWOW_t) or tlc::Mrg32k3aState (mrg32k3a.h,
// curandStateMRG32k3a_t): curand's states and draws written for every
// target, so the CPU target and the sim device compute the same streams and
// no curand header is needed by NVRTC, nvcc or HIP's clang.
// `T.rng_init(seed, seq, off)` is `curand_init`, `T.rng_rand()` `curand`,
// `T.rng_rand_float(bit, dist)` `curand_uniform`, `curand_uniform_double`,
// `curand_normal` or `curand_normal_double`. One kernel's `T.rng_init`
// calls name one generator (its state has one type).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Target/RngGenerators.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

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
  // The first T.rng_init's generator; another one is refused at its call.
  rngGenerator = "curandStatePhilox4_32_10_t";
  kernel.walk([&](IntrinsicOp i) {
    if (i.getCallee() != "T.rng_init")
      return WalkResult::advance();
    rngGenerator = namedRngGenerator(i).str();
    return WalkResult::interrupt();
  });
  StringRef type = rngStateType(rngGenerator);
  rngState = fresh("rng");
  line((type.empty() ? StringRef("tlc::PhiloxState") : type).str() + " " +
       rngState + ";  // T.rng_init: " + rngGenerator);
}

std::optional<LogicalResult> Emitter::emitRngIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (!isRngCallee(callee))
    return std::nullopt;
  if (rngState.empty())
    return op.emitError() << callee
                          << " outside a kernel that calls T.rng_init";
  if (callee == "T.rng_init") {
    StringRef generator = namedRngGenerator(op);
    if (rngStateType(generator).empty())
      return op.emitError() << "the " << (lang.isHip() ? "HIP" : "CUDA")
                            << " target has no " << generator
                            << " generator (curandStatePhilox4_32_10_t, "
                               "curandStateXORWOW_t, curandStateMRG32k3a_t)";
    if (generator != rngGenerator)
      return op.emitError()
             << "T.rng_init names " << generator
             << " after an earlier T.rng_init of this kernel named "
             << rngGenerator
             << ": one kernel's generator has one curand state type";
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
