//===- EmitModes.h - tlc-build's --emit modes that lower --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `--emit=lowered|cuda|cpp|hip` (the lowered IR or generated source of every
// kernel instance, printed, nothing written) and `--emit=layout-svg` (a
// picture of every fragment and shared buffer's layout).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_EMITMODES_H
#define TLC_TOOLS_TLC_BUILD_EMITMODES_H

#include "tlc/Driver/Driver.h"
#include "tlc/Driver/Lowering.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tlc::build {

/// `--emit=lowered|cuda|cpp|hip`: analyses every file and prints, per file,
/// the lowered IR or the generated source of every kernel instance, writing
/// nothing. Returns the exit status.
int emitGenerated(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                  llvm::StringRef kind, llvm::StringRef targetName,
                  bool lineDirectives, const driver::LoweringOptions &lowering,
                  llvm::StringRef layoutsOf);

/// `--emit=layout-svg`: a picture of the layout of every fragment and shared
/// buffer of every instance (only buffers named \p buffer when given):
/// into \p outputDir, one file each (their paths on stdout), or, without
/// a directory, the one matching buffer's SVG on stdout. Returns the exit
/// status.
int emitLayoutSvg(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                  llvm::StringRef outputDir, llvm::StringRef buffer,
                  llvm::StringRef targetName);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_EMITMODES_H
