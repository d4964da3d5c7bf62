//===- WorkerMemory.cpp - Memory checks and async copies (sim) ------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include <algorithm>

using namespace tlc::runtime::sim;

bool Worker::access(const void *address, uint32_t bytes, int kind,
                    int32_t thread, uint64_t where) {
  unsigned t = thread < 0 ? current->linear : unsigned(thread);
  if (current)
    settleWrite(current->linear);
  auto a = reinterpret_cast<uintptr_t>(address);
  auto s = reinterpret_cast<uintptr_t>(shared);
  const char *verb = kind == TLC_SIM_LOAD    ? "load"
                     : kind == TLC_SIM_STORE ? "store"
                                             : "atomic";
  // The calling thread's registers and local arrays are not checked.
  if (current && a >= reinterpret_cast<uintptr_t>(current->fiber->stackLow()) &&
      a < reinterpret_cast<uintptr_t>(current->fiber->stackHigh()))
    return true;
  if (a >= s && a < s + launch.kernel->sharedCapacity) {
    size_t offset = a - s;
    // Its index was reported out of its buffer already.
    if (current && thread < 0 && current->indexFaulted) {
      current->indexFaulted = false;
      return true;
    }
    if (offset + bytes > sharedBytes) {
      report("memcheck",
             "out-of-bounds shared " + std::string(verb) + " of " +
                 std::to_string(bytes) + " bytes at offset " +
                 printedOffset(offset) + " (the block has " +
                 printedOffset(sharedBytes) +
                 " bytes of dynamic shared memory) by " + threadName(t) +
                 " at {0}",
             where);
      return false;
    }
    if (launch.config->redZones &&
        !checkRedZones(t, offset, bytes, kind, where))
      return false;
    checkShared(t, offset, bytes, kind, where);
    return true;
  }
  // The access hooks pass only global and shared addresses; anything else
  // comes from a helper (atomics, vector accesses, cp.async), whose operand
  // must be global or shared memory (or the caller's registers, above).
  if (a - Arena::get().base() >= Arena::get().reserved()) {
    // ld / st / red / atom .shared::cluster: an address mapa gave into the
    // shared window of another block of the cluster (bounds only: the order
    // of accesses across blocks is the cluster barrier's and mbarriers').
    if (launch.cluster) {
      ClusterState &cs = *launch.cluster;
      std::unique_lock<std::mutex> lock(cs.mutex);
      for (unsigned r = 0; r < cs.size; ++r) {
        auto base = reinterpret_cast<uintptr_t>(cs.shared[r]);
        if (r == clusterRank || !cs.shared[r] || a < base ||
            a - base >= launch.kernel->sharedCapacity)
          continue;
        size_t offset = a - base;
        std::string why;
        if (offset + bytes > sharedBytes)
          why = "out-of-bounds shared::cluster " + std::string(verb) + " of " +
                std::to_string(bytes) + " bytes at offset " +
                printedOffset(offset) + " of block " + std::to_string(r) +
                " of the cluster (each block has " +
                printedOffset(sharedBytes) + " bytes of dynamic shared memory)";
        else if (!cs.started[r] || cs.done[r])
          why = "shared::cluster " + std::string(verb) + " of block " +
                std::to_string(r) + " of the cluster, which " +
                (cs.done[r] ? "has exited" : "has not started");
        // initcheck: the instrumented store cannot reach the peer's
        // shadow (each worker's maps its own window); the stored bytes
        // count as defined there.
        if (why.empty() && kind != TLC_SIM_LOAD && cs.sharedShadow[r])
          std::memset(cs.sharedShadow[r] + offset, 0, bytes);
        lock.unlock();
        if (!why.empty()) {
          report("memcheck", why + ", by " + threadName(t) + " at {0}", where);
          return false;
        }
        return true;
      }
    }
    bool under = a < s && s - a <= kSharedUnderrun;
    std::string near =
        under ? std::to_string(s - a) +
                    " bytes before the block's shared memory (a negative index?)"
              : "neither global nor shared memory";
    report("memcheck",
           "out-of-bounds " + std::string(under ? "shared " : "") +
               std::string(verb) + " of " +
               std::to_string(bytes) + " bytes: " + near + ", by " +
               threadName(t) + " at {0}",
           where);
    return false;
  }
  if (current && ++sliceAccesses >= kSlice)
    sliceEnd();
  const Arena::Buffer *b = Arena::get().find(a);
  if (b && b->live && a >= b->base && a + bytes <= b->base + b->size) {
    if (kind != TLC_SIM_ATOMIC && launch.globals)
      checkGlobal(t, *b, a, bytes, kind, where);
    if (kind == TLC_SIM_ATOMIC) {
      launch.globalAtomics.store(true, std::memory_order_relaxed);
      if (t < fenceClocks.size() && !fenceClocks[t].empty())
        atomicRelease(t, a);
    }
    if (kind == TLC_SIM_STORE && arenaShadow && current &&
        t == current->linear) {
      if (pendingStores.size() < numThreads)
        pendingStores.resize(numThreads);
      pendingStores[t] = {b, a, bytes, where};
    }
    return true;
  }
  std::string which =
      b ? "'" + (b->name.empty() ? std::string("buffer") : b->name) + "' (" +
              std::to_string(b->size) + " bytes)"
        : std::string();
  std::string detail;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)a);
  if (!b)
    detail = std::string("address ") + hex + ", not in any buffer";
  else if (!b->live)
    detail = "in " + which + ", which was freed";
  else if (a < b->base)
    detail = std::to_string(b->base - a) + " bytes before " + which;
  else
    detail = std::to_string(a + bytes - (b->base + b->size)) +
             " bytes past the end of " + which;
  report("memcheck",
         "out-of-bounds global " + std::string(verb) + " of " +
             std::to_string(bytes) + " bytes (" + detail + ") by " +
             threadName(t) + " at {0}",
         where);
  return false;
}

