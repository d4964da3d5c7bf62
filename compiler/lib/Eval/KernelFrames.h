//===- KernelFrames.h - Kernel-level builders (private) ---------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the files of the kernel-level T.* primitives (Allocations.cpp,
// KernelFrames.cpp, KernelOps.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_KERNELFRAMES_H
#define TLC_LIB_EVAL_KERNELFRAMES_H

#include "Primitives.h"

namespace tlc::eval {

/// `T.Tensor(shape, dtype)` and friends used as a type (Allocations.cpp).
Value makeTensorType(Interpreter &in, const PArgs &p, lang::MemoryScope scope);
/// T.auto_alloc: an allocation in the scope its uses imply (AutoScope.cpp).
Value autoAllocate(Interpreter &in, const PArgs &p);
/// A loop frame of \p kind from (start, stop, step) arguments
/// (KernelFrames.cpp).
Value makeRangeLoop(Interpreter &in, const PArgs &p, LoopKind kind);
/// Whether \p b's shape is not static only through parameters no call site
/// gave a value, in an instance no call traced (KernelFrames.cpp).
bool shapeFromUncalledParams(Interpreter &in, BufferObj *b);
/// T.Parallel(..., loop_layout=F): F, a T.Fragment over the loop's
/// iterations (its input shape the extents), decides which thread runs
/// each iteration, and so the layouts of the fragments the loop touches
/// (layout inference pins the loop's `loop_layout`, as TileLang prefers a
/// user annotation to every other source). What is not such a fragment is
/// an error at the argument; a fragment tlc cannot evaluate is a warning
/// (KernelFrames.cpp).
void setParallelLoopLayout(Interpreter &in, LoopFrameObj &loop, Value f,
                           syntax::Node arg);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_KERNELFRAMES_H
