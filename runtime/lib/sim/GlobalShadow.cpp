//===- GlobalShadow.cpp - Race checking of global memory (sim) ------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GlobalShadow.h"

#include "tlc_sim/abi.h"

#include <algorithm>
#include <sys/mman.h>

using namespace tlc::runtime::sim;

GlobalShadow::GlobalShadow(size_t numBuffers, uint64_t placeBase)
    : placeBase(placeBase), arrays(numBuffers), sizes(numBuffers, 0) {}

GlobalShadow::~GlobalShadow() {
  for (size_t b = 0; b < arrays.size(); ++b)
    if (Cell *c = arrays[b].load())
      munmap(c, sizes[b] * sizeof(Cell));
}

GlobalShadow::Cell *GlobalShadow::cells(size_t buffer, size_t words) {
  if (buffer >= arrays.size())
    return nullptr;
  if (Cell *c = arrays[buffer].load(std::memory_order_acquire))
    return c;
  std::lock_guard<std::mutex> lock(mutex);
  if (Cell *c = arrays[buffer].load(std::memory_order_relaxed))
    return c;
  // Zero pages: every cell starts as "no access".
  void *m = mmap(nullptr, words * sizeof(Cell), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return nullptr;
  sizes[buffer] = words;
  arrays[buffer].store(static_cast<Cell *>(m), std::memory_order_release);
  return static_cast<Cell *>(m);
}

uint32_t GlobalShadow::compress(uint64_t where) const {
  if (where & TLC_SIM_WHERE_LINE)
    return uint32_t(where & 0x7FFFFFFF) | 0x80000000u;
  if (where > placeBase && where - placeBase < 0x80000000u)
    return uint32_t(where - placeBase);
  return 0;
}

uint64_t GlobalShadow::expand(uint32_t place) const {
  if (place & 0x80000000u)
    return TLC_SIM_WHERE_LINE | (place & 0x7FFFFFFF);
  return place ? placeBase + place : 0;
}

GlobalRace GlobalShadow::access(size_t buffer, size_t bufferSize, size_t offset,
                                uint32_t bytes, bool store, const Accessor &me,
                                uint64_t where, const Ordering &ordering) {
  GlobalRace race;
  // Blocks and threads beyond the packed fields are not tracked.
  if (me.block + 1 >= (uint64_t(1) << 23) || me.thread >= 1024 || !bytes)
    return race;
  Cell *c = cells(buffer, (bufferSize + 3) / 4);
  if (!c)
    return race;
  uint64_t meKey = me.pack(0) & Accessor::kKey;
  // Whether the access recorded in \p w happens before this one.
  auto before = [&](uint64_t w) {
    if ((w & Accessor::kKey) == meKey)
      return true;
    Accessor a = Accessor::unpack(w);
    return a.block == me.block
               ? ordering.before(unsigned(me.thread), unsigned(a.thread),
                                 a.clock)
               : ordering.beforeAcross(unsigned(me.thread), a.block,
                                       unsigned(a.thread), a.clock);
  };
  uint32_t place = compress(where);
  for (size_t word = offset / 4; word <= (offset + bytes - 1) / 4; ++word) {
    // The bytes of this word the access covers.
    size_t lo = std::max(offset, word * 4),
           hi = std::min(offset + bytes, word * 4 + 4);
    unsigned mask = ((1u << (hi - lo)) - 1) << (lo - word * 4);
    Cell &cell = c[word];
    uint64_t w = cell.write.load(std::memory_order_relaxed);
    uint64_t r = cell.read.load(std::memory_order_relaxed);
    auto first = [&](uint64_t x) {
      unsigned both = Accessor::bytes(x) & mask;
      return word * 4 + unsigned(__builtin_ctz(both));
    };
    if (!race.found && (Accessor::bytes(w) & mask) && !before(w)) {
      race = {true, true, Accessor::unpack(w),
              expand(cell.writePlace.load(std::memory_order_relaxed)),
              first(w)};
    } else if (!race.found && store && (Accessor::bytes(r) & mask) &&
               !before(r)) {
      race = {true, false, Accessor::unpack(r),
              expand(cell.readPlace.load(std::memory_order_relaxed)), first(r)};
    }
    if (store) {
      unsigned merged =
          (w & Accessor::kKey) == meKey ? (Accessor::bytes(w) | mask) : mask;
      uint64_t mine = me.pack(merged);
      if (w != mine) {
        cell.write.store(mine, std::memory_order_relaxed);
        cell.writePlace.store(place, std::memory_order_relaxed);
      }
      if (Accessor::bytes(r) & mask)
        cell.read.store(0, std::memory_order_relaxed);
    } else if (!(Accessor::bytes(r) & mask) || before(r)) {
      // An unordered earlier reader of these bytes is kept (a later write
      // races with it).
      unsigned merged =
          (r & Accessor::kKey) == meKey ? (Accessor::bytes(r) | mask) : mask;
      uint64_t mine = me.pack(merged);
      if (r != mine) {
        cell.read.store(mine, std::memory_order_relaxed);
        cell.readPlace.store(place, std::memory_order_relaxed);
      }
    }
  }
  return race;
}

bool GlobalShadow::lastWrite(size_t buffer, size_t offset, Accessor &who,
                             uint64_t &where) {
  if (buffer >= arrays.size())
    return false;
  Cell *c = arrays[buffer].load(std::memory_order_acquire);
  if (!c || offset / 4 >= sizes[buffer])
    return false;
  Cell &cell = c[offset / 4];
  uint64_t w = cell.write.load(std::memory_order_relaxed);
  if (!(Accessor::bytes(w) >> (offset % 4) & 1u))
    return false;
  who = Accessor::unpack(w);
  where = expand(cell.writePlace.load(std::memory_order_relaxed));
  return true;
}