void Worker::sharedIndexFault(const char *name, int64_t index,
                              uint32_t elemBytes, uint32_t extentBytes,
                              uint32_t offset, int kind, uint64_t where) {
  if (!current)
    return;
  current->indexFaulted = kind != 3;
  const char *verb = kind == TLC_SIM_LOAD    ? "load"
                     : kind == TLC_SIM_STORE ? "store"
                                             : "access";
  // Bytes from the buffer's start (negative: before it).
  const int64_t at = index * int64_t(elemBytes);
  std::string near =
      at < 0 ? std::to_string(-at) + " bytes before " + name + " (at offset " +
                   std::to_string(offset) + ")"
             : std::to_string(at + elemBytes - int64_t(extentBytes)) +
                   " bytes past the end of " + name + " (" +
                   std::to_string(extentBytes) + " bytes at offset " +
                   std::to_string(offset) + ")";
  report("memcheck",
         "out-of-bounds shared " + std::string(verb) + " of " +
             std::to_string(elemBytes) + " bytes: " + near + ", by " +
             threadName(current->linear) + " at {0}",
         where);
}

bool Worker::checkRedZones(unsigned t, size_t offset, uint32_t bytes, int kind,
                           uint64_t where) {
  for (const SharedRedZone &z : launch.config->redZones->zones) {
    if (offset >= z.end)
      continue;
    if (offset + bytes <= z.begin)
      return true; // zones ascend
    const char *verb = kind == TLC_SIM_LOAD    ? "load"
                       : kind == TLC_SIM_STORE ? "store"
                                               : "atomic";
    // Nearer the buffer below: past its end; else before the one above.
    std::string near =
        offset < z.begin || offset - z.begin < z.end - (offset + bytes)
            ? std::to_string(offset + bytes - z.begin) +
                  " bytes past the end of " + z.below + " (" +
                  std::to_string(z.belowBytes) + " bytes at offset " +
                  std::to_string(z.belowOffset) + ")"
            : std::to_string(z.end - offset) + " bytes before " + z.above +
                  " (at offset " + std::to_string(z.printedStart) + ")";
    report("memcheck",
           "out-of-bounds shared " + std::string(verb) + " of " +
               std::to_string(bytes) + " bytes: " + near + ", by " +
               threadName(t) + " at {0}",
           where);
    return false;
  }
  return true;
}

