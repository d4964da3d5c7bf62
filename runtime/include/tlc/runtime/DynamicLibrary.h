//===- DynamicLibrary.h - dlopen'ed libraries and symbol tables -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A shared library opened once with dlopen, and the pattern the GPU drivers
// use to bind their entry points: one `.def` X-macro table per driver that
// lists every symbol as REQUIRED or OPTIONAL with its signature,
//
//   TLC_SYMBOL_REQUIRED(cuInit, CUresult, (unsigned flags))
//   TLC_SYMBOL_OPTIONAL(cuTensorMapEncodeTiled, CUresult, (...))
//
// expanded into a struct of function pointers and a loader that resolves
// them all at once (a missing REQUIRED symbol is an error naming it;
// missing OPTIONAL ones stay null). See lib/hip/HIPSymbols.def; CUDA's
// table is runtime/cuda/include/tlc/Runtime/CUDA/CUDASymbols.def.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_DYNAMICLIBRARY_H
#define TLC_RUNTIME_DYNAMICLIBRARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace tlc::runtime {

/// An open shared library; closed when the last copy goes away.
class DynamicLibrary {
public:
  /// Opens the first of \p names that dlopen finds (RTLD_NOW | RTLD_LOCAL).
  /// The error lists each name with dlerror()'s reason.
  static llvm::Expected<DynamicLibrary> open(llvm::ArrayRef<const char *> names);
  /// The address of \p symbol, or null.
  void *lookup(const char *symbol) const;
  /// The path or name it was opened as.
  const std::string &getName() const { return name; }

private:
  std::shared_ptr<void> handle;
  std::string name;
};

} // namespace tlc::runtime

#endif // TLC_RUNTIME_DYNAMICLIBRARY_H
