//===- CppEmitterRandom.cpp - T.rng_* on the CPU target -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang's per-thread random numbers on the CPU target, with the same
// generators the CUDA and HIP code uses (tlc_device/philox.h, xorwow.h and
// mrg32k3a.h, spliced into the kernel's tlc_cpu.h): a kernel that calls
// `T.rng_init` gets one state of the curand generator it names
// (tlc::PhiloxState, tlc::XorwowState or tlc::Mrg32k3aState) per thread
// where its threads run one by one
// (CppEmitterThreads.cpp), one for the block where it has no per-thread
// code (every thread's generator would start and draw alike). A draw that
// runs once for the block in a block of several threads (inside a
// T.Parallel, whose iterations the GPU layout hands to threads) is
// refused: which stream each value comes from is the GPU's thread
// mapping, which the CPU target does not reproduce.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Target/RngGenerators.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

void Emitter::declareRngStates(tile::KernelOp kernel,
                               const std::string &count) {
  rngStates.clear();
  bool uses = kernel
                  .walk([](tile::IntrinsicOp i) {
                    return isRngCallee(i.getCallee()) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
                  })
                  .wasInterrupted();
  if (!uses)
    return;
  // The first T.rng_init's generator; another one is refused at its call.
  rngGenerator = "curandStatePhilox4_32_10_t";
  kernel.walk([&](tile::IntrinsicOp i) {
    if (i.getCallee() != "T.rng_init")
      return WalkResult::advance();
    rngGenerator = namedRngGenerator(i).str();
    return WalkResult::interrupt();
  });
  StringRef type = rngStateType(rngGenerator);
  rngStates = fresh("rng");
  line("// T.rng_init: one " + rngGenerator + " generator per thread.");
  line("std::vector<" +
       (type.empty() ? StringRef("tlc::PhiloxState") : type).str() + "> " +
       rngStates + "(static_cast<size_t>(" + count + "));");
}

std::optional<LogicalResult> Emitter::emitRngIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (!isRngCallee(callee))
    return std::nullopt;
  if (rngStates.empty())
    return op.emitError() << callee
                          << " outside a kernel that calls T.rng_init";
  std::string state;
  if (inThreadLoop) {
    state = rngStates + "[tlc_t]";
  } else {
    auto kernel = op->getParentOfType<tile::KernelOp>();
    std::optional<int64_t> n = kernel.getStaticNumThreads();
    bool parallel = op->getParentOfType<tile::ParallelOp>() != nullptr;
    if ((threaded || parallel) && n != 1)
      return op.emitError()
             << "the CPU target cannot emit " << callee
             << " run once for a block of several threads (here inside a "
                "T.Parallel): which thread draws each value, and so from "
                "which stream, is the GPU layout's choice; draw in per-thread "
                "code, or use one thread per block";
    state = rngStates + "[0]";
  }
  if (callee == "T.rng_init") {
    StringRef generator = namedRngGenerator(op);
    if (rngStateType(generator).empty())
      return op.emitError() << "the CPU target has no " << generator
                            << " generator (curandStatePhilox4_32_10_t, "
                               "curandStateXORWOW_t, curandStateMRG32k3a_t)";
    if (generator != rngGenerator)
      return op.emitError()
             << "T.rng_init names " << generator
             << " after an earlier T.rng_init of this kernel named "
             << rngGenerator
             << ": one kernel's generator has one curand state type";
    std::string args;
    for (Value v : op.getArgs())
      args += (args.empty() ? "" : ", ") + ("uint64_t(" + expr(v) + ")");
    if (op.getArgs().size() != 3)
      return op.emitError("T.rng_init needs seed, seq and off");
    comment(op, "T.rng_init(seed, seq, off)");
    line(state + ".init(" + args + ");");
    return success();
  }
  if (op->getNumResults() != 1)
    return op.emitError() << callee << " needs a result";
  Type t = op.getResult(0).getType();
  FailureOr<std::string> rt = valueType(t, op);
  if (failed(rt))
    return failure();
  std::string draw;
  if (callee == "T.rng_rand") {
    draw = state + ".next()";
  } else {
    bool normal = false;
    if (auto d = op.getOptionsAttr())
      if (auto s = d.getAs<StringAttr>("dist"))
        normal = s.getValue() == "normal";
    draw =
        state + (t.isF64() ? (normal ? ".normalDouble()" : ".uniformDouble()")
                           : (normal ? ".normal()" : ".uniform()"));
  }
  line("const " + *rt + " " + define(op.getResult(0), "rnd") + " = " + *rt +
       "(" + draw + ");");
  return success();
}
