//===- GlobalShadow.h - Race checking of global memory (sim) ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The racecheck of global memory within one launch. Every 4-byte word of a
// buffer that the launch touches has a cell: its last writer and one
// reader, each (block, thread, the bytes of the word, the thread's clock)
// in one 64-bit word, and their places. Accesses of disjoint bytes of a
// word never race; a writer of other bytes replaces the record (a race
// may then go unseen, none is invented).
// Two accesses of one byte, at least one a write and neither atomic, race
// when they come from different blocks that no __threadfence + atomic
// (Fences.cpp) or grid barrier (Grid.cpp) orders, or from threads of one
// block that no barrier orders
// (the block's vector clocks, asked through an Ordering).
//
// Cells live in per-buffer arrays mapped on first use (untouched pages cost
// nothing) and are read and written with relaxed atomics: blocks of the
// launch run on several OS threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_GLOBALSHADOW_H
#define TLC_RUNTIME_SIM_GLOBALSHADOW_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace tlc::runtime::sim {

/// One access as a word: bits 0-22 the linear block + 1 (0: none), 23-32
/// the thread of the block, 33-36 the bytes of the 4-byte word, 37-63 the
/// thread's clock.
struct Accessor {
  uint64_t block, thread, clock;
  static constexpr uint64_t kKey = (uint64_t(1) << 33) - 1;
  uint64_t pack(unsigned bytes) const {
    return (block + 1) | thread << 23 | uint64_t(bytes) << 33 | clock << 37;
  }
  static Accessor unpack(uint64_t w) {
    return {(w & 0x7FFFFF) - 1, (w >> 23) & 0x3FF, w >> 37};
  }
  static unsigned bytes(uint64_t w) { return unsigned(w >> 33) & 0xF; }
};

/// What the running block knows: whether thread \p thread's access at
/// \p clock happens before what thread \p me does now (same block).
struct Ordering {
  virtual ~Ordering() = default;
  virtual bool before(unsigned me, unsigned thread, uint64_t clock) const = 0;
  /// Whether thread \p thread of the other block \p block, at \p clock,
  /// happens before what thread \p me of the running block does now: only
  /// through a __threadfence and an atomic that \p me's atomics (or its
  /// block's barriers) learnt of (Fences.cpp).
  virtual bool beforeAcross(unsigned me, uint64_t block, unsigned thread,
                            uint64_t clock) const = 0;
};

/// A race found: what the earlier access was.
struct GlobalRace {
  bool found = false;
  bool earlierWrite = false;
  Accessor earlier{};
  uint64_t earlierWhere = 0;
  size_t offset = 0;
};

class GlobalShadow {
public:
  /// \p numBuffers arena buffers; \p placeBase: the kernel object's load
  /// address (places are kept as 32-bit offsets from it).
  GlobalShadow(size_t numBuffers, uint64_t placeBase);
  ~GlobalShadow();
  GlobalShadow(const GlobalShadow &) = delete;
  GlobalShadow &operator=(const GlobalShadow &) = delete;

  /// Checks and records a load (\p store false) or store of \p bytes at
  /// byte \p offset of buffer \p buffer (\p bufferSize bytes) by \p me;
  /// the first race of the access, if any.
  GlobalRace access(size_t buffer, size_t bufferSize, size_t offset,
                    uint32_t bytes, bool store, const Accessor &me,
                    uint64_t where, const Ordering &ordering);

  /// The last non-atomic store of byte \p offset of buffer \p buffer
  /// recorded: whether there is one, who did it and where.
  bool lastWrite(size_t buffer, size_t offset, Accessor &who, uint64_t &where);

private:
  struct Cell {
    std::atomic<uint64_t> write, read;
    std::atomic<uint32_t> writePlace, readPlace;
  };
  /// The cells of buffer \p buffer (\p words 4-byte words), mapped on
  /// first use.
  Cell *cells(size_t buffer, size_t words);
  uint32_t compress(uint64_t where) const;
  uint64_t expand(uint32_t place) const;

  uint64_t placeBase;
  std::mutex mutex;
  std::vector<std::atomic<Cell *>> arrays;
  std::vector<size_t> sizes;
};

} // namespace tlc::runtime::sim

#endif // TLC_RUNTIME_SIM_GLOBALSHADOW_H
