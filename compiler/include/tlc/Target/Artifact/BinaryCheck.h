//===- BinaryCheck.h - Whole-file checks of kernel binaries -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel binary cut short (an interrupted copy, a full disk, a cache entry
// truncated by hand) must not reach the loader: dlopen maps the segments a
// shared object's headers name and faults (SIGBUS) on the pages past the
// end of the file. These checks read the container's own size information
// and refuse a file that does not hold all of it, with a message that says
// what is missing.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_ARTIFACT_BINARYCHECK_H
#define TLC_TARGET_ARTIFACT_BINARYCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tlc::artifact {

/// Checks that \p image is a whole kernel binary: a 64-bit ELF file (shared
/// object, cubin, HIP code object) whose program headers, section headers,
/// segments and sections all lie inside it; a CUDA fatbin whose header's
/// size is there; or a clang offload bundle (`.hipfb`) whose entries are.
/// Fails for an empty file and any of these cut short, saying which; a
/// file of another format passes (its loader judges it). Bytes altered inside the structures are not detected (the
/// build cache keeps a digest of each entry for that).
llvm::Error checkBinaryImage(llvm::StringRef image);

/// Reads \p path and checks it with checkBinaryImage; the error names the
/// file and says to build it again.
llvm::Error checkBinaryFile(llvm::StringRef path);

} // namespace tlc::artifact

#endif // TLC_TARGET_ARTIFACT_BINARYCHECK_H
