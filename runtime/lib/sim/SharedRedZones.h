//===- SharedRedZones.h - Per-buffer bounds of shared memory (sim) -*- C++ -*-//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The generated CUDA and HIP kernels place every shared buffer at a constant
// offset of the block's dynamic shared memory
// (`T *name = reinterpret_cast<T *>(smem + OFFSET);`, after the printer's
// `// T.alloc [shape] scope` line). Buffers lie back to back, so an index
// that runs off one buffer lands in the next one, where the access hooks,
// which see only addresses, cannot tell it from a valid access.
//
// For the sim device the source is compiled with those offsets moved apart:
// a red zone of kRedZoneBytes is opened at the start of every buffer that
// nothing else is placed across, and the memcheck reports an access to it
// as out of bounds of the buffer below. (The zone starts where the next
// buffer started, not where the buffer below ends: the comment's shape is
// one stage of a T.Pipelined buffer, whose other stages follow it.) The
// red zones keep every offset's residue modulo 1024, which is as far as the
// printers' alignments (and TMA swizzles) reach.
//
// Buffers with symbolic offsets (`// placed at launch`), the printer's own
// areas (exchange, scratch, mbarriers: no size in the source) and buffers
// that share bytes (areas and buffers placed over dead ones) are placed as
// before: no boundary gets a red zone where a byte range of unknown or
// overlapping extent crosses it.
//
// A red zone catches only an overrun that lands in it. So every element
// index of a named buffer of known extent is checked too: each `NAME[INDEX]`
// after the buffer's declaration becomes
// `NAME[::tlc::sim::sharedIndex(INDEX, "'NAME'", ELEM, EXTENT, OFFSET,
// KIND)]` (tlc_sim/builtins.h), which reports an element outside
// [0, EXTENT) bytes of the buffer wherever it lands: in a red zone, in
// another buffer, or past a kernel's printer areas, whose size is not
// known. The extent runs from the buffer's offset to the next placement's
// start (or the end of the kernel's shared memory), as the zones'; a
// buffer that another placement starts inside is not checked. Pointer
// arithmetic on a buffer is checked as well: `(NAME + K)[I]` (the printers'
// T.Pipelined stage, `(B_shared + stage * 2048)[i]`) becomes one index
// K + I, `*(NAME + K)` element K, and `NAME + K` in an argument list or
// parentheses an address (one past the end allowed). An addend with more
// than names, numbers, `.`, `* / % + -` and bracketed text at its top
// level (a template argument list) is left to the zones.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_SHAREDREDZONES_H
#define TLC_RUNTIME_SIM_SHAREDREDZONES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tlc {
namespace runtime {
namespace sim {

/// Bytes of one red zone (a multiple of 1024: offsets keep their residue).
constexpr uint32_t kRedZoneBytes = 1024;

/// Bytes between two buffers that no access may touch, in the moved layout.
struct SharedRedZone {
  /// [begin, end): the bytes before the next buffer, as the moved kernel
  /// addresses them.
  uint32_t begin = 0, end = 0;
  /// The buffer below (its name, the bytes up to the next one and its
  /// offset, in the kernel as printed).
  std::string below;
  uint32_t belowBytes = 0, belowOffset = 0;
  /// The buffer (or area) that starts at `end`, and its printed offset.
  std::string above;
  uint32_t printedStart = 0;
};

/// One kernel's move: its red zones (ascending) and the bytes they add.
struct SharedRedZonePlan {
  std::vector<SharedRedZone> zones;
  uint32_t extraBytes = 0;
  /// The offset the printed kernel used for a moved offset \p offset.
  uint32_t printedOffset(uint32_t offset) const;
};

/// The moved source and each kernel entry's plan.
struct SharedRedZoneSource {
  std::string source;
  std::map<std::string, SharedRedZonePlan> plans;
};

/// Moves the shared buffers of every kernel of \p source apart (see the
/// file comment). \p dynamicShared gives each entry's largest static
/// dynamic shared memory (an entry missing from it is left alone: symbolic
/// sizes); a kernel is moved only while that plus its red zones stays
/// within \p capacity bytes.
SharedRedZoneSource
placeSharedRedZones(llvm::StringRef source,
                    const std::map<std::string, uint64_t> &dynamicShared,
                    uint64_t capacity);

} // namespace sim
} // namespace runtime
} // namespace tlc

#endif // TLC_RUNTIME_SIM_SHAREDREDZONES_H