void Worker::checkShared(unsigned t, size_t offset, uint32_t bytes, int kind,
                         uint64_t where) {
  // A byte whose history equals that of the last byte checked in full gets
  // the same verdict (none: that byte was not reported) and the same
  // update, so a vector access of bytes written together costs one check.
  // A byte never written is checked in full while its read is reported.
  unsigned char last[kShadowHistory];
  int lastSlot = 0;
  bool haveLast = false;
  for (uint32_t i = 0; i < bytes; ++i) {
    ShadowByte &s = shadow[offset + i];
    if (haveLast && std::memcmp(&s, last, kShadowHistory) == 0) {
      if (kind == TLC_SIM_ATOMIC) {
        s.flags |= kWritten;
      } else if (kind == TLC_SIM_LOAD) {
        s.reader[lastSlot] = uint16_t(t);
        s.readClock[lastSlot] = clock[t];
        s.readWhere[lastSlot] = where;
      } else {
        s.writer = uint16_t(t);
        s.writeClock = clock[t];
        s.writeWhere = where;
        s.flags |= kWritten;
        s.reader[0] = s.reader[1] = kNone;
      }
      continue;
    }
    std::memcpy(last, &s, kShadowHistory);
    haveLast = kind != TLC_SIM_LOAD || (s.flags & kWritten) || shadowMap;
    auto at = [&] { return " at offset " + printedOffset(offset + i); };
    if (s.flags & kPending) {
      report("racecheck",
             std::string(kind == TLC_SIM_LOAD ? "read" : "write") +
                 " of shared memory" + at() + " by " + threadName(t) +
                 (s.flags & kBulk
                      ? " at {0} while a TMA copy issued by " +
                            threadName(s.writer) +
                            " at {1} is still writing it (no wait on its "
                            "mbarrier in between)"
                      : " at {0} while a cp.async issued by " +
                            threadName(s.writer) +
                            " at {1} is still writing it (no "
                            "cp.async.wait_group and barrier in between)"),
             where, s.writeWhere);
      return;
    }
    if (kind == TLC_SIM_ATOMIC) {
      s.flags |= kWritten;
      continue;
    }
    if (kind == TLC_SIM_LOAD) {
      // (With definedness tracked, reading undefined bytes is no error; an
      // undefined value is reported where it is used.)
      if (!(s.flags & kWritten) && !shadowMap) {
        report("initcheck",
               "read of shared memory" + at() +
                   " that no thread has written, by " + threadName(t) +
                   " at {0}",
               where);
        s.flags |= kWritten; // once per byte
      }
      if (!ordered(t, s.writer, s.writeClock)) {
        report("racecheck",
               "read of shared memory" + at() + " by " + threadName(t) +
                   " at {0} after a write by " + threadName(s.writer) +
                   " at {1}" + noOrder(s.writer) + " (read-after-write hazard)",
               where, s.writeWhere);
        return;
      }
      int slot = ordered(t, s.reader[0], s.readClock[0]) ? 0 : 1;
      lastSlot = slot;
      s.reader[slot] = uint16_t(t);
      s.readClock[slot] = clock[t];
      s.readWhere[slot] = where;
      continue;
    }
    if (!ordered(t, s.writer, s.writeClock)) {
      report("racecheck",
             "write of shared memory" + at() + " by " + threadName(t) +
                 " at {0} and by " + threadName(s.writer) + " at {1}" +
                 noOrder(s.writer) + " (write-after-write hazard)",
             where, s.writeWhere);
      return;
    }
    for (int r = 0; r < 2; ++r)
      if (!ordered(t, s.reader[r], s.readClock[r])) {
        report("racecheck",
               "write of shared memory" + at() + " by " + threadName(t) +
                   " at {0} after a read by " + threadName(s.reader[r]) +
                   " at {1} with no barrier between them (write-after-read "
                   "hazard)",
               where, s.readWhere[r]);
        return;
      }
    s.writer = uint16_t(t);
    s.writeClock = clock[t];
    s.writeWhere = where;
    s.flags |= kWritten;
    s.reader[0] = s.reader[1] = kNone;
  }
}

