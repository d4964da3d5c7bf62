//===- Instances.h - Finding kernels (private) ------------------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What the instance files (Instances.cpp, InstanceTracing.cpp,
// TestFunctions.cpp) share: how a function is recognised as a kernel
// factory without running it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_INSTANCES_H
#define TLC_LIB_EVAL_INSTANCES_H

#include "Interpreter.h"

namespace tlc::eval {

/// True when \p def contains a nested function decorated with prim_func.
bool containsPrimFunc(syntax::Node def);

/// Whether \p fn is a lazy factory through another function: a `return`
/// of its body (not of nested functions) calls, by name, a function of its
/// scope that defines a `@T.prim_func` or is such a factory itself
/// (`def kernel(N): return copy_kernel(N)`, or a jitted factory's
/// `return copy_kernel(N).prim_func`), or a parameter \p bound gives a
/// such a function (`def kernel(factory, block): return factory(block)`
/// with `-D factory=copy_kernel`: the Python package lifts a nested
/// kernel so, its closure's factory a parameter). TileLang tells lazy from
/// eager by calling the function and looking for a PrimFunc result; this
/// follows the names statically, a few calls deep.
bool returnsPrimFuncFactory(
    FunctionObj *fn, unsigned depth = 0,
    llvm::function_ref<Value(llvm::StringRef)> bound = {});

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_INSTANCES_H
