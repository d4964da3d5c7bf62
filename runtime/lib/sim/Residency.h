//===- Residency.h - Blocks the simulated GPU holds at once -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A cooperative launch (T.sync_grid) needs every block of its grid
// resident at once. The cuda and hip devices ask the driver (blocks per
// multiprocessor from the occupancy query, times the multiprocessors); the
// sim device has no driver and answers with the same rule from the
// published figures of the target's default part (tlc/Lang/Device.h: the
// A100 for sm_80, the H100 for sm_90a, the MI300X for gfx942), so that it
// refuses the grids the GPU would. Registers are not counted: the sim does
// not compile for the GPU, so the GPU may hold fewer blocks than this says.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_RESIDENCY_H
#define TLC_RUNTIME_SIM_RESIDENCY_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tlc::runtime::sim {

/// How many blocks of one launch a GPU holds at once.
struct Residency {
  /// Blocks per multiprocessor (compute unit), and multiprocessors.
  uint64_t perMultiprocessor = 0, multiprocessors = 0;
  /// The part, e.g. `NVIDIA A100-SXM4-80GB (cuda:sm_80)`.
  std::string device;
  /// What bounds perMultiprocessor: `threads`, `shared memory`, `blocks
  /// per multiprocessor` or `barriers per compute unit`.
  std::string limit;
  /// Whether the part is an AMD GPU (compute units, LDS).
  bool amd = false;
  uint64_t total() const { return perMultiprocessor * multiprocessors; }
};

/// The blocks of \p threadsPerBlock threads using \p sharedBytes of dynamic
/// shared memory each that the default part of manifest target \p target
/// (`cuda:sm_90a`, `hip:gfx942`; of several architectures, the one that
/// holds fewest) holds at once; nullopt when no part is known for it.
std::optional<Residency> getResidency(llvm::StringRef target,
                                      uint64_t threadsPerBlock,
                                      uint64_t sharedBytes);

} // namespace tlc::runtime::sim

#endif // TLC_RUNTIME_SIM_RESIDENCY_H