void Worker::checkGlobal(unsigned t, const Arena::Buffer &b, uintptr_t address,
                         uint32_t bytes, int kind, uint64_t where) {
  Accessor me{currentBlock, t, clock[t]};
  GlobalRace race =
      launch.globals->access(Arena::get().indexOf(&b), b.size, address - b.base,
                             bytes, kind == TLC_SIM_STORE, me, where, *this);
  if (!race.found)
    return;
  const LaunchConfig &c = *launch.config;
  auto name = [&](const Accessor &x) {
    unsigned l = unsigned(x.thread);
    uint32_t thread[3] = {l % c.block[0], l / c.block[0] % c.block[1],
                          l / (c.block[0] * c.block[1])};
    uint32_t block[3] = {uint32_t(x.block % c.grid[0]),
                         uint32_t(x.block / c.grid[0] % c.grid[1]),
                         uint32_t(x.block / (uint64_t(c.grid[0]) * c.grid[1]))};
    return "thread " + tuple3(thread) + " of block " + tuple3(block);
  };
  bool store = kind == TLC_SIM_STORE;
  bool deferred = store && race.earlierWrite && bytes <= 16 && current &&
                  t == current->linear;
  std::string what = !store              ? "read-after-write"
                     : race.earlierWrite ? "write-after-write"
                                         : "write-after-read";
  Finding f;
  f.checker = "racecheck";
  f.where = where;
  f.otherWhere = race.earlierWhere;
  f.message =
      std::string(store ? "write" : "read") + " of global memory (byte " +
      std::to_string(race.offset) + " of '" +
      (b.name.empty() ? std::string("buffer") : b.name) + "') by " + name(me) +
      " at {0} " +
      (race.earlierWrite ? (store ? "and by " : "after a write by ")
                         : "after a read by ") +
      name(race.earlier) + " at {1} with nothing ordering them (" +
      (race.earlier.block == me.block ? "no barrier between them"
       : launch.grid
           ? "blocks of a cooperative launch are ordered only by a grid "
             "barrier (T.sync_grid) between them or by a __threadfence "
             "before an atomic whose successor on that address the later "
             "block performed"
       : launch.cluster
           ? "blocks of a cluster are ordered only by a release arrival "
             "(barrier.cluster.arrive, an mbarrier arrival) before the "
             "first access and a wait for it before the second, or by a "
             "__threadfence before an atomic whose successor on that "
             "address the later block performed"
           : "blocks of one launch are ordered only by a __threadfence "
             "before an atomic whose successor on that address the later "
             "block performed") +
      "; " + what + " hazard)";
  if (!deferred) {
    launch.add(std::move(f), /*fatal=*/false);
    return;
  }
  if (pendingWrites.size() < numThreads)
    pendingWrites.resize(numThreads);
  PendingWrite &p = pendingWrites[t];
  p.armed = true;
  p.address = reinterpret_cast<const unsigned char *>(address);
  p.bytes = bytes;
  std::memcpy(p.before, p.address, bytes);
  p.finding = std::move(f);
}

void Worker::cpAsync(void *dst, const void *src, uint32_t bytes,
                     uint32_t srcBytes, uint64_t where) {
  Thread &t = *current;
  auto d = static_cast<unsigned char *>(dst);
  auto s = static_cast<const unsigned char *>(src);
  if (srcBytes > bytes)
    trap("memcheck",
         "cp.async src-size " + std::to_string(srcBytes) +
             " is larger than its cp-size " + std::to_string(bytes) + ", by " +
             threadName(t.linear) + " at {0}",
         where);
  if (reinterpret_cast<uintptr_t>(d) % bytes ||
      (srcBytes && reinterpret_cast<uintptr_t>(s) % bytes))
    trap("memcheck",
         "misaligned cp.async of " + std::to_string(bytes) +
             " bytes (both addresses must be multiples of the cp-size), by " +
             threadName(t.linear) + " at {0}",
         where);
  if (d < shared || d + bytes > shared + sharedBytes)
    trap("memcheck",
         "cp.async destination is not inside the block's " +
             std::to_string(sharedBytes) + " bytes of shared memory, by " +
             threadName(t.linear) + " at {0}",
         where);
  // An out-of-bounds source is reported and copied as zeros.
  if (srcBytes && !access(src, srcBytes, TLC_SIM_LOAD, -1, where))
    srcBytes = 0;
  size_t offset = d - shared;
  if (launch.config->redZones)
    checkRedZones(t.linear, offset, bytes, TLC_SIM_STORE, where);
  for (uint32_t i = 0; i < bytes; ++i) {
    ShadowByte &sh = shadow[offset + i];
    if (sh.flags & kPending) {
      report("racecheck",
             "cp.async to shared memory at offset " +
                 std::to_string(offset + i) + " by " + threadName(t.linear) +
                 " at {0} while an earlier cp.async by " +
                 threadName(sh.writer) + " at {1} is still writing it",
             where, sh.writeWhere);
      break;
    }
  }
  // The copy itself happens at the wait; until then its bytes are pending.
  checkShared(t.linear, offset, bytes, TLC_SIM_STORE, where);
  for (uint32_t i = 0; i < bytes; ++i) {
    ShadowByte &sh = shadow[offset + i];
    sh.flags |= kPending;
    sh.writer = uint16_t(t.linear);
    sh.writeWhere = where;
  }
  t.copies.push_back({d, s, bytes, srcBytes, t.committed, where});
}

