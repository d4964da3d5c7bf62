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
// and the block that draws the last ticket reads the others' partials),
// and, in a cooperative launch, the grid barrier (Grid.cpp).
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
// example has none). Knowledge is passed on (the PTX memory model's
// causality order is transitive, and a fence is cumulative): a fence also
// records the releases of other blocks its thread had acquired by then
// (through its own atomics or a barrier with a thread that acquired them),
// and its later atomics' releases carry them. So in a chain where block A
// writes, fences and sets flag 1, block B acquires flag 1 (in any thread),
// fences and sets flag 2, and block C acquires flag 2, A's write happens
// before C's read; drop either fence and it does not. beforeAcross()
// follows these chains through any number of blocks and addresses.
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include <unordered_map>

using namespace tlc::runtime::sim;

void Worker::threadFence() {
  unsigned t = current->linear;
  std::vector<uint32_t> &row = fenceClocks[t];
  row.resize(numThreads);
  for (unsigned u = 0; u < numThreads; ++u)
    row[u] = knows(t, u);
  // The releases of other blocks it knows, passed on by its releases.
  std::vector<Acquired> &acquired = fenceAcquired[t];
  acquired = blockAcquired;
  acquired.insert(acquired.end(), threadAcquired[t].begin(),
                  threadAcquired[t].end());
  // Accesses after the fence are not covered by it.
  ++clock[t];
}

void Worker::atomicRelease(unsigned t, uintptr_t address) {
  std::lock_guard<std::mutex> lock(launch.releaseMutex);
  launch.releases[address].entries.push_back(
      {currentBlock, fenceClocks[t], fenceAcquired[t]});
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
  // Before a grid barrier the running block has passed since (Grid.cpp).
  if (gridOrdered(block, thread, clock))
    return true;
  // Before a release the running thread acquired in its cluster.
  if (clusterOrdered(me, block, thread, clock))
    return true;
  if (blockAcquired.empty() &&
      (me >= threadAcquired.size() || threadAcquired[me].empty()))
    return false;
  std::lock_guard<std::mutex> lock(launch.releaseMutex);
  // Every release reachable from what \p me acquired, each once: a log's
  // releases are acquired as a prefix, so per log the length of the prefix
  // already searched is enough.
  std::vector<Acquired> work(blockAcquired);
  if (me < threadAcquired.size())
    work.insert(work.end(), threadAcquired[me].begin(),
                threadAcquired[me].end());
  std::unordered_map<const ReleaseLog *, size_t> searched;
  while (!work.empty()) {
    Acquired a = work.back();
    work.pop_back();
    size_t &done = searched[a.log];
    if (a.count <= done)
      continue;
    size_t from = done;
    done = a.count;
    for (size_t i = from; i < a.count; ++i) {
      const Release &r = a.log->entries[i];
      if (r.block == block && thread < r.clocks.size() &&
          r.clocks[thread] >= clock)
        return true;
      work.insert(work.end(), r.inherited.begin(), r.inherited.end());
    }
  }
  return false;
}
