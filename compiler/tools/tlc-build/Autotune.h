//===- Autotune.h - tlc-build --autotune on the target's device -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build --autotune FILE` builds every configuration of each
// `@tilelang.autotune(configs=[...])` kernel (one child build per
// configuration, -j at once), then runs them here: the same seeded random
// inputs for all, each configuration's outputs checked against the first
// configuration's with TileLang's default tolerances (rtol = atol = 1e-2,
// at most 1% of the elements outside), then timed; the fastest is printed.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_AUTOTUNE_H
#define TLC_TOOLS_TLC_BUILD_AUTOTUNE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc::driver {
struct DriverOptions;
} // namespace tlc::driver

namespace tlc::build {

/// One configuration of a tuned kernel after its build.
struct TunedConfig {
  /// The instance label, which names the configuration's values.
  std::string label;
  /// The artifact directory of its build.
  std::string dir;
  /// Why its build failed (first line), or empty.
  std::string buildError;
};

/// How configurations are run and checked.
struct TuningOptions {
  /// The runtime device: `cpu` or `cuda`.
  std::string device = "cpu";
  /// Untimed runs, then timed runs (the median is reported).
  unsigned warmup = 3, runs = 10;
  /// TileLang's default tolerances of the autotuner's check.
  double rtol = 1e-2, atol = 1e-2, maxMismatchedRatio = 0.01;
  /// Values of symbols and scalar parameters (`-D name=value`).
  llvm::StringMap<std::string> values;
};

/// Runs and times the instances of \p kernel in every configuration's
/// directory, checks each against the first configuration that runs, and
/// prints one line per configuration and the best to \p os. Returns the
/// exit status: 0 when some configuration passed, 1 otherwise.
int tuneKernel(llvm::StringRef kernel, llvm::ArrayRef<TunedConfig> configs,
               const TuningOptions &options, llvm::raw_ostream &os);

/// `--autotune FILE` (AutotuneDriver.cpp): builds every configuration of
/// each autotuned kernel of \p path into OUT/config-I (child tlc-builds with
/// \p childArgs, \p jobCount at once; OUT is \p outDir or a new temporary
/// directory), then runs, checks and times them on the target's device with
/// tuneKernel. Returns the exit status.
int autotuneFile(const driver::DriverOptions &base, llvm::StringRef path,
                 llvm::StringRef outDir, llvm::StringRef targetName,
                 llvm::ArrayRef<std::string> childArgs, unsigned jobCount,
                 TuningOptions tuning);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_AUTOTUNE_H