void Worker::completeCopy(Thread &t, const Copy &c) {
  size_t offset = c.dst - shared;
  for (uint32_t i = 0; i < c.bytes; ++i) {
    ShadowByte &sh = shadow[offset + i];
    sh.flags = uint16_t((sh.flags & ~kPending) | kWritten);
    sh.writer = uint16_t(t.linear);
    sh.writeClock = clock[t.linear];
    sh.writeWhere = c.where;
    sh.reader[0] = sh.reader[1] = kNone;
  }
  if (c.srcBytes)
    std::memcpy(c.dst, c.src, c.srcBytes);
  std::memset(c.dst + c.srcBytes, 0, c.bytes - c.srcBytes);
  if (shadowMap) {
    copyDefinedness(offset, c.srcBytes ? c.src : nullptr, c.srcBytes);
    std::memset(shadowMap->sharedShadow + offset + c.srcBytes, 0,
                c.bytes - c.srcBytes);
  }
}

void Worker::copyDefinedness(size_t offset, const void *src, uint32_t bytes) {
  unsigned char *to = shadowMap->sharedShadow + offset;
  if (const unsigned char *from = src ? globalShadow(src) : nullptr)
    std::memcpy(to, from, bytes);
  else
    std::memset(to, 0, bytes);
}

void Worker::settleStore(unsigned t) {
  PendingStore p = pendingStores[t];
  pendingStores[t].buffer = nullptr;
  const unsigned char *sh = globalShadow(reinterpret_cast<void *>(p.address));
  if (!sh)
    return;
  for (uint32_t i = 0; i < p.bytes; ++i)
    if (sh[i]) {
      report("initcheck",
             "store of an undefined value to global memory (byte " +
                 std::to_string(p.address + i - p.buffer->base) + " of '" +
                 (p.buffer->name.empty() ? std::string("buffer")
                                         : p.buffer->name) +
                 "') by " + threadName(t) +
                 " at {0}: it comes from a register or local never "
                 "written or from memory no thread wrote",
             p.where);
      return;
    }
}

void Worker::uninitUse(uint64_t where) {
  report("initcheck",
         "use of an undefined value (from a register or local never "
         "written, or from memory no thread wrote) as a branch condition, "
         "an address, a divisor or an atomic's operand by " +
             threadName(current->linear) + " at {0}",
         where);
}

void Worker::cpAsyncWait(int32_t pending, uint64_t) {
  Thread &t = *current;
  // Groups 0 .. committed-1 are committed; keep the newest `pending`.
  uint64_t limit = pending < 0 ? UINT64_MAX
                   : t.committed >= uint64_t(pending)
                       ? t.committed - uint64_t(pending)
                       : 0;
  std::vector<Copy> keep;
  for (const Copy &c : t.copies) {
    if (c.group < limit)
      completeCopy(t, c);
    else
      keep.push_back(c);
  }
  t.copies = std::move(keep);
}

void Worker::bulkCopy(const tlc_sim_bulk_piece *pieces, uint32_t count,
                      uint64_t *bar, uint64_t where) {
  Thread &t = *current;
  BulkCopy c{{}, bar, 0, t.linear, where};
  for (uint32_t p = 0; p < count; ++p) {
    tlc_sim_bulk_piece piece = pieces[p];
    auto d = static_cast<unsigned char *>(piece.dst);
    if (d < shared || d + piece.bytes > shared + sharedBytes)
      trap("memcheck",
           "TMA copy destination is not inside the block's " +
               std::to_string(sharedBytes) + " bytes of shared memory, by " +
               threadName(t.linear) + " at {0}",
           where);
    // An out-of-bounds source is reported and copied as zeros.
    if (piece.src && !access(piece.src, piece.bytes, TLC_SIM_LOAD, -1, where))
      piece.src = nullptr;
    size_t offset = d - shared;
    bool inFlight = false;
    for (uint32_t i = 0; i < piece.bytes && !inFlight; ++i) {
      const ShadowByte &sh = shadow[offset + i];
      if (sh.flags & kPending) {
        report("racecheck",
               "TMA copy to shared memory at offset " +
                   std::to_string(offset + i) + " by " + threadName(t.linear) +
                   " at {0} while an earlier copy issued by " +
                   threadName(sh.writer) + " at {1} is still writing it",
               where, sh.writeWhere);
        inFlight = true;
      }
    }
    // The copy is ordered after what its issuer did before it (the
    // stage's readers released it): write-after-read and write-after-write
    // are checked with the issuer's knowledge, now.
    if (launch.config->redZones)
      checkRedZones(t.linear, offset, piece.bytes, TLC_SIM_STORE, where);
    if (!inFlight)
      checkShared(t.linear, offset, piece.bytes, TLC_SIM_STORE, where);
    for (uint32_t i = 0; i < piece.bytes; ++i) {
      ShadowByte &sh = shadow[offset + i];
      sh.flags |= kPending | kBulk;
      sh.writer = uint16_t(t.linear);
      sh.writeWhere = where;
    }
    c.bytes += piece.bytes;
    c.pieces.push_back(piece);
  }
  bulkCopies.push_back(std::move(c));
}

