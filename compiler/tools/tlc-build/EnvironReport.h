//===- EnvironReport.h - The variables an evaluation read -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build --environ-report=PATH` writes, as JSON, the environment
// variables (`--environ`) the evaluation of each file and of each kernel
// instance read. The Python package keys its build directories and
// remembered refusals by the values of exactly those variables, so that a
// variable only another kernel reads does not make this one build again.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_ENVIRONREPORT_H
#define TLC_TOOLS_TLC_BUILD_ENVIRONREPORT_H

#include "tlc/Driver/Driver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace tlc::build {

/// Writes the report of \p results to \p os, on one line (object keys
/// sorted):
///
///   {"version": 1, "files": [{"file": PATH, "reads": [NAME...],
///     "all": BOOL, "instances": [{"kernel": K, "instance": LABEL,
///     "reads": [NAME...], "all": BOOL}...]}...]}
///
/// `reads` are sorted; `all` is true when `os.environ` was used other than
/// by reading one variable by name (iterated, copied, bound to a name), so
/// that every variable may matter.
void writeEnvironReport(llvm::ArrayRef<driver::FileResult> results,
                        llvm::raw_ostream &os);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_ENVIRONREPORT_H
