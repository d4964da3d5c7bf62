//===- HostArgs.h - A kernel's arguments in host memory ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arguments of one kernel instance as the tools create them from its
// manifest: symbols bound from `-D NAME=VALUE`, tensors of the evaluated
// shapes (inputs read from `.npy` files or filled with seeded normal values,
// outputs poisoned with NaN), scalar parameters from `-D` too. `tlc-run`
// and `tlc-build --autotune` both build and run them here.
//
//   auto host = makeHostArgs(manifest, defs, {.seed = 7});
//   runWithHostArgs(*dev, *kernel, manifest, *host, {});  // outputs in host
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_HOSTARGS_H
#define TLC_RUNTIME_HOSTARGS_H

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/HostTensor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc::runtime {

/// One kernel's parameters in host memory, in manifest order.
struct HostArgs {
  /// The tensor of each tensor parameter (nullopt for a scalar). A
  /// pointer table's own tensor is filled with device addresses at launch.
  std::vector<std::optional<HostTensor>> tensors;
  /// For each pointer table (a manifest `pointee`), the tensors its
  /// elements point at, stacked: shape [table length] + the pointee's
  /// shape; nullopt for every other parameter. They are the parameter's
  /// data as tools show it (saved, read from `--inputs`, verified).
  std::vector<std::optional<HostTensor>> pointees;
  /// The bytes of each scalar parameter in its dtype (empty for a tensor).
  std::vector<std::vector<uint8_t>> scalars;
  /// The element strides of each tensor parameter with manifest `strides`
  /// (evaluated); empty for a dense row-major one. The tensor itself stays
  /// dense in host memory; runWithHostArgs places it at these strides in
  /// device memory.
  std::vector<std::vector<int64_t>> strides;
  /// The values of the manifest's symbols, in manifest order.
  std::vector<int64_t> symbols;
  /// The parameters read from HostArgsOptions::inputsDir.
  std::vector<std::string> loaded;
};

/// The data of parameter \p index as tools show, save and compare it: the
/// stacked pointees of a pointer table, else its tensor; null for a scalar.
inline const HostTensor *getParamData(const HostArgs &a, size_t index) {
  if (a.pointees[index])
    return &*a.pointees[index];
  return a.tensors[index] ? &*a.tensors[index] : nullptr;
}

/// How the kernel uses the data of \p p (getParamData): a pointer table's
/// pointee role, else the parameter's.
inline artifact::Role getParamDataRole(const artifact::Param &p) {
  return p.pointee ? p.pointee->role : p.role;
}

struct HostArgsOptions {
  /// Seed of the random inputs; parameter i uses stream i.
  uint64_t seed = 0;
  /// When set, input NAME of kernel K is read from DIR/K/NAME.npy or
  /// DIR/NAME.npy where one exists (shape and dtype checked).
  std::string inputsDir;
  /// Distributions of inputs by parameter name (tlc-run --fill), used in
  /// place of the standard normal where no file is read.
  llvm::StringMap<FillSpec> fills;
};

/// Creates the arguments of \p m: symbols and scalars from \p defs (an
/// error names each one missing or malformed, with the `-D` to give; a
/// symbol of kind `stride` without one takes the dense row-major value of
/// the stride it names),
/// tensor shapes evaluated against the symbols (a negative extent is an
/// error), inputs read or randomised, outputs poisoned; for a pointer
/// table, the tensors it points at (HostArgs::pointees) the same way except
/// that written-only ones start random too (the caller's memory, which
/// kernels often write in part).
llvm::Expected<HostArgs> makeHostArgs(const artifact::Manifest &m,
                                      const llvm::StringMap<std::string> &defs,
                                      const HostArgsOptions &options = {});

struct RunOptions {
  /// CPU only: host threads running blocks (0: all hardware threads).
  int numWorkers = 0;
  /// Untimed runs after the first, then timed runs whose times (ms) are
  /// appended to \p timesMs when it is given.
  unsigned warmupRuns = 0;
  unsigned timedRuns = 0;
  std::vector<double> *timesMs = nullptr;
};

/// Copies \p host to \p dev, runs \p kernel once and copies its outputs
/// back into \p host; then the warm-up and timed runs \p options asks for.
/// The CPU device, asked for the one run only, runs on \p host's dense
/// tensors in place (no copies).
/// A pointer table gets one device tensor per element, and the table holds
/// their addresses. A tensor with strides (HostArgs::strides) gets device
/// memory spanning its farthest element, its elements placed at their
/// strided offsets and the gaps filled with 0xff bytes (NaN for floats);
/// outputs are read back from those offsets. Device memory is released on
/// every path.
llvm::Error runWithHostArgs(Device &dev, Kernel &kernel,
                            const artifact::Manifest &m, HostArgs &host,
                            const RunOptions &options = {});

/// Runs \p kernel on \p dev with arguments whose tensors live in host
/// memory the device does not address (the caller's: CPU torch tensors
/// under the sim device, tlc_hip.h's TLC_HIP_DEVICE=sim): each tensor
/// parameter's bytes (its dense extent, or with manifest strides every
/// element up to its farthest) are copied into device memory, the kernel
/// runs, and the parameters it writes are copied back. \p args holds host
/// addresses (a null tensor stays null) and the symbols; a pointer table
/// (a manifest `pointee`) is refused. Device memory is released on every
/// path.
llvm::Error runOnHostMemory(Device &dev, Kernel &kernel,
                            const artifact::Manifest &m,
                            const LaunchArgs &args);

} // namespace tlc::runtime

#endif // TLC_RUNTIME_HOSTARGS_H
