//===- Fences.cpp - Ordering between blocks: fences and atomics (sim) -----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Nothing orders the blocks of a launch except a thread's __threadfence
// followed by its atomic on an address, which another block's atomic on the
// same address later in their order acquires (the PTX ISA's release
// pattern, fence then atomic; the CUDA programming guide's last-block
// reduction: partial results stored, __threadfence, an atomicInc ticket,
// and the block that draws the last ticket reads the others' partials).
//
// A fence records what its thread knows of its block's clocks (its own and
// those its barriers taught it); each later atomic of that thread on a
// global address appends that record to the address's release log before
// it is performed. After an atomic is performed its thread acquires the log
// as it then stands: every release of an atomic before it in the address's
// order (appended before that atomic was performed). A full barrier (or a
// named one) shares what its participants acquired. The global racecheck
// asks beforeAcross() whether an access of another block is ordered.
//
// The acquiring atomic needs no fence of its own (the programming guide's
// example has none). Knowledge is not passed on: a block's release carries
// its own threads' clocks, not what it acquired from other blocks.
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

using namespace tlc::runtime::sim;

void Worker::threadFence() {
  unsigned t = current->linear;
  std::vector<uint32_t> &row = fenceClocks[t];
  row.resize(numThreads);
  for (unsigned u = 0; u < numThreads; ++u)
    row[u] = knows(t, u);
  // Accesses after the fence are not covered by it.
  ++clock[t];
}

void Worker::atomicRelease(unsigned t, uintptr_t address) {
  std::lock_guard<std::mutex> lock(launch.releaseMutex);
  launch.releases[address].entries.push_back({currentBlock, fenceClocks[t]});
}

void Worker::atomicAcquire(const void *address) {
  unsigned t = current->linear;
  std::lock_guard<std::mutex> lock(launch.releaseMutex);
  auto it = launch.releases.find(reinterpret_cast<uintptr_t>(address));
  if (it == launch.releases.end())
    return;
  const ReleaseLog &log = it->second;
  std::vector<Acquired> &mine = threadAcquired[t];
  for (Acquired &a : mine)
    if (a.log == &log) {
      a.count = log.entries.size();
      return;
    }
  mine.push_back({&log, log.entries.size()});
}

void Worker::shareAcquired(const std::vector<unsigned> &participants) {
  bool any = false;
  for (unsigned p : participants)
    any |= !threadAcquired[p].empty();
  if (!any)
    return;
  if (participants.size() == numThreads) {
    for (unsigned p : participants) {
      blockAcquired.insert(blockAcquired.end(), threadAcquired[p].begin(),
                           threadAcquired[p].end());
      threadAcquired[p].clear();
    }
    return;
  }
  std::vector<Acquired> merged;
  for (unsigned p : participants)
    merged.insert(merged.end(), threadAcquired[p].begin(),
                  threadAcquired[p].end());
  for (unsigned p : participants)
    threadAcquired[p] = merged;
}

bool Worker::beforeAcross(unsigned me, uint64_t block, unsigned thread,
                          uint64_t clock) const {
  if (blockAcquired.empty() &&
      (me >= threadAcquired.size() || threadAcquired[me].empty()))
    return false;
  std::lock_guard<std::mutex> lock(launch.releaseMutex);
  auto known = [&](const std::vector<Acquired> &list) {
    for (const Acquired &a : list)
      for (size_t i = 0; i < a.count; ++i) {
        const Release &r = a.log->entries[i];
        if (r.block == block && thread < r.clocks.size() &&
            r.clocks[thread] >= clock)
          return true;
      }
    return false;
  };
  return known(blockAcquired) ||
         (me < threadAcquired.size() && known(threadAcquired[me]));
}