unsigned Worker::copyAgent(const uint64_t *bar) {
  for (size_t a = 0; a < agentBars.size(); ++a)
    if (agentBars[a] == bar)
      return numThreads + unsigned(a);
  if (agentBars.size() < kCopyAgents) {
    agentBars.push_back(bar);
    return numThreads + unsigned(agentBars.size() - 1);
  }
  // More mbarriers than agents: they share one (fewer races are seen).
  return numThreads +
         unsigned(reinterpret_cast<uintptr_t>(bar) / 8 % kCopyAgents);
}

void Worker::landBulkCopies() {
  std::vector<BulkCopy> landing = std::move(bulkCopies);
  bulkCopies.clear();
  for (const BulkCopy &c : landing)
    if (!landCopy(c.pieces, c.bar, c.bytes, threadName(c.issuer), c.where))
      return;
}

bool Worker::landCopy(const std::vector<tlc_sim_bulk_piece> &pieces,
                      uint64_t *bar, uint64_t bytes, const std::string &issuer,
                      uint64_t where) {
  unsigned agent = copyAgent(bar);
  ++clock[agent];
  for (const tlc_sim_bulk_piece &piece : pieces) {
    auto d = static_cast<unsigned char *>(piece.dst);
    if (piece.src)
      std::memcpy(d, piece.src, piece.bytes);
    else
      std::memset(d, 0, piece.bytes);
    size_t offset = d - shared;
    if (shadowMap)
      copyDefinedness(offset, piece.src, piece.bytes);
    for (uint32_t i = 0; i < piece.bytes; ++i) {
      ShadowByte &sh = shadow[offset + i];
      sh.flags = uint16_t((sh.flags & ~(kPending | kBulk)) | kWritten);
      sh.writer = uint16_t(agent);
      sh.writeClock = clock[agent];
      sh.writeWhere = where;
      sh.reader[0] = sh.reader[1] = kNone;
    }
  }
  // complete_tx: the copy's writes happen before what follows a wait on
  // the mbarrier that returns after this phase.
  std::vector<uint32_t> &known = mbarrierClocks[bar];
  if (known.empty())
    known.assign(numClocks, 0);
  known[agent] = std::max(known[agent], clock[agent]);
  // The transaction count (bits 32-62 of the mbarrier word, signed:
  // tlc_device/cuda/tma.h), then the phase if nothing is pending. The
  // bytes may complete before the expect-tx that announces them (a peer's
  // multicast); the PTX ISA bounds the count by 2^20 - 1 either way.
  uint64_t w = *bar;
  int64_t tx = mbarrierTxCount(w) - int64_t(bytes);
  if (tx < -kMaxTxCount) {
    Finding f;
    f.checker = "synccheck";
    f.message = "a TMA copy issued by " + issuer + " at {0} completes " +
                std::to_string(bytes) + " bytes on an mbarrier that expects " +
                std::to_string(mbarrierTxCount(w)) +
                " (mbarrier transaction count out of range)";
    f.where = where;
    launch.add(std::move(f), /*fatal=*/true);
    blockAborted = true;
    return false;
  }
  w = withTxCount(w, tx);
  if ((w & 0xFFFFu) == 0 && tx == 0) {
    uint64_t arrivals = (w >> 16) & 0xFFFFu;
    w = (((w >> 63) ^ 1u) << 63) | (arrivals << 16) | arrivals;
  }
  *bar = w;
  return true;
}
