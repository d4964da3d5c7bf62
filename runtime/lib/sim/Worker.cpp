//===- Worker.cpp - Scheduling and synchronisation of a block (sim) -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Worker.h"

#include <algorithm>
#include <csignal>
#include <sys/mman.h>

using namespace tlc::runtime::sim;

thread_local Worker *tlc::runtime::sim::currentWorker = nullptr;
thread_local Fault *tlc::runtime::sim::currentFault = nullptr;

Worker::Worker(LaunchState &launch)
    : launch(launch), main(Fiber::forCurrentThread()) {
  const LaunchConfig &c = *launch.config;
  numThreads = c.block[0] * c.block[1] * c.block[2];
  threads.resize(numThreads);
  if (launch.kernel->shadowMap)
    arenaShadow = Arena::get().shadow();
  if (arenaShadow) {
    // One pool of stacks (each after a guard page) with one shadow, so a
    // lane's registers are found wherever a warp collective reads them.
    size_t stride = kFiberStack + kStackGuard;
    stackPoolBytes = stride * numThreads;
    void *m = mmap(nullptr, stackPoolBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *sh = mmap(nullptr, stackPoolBytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED && sh != MAP_FAILED) {
      stackPool = static_cast<char *>(m);
      stackPoolShadow = static_cast<unsigned char *>(sh);
    } else {
      if (m != MAP_FAILED)
        munmap(m, stackPoolBytes);
      if (sh != MAP_FAILED)
        munmap(sh, stackPoolBytes);
      arenaShadow = nullptr;
    }
  }
  for (unsigned t = 0; t < numThreads; ++t) {
    if (stackPool) {
      char *stack = stackPool + size_t(t) * (kFiberStack + kStackGuard);
      mprotect(stack, kStackGuard, PROT_NONE);
      threads[t].fiber =
          std::make_unique<Fiber>(stack + kStackGuard, kFiberStack);
    } else {
      threads[t].fiber = std::make_unique<Fiber>(kFiberStack);
    }
    threads[t].linear = t;
  }
  if (arenaShadow) {
    arenaBase = Arena::get().base();
    arenaSize = Arena::get().reserved();
    contexts.assign(size_t(numThreads) * TLC_SIM_CONTEXT_BYTES, 0);
    shadowMap = launch.kernel->shadowMap();
    shadowMap->context = nullptr;
    shadowMap->stackBase = reinterpret_cast<uintptr_t>(stackPool);
    shadowMap->stackSize = stackPoolBytes;
    shadowMap->stackShadow = stackPoolShadow;
    shadowMap->arenaBase = arenaBase;
    shadowMap->arenaSize = arenaSize;
    shadowMap->arenaShadow = arenaShadow;
  }
  shared = launch.kernel->sharedMemory();
  tlc_sim_thread.sharedBase = reinterpret_cast<uintptr_t>(shared);
  sharedBytes = c.dynamicSharedMemory;
  shadow.resize(sharedBytes ? sharedBytes : 1);
  numClocks = numThreads + kCopyAgents;
  clock.resize(numClocks);
  base.resize(numClocks);
  warpSize = launch.kernel->warpSize;
  warpArrived.resize((numThreads + warpSize - 1) / warpSize);
  for (int d = 0; d < 3; ++d)
    clusterDimsOfLaunch[d] = launch.cluster ? launch.cluster->dims[d] : 1;
}

Worker::~Worker() {
  if (shadowMap) {
    shadowMap->context = nullptr;
    shadowMap->stackSize = 0;
    shadowMap->arenaShadow = nullptr;
  }
  threads.clear();
  if (stackPool)
    munmap(stackPool, stackPoolBytes);
  if (stackPoolShadow)
    munmap(stackPoolShadow, stackPoolBytes);
}

void Worker::defineForCall(const void *data, size_t bytes) {
  if (!shadowMap)
    return;
  auto a = reinterpret_cast<uintptr_t>(data);
  if (a - shadowMap->stackBase < shadowMap->stackSize)
    std::memset(stackPoolShadow + (a - shadowMap->stackBase), 0, bytes);
  if (shadowMap->context)
    std::memset(shadowMap->context, 0, 64);
}

bool Worker::valid() const {
  for (const Thread &t : threads)
    if (!t.fiber->valid())
      return false;
  return true;
}

void Worker::run() {
  // Faults are handled on their own stack (a fiber's may be exhausted).
  std::vector<char> altStack(1 << 16);
  stack_t alt{}, old{};
  alt.ss_sp = altStack.data();
  alt.ss_size = altStack.size();
  sigaltstack(&alt, &old);
  currentWorker = this;
  const LaunchConfig &c = *launch.config;
  uint64_t numBlocks = uint64_t(c.grid[0]) * c.grid[1] * c.grid[2];
  if (launch.cluster) {
    // A cluster launch: one rank of every cluster per worker (Cluster.cpp).
    runClusters();
    currentWorker = nullptr;
    sigaltstack(&old, nullptr);
    return;
  }
  if (launch.grid) {
    // A cooperative launch: one block per worker, run in its turns.
    uint64_t p = launch.nextBlock.fetch_add(1);
    if (p < numBlocks) {
      gridPosition = p;
      currentBlock = launch.reverse ? numBlocks - 1 - p : p;
      if (waitTurn())
        runBlock(currentBlock);
      gridExit();
    }
    currentWorker = nullptr;
    sigaltstack(&old, nullptr);
    return;
  }
  while (!launch.aborted) {
    uint64_t b = launch.nextBlock.fetch_add(1);
    if (b >= numBlocks)
      break;
    runBlock(launch.reverse ? numBlocks - 1 - b : b);
    if (blockAborted)
      break;
    uint64_t done = ++launch.blocksDone;
    double seconds = elapsed();
    if (c.timeLimit > 0 && seconds > c.timeLimit && done < numBlocks) {
      uint64_t fit = std::max<uint64_t>(
          1, uint64_t(double(done) * c.timeLimit / seconds / 2));
      reportTooLarge(
          std::to_string(done) + " of " + std::to_string(numBlocks) +
          " blocks in " + std::to_string(int(seconds)) + " s (about " +
          std::to_string(int(seconds * double(numBlocks) / double(done))) +
          " s for all); simulate smaller sizes (-D bindings), e.g. "
          "a grid of at most " +
          std::to_string(fit) + " blocks or a shorter reduction loop");
    }
  }
  currentWorker = nullptr;
  sigaltstack(&old, nullptr);
}

void Worker::reportTooLarge(const std::string &why) {
  if (launch.aborted.exchange(true))
    return;
  Finding f;
  f.checker = "limit";
  f.message = "too large to simulate in reasonable time: " + why;
  std::lock_guard<std::mutex> lock(launch.mutex);
  launch.findings.push_back(std::move(f));
}

void Worker::runBlock(uint64_t b) {
  const LaunchConfig &c = *launch.config;
  uint32_t block[3] = {uint32_t(b % c.grid[0]),
                       uint32_t(b / c.grid[0] % c.grid[1]),
                       uint32_t(b / (uint64_t(c.grid[0]) * c.grid[1]))};
  for (Thread &t : threads) {
    unsigned l = t.linear;
    uint32_t idx[3] = {l % c.block[0], l / c.block[0] % c.block[1],
                       l / (c.block[0] * c.block[1])};
    for (int d = 0; d < 3; ++d) {
      t.indices.thread[d] = idx[d];
      t.indices.block[d] = block[d];
      t.indices.blockDim[d] = c.block[d];
      t.indices.gridDim[d] = c.grid[d];
    }
    t.state = State::Runnable;
    t.copies.clear();
    t.indexFaulted = false;
    t.committed = 0;
    t.clusterArrivals = t.clusterWaits = 0;
    t.fiber->reset(&Worker::threadMain, &t);
  }
  // Shared memory starts as garbage (all ones: NaN in every float type).
  std::memset(shared, 0xFF, sharedBytes);
  ShadowByte fresh{};
  fresh.writer = fresh.reader[0] = fresh.reader[1] = kNone;
  std::fill(shadow.begin(), shadow.end(), fresh);
  if (shadowMap) {
    // Shared memory starts undefined; each fiber's entry has defined
    // parameters (its caller, the scheduler, is not instrumented).
    std::memset(shadowMap->sharedShadow, 0xFF, sharedBytes);
    for (unsigned t = 0; t < numThreads; ++t)
      std::memset(&contexts[size_t(t) * TLC_SIM_CONTEXT_BYTES], 0, 64);
  }
  std::fill(clock.begin(), clock.end(), 1);
  std::fill(base.begin(), base.end(), 0);
  overlay.clear();
  fenceClocks.assign(numThreads, {});
  fenceAcquired.assign(numThreads, {});
  threadAcquired.assign(numThreads, {});
  blockAcquired.clear();
  mbarrierClocks.clear();
  agentBars.clear();
  bulkCopies.clear();
  for (Barrier &bar : barriers)
    bar = Barrier();
  std::fill(warpArrived.begin(), warpArrived.end(), 0);
  gridWaiting = 0;
  ownCluster = ClusterBarrier();
  clusterKnows.clear();
  clusterProgress = false;
  blockAborted = false;
  currentBlock = b;
  blockStart = std::chrono::steady_clock::now();

  Fault fault;
  currentFault = &fault;
  if (sigsetjmp(fault.jump, 1)) {
    // A simulated thread faulted; its fiber is abandoned with the block.
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)fault.address);
    Finding f;
    f.checker = "memcheck";
    f.message =
        std::string(fault.signal == SIGBUS ? "SIGBUS" : "SIGSEGV") +
        " at address " + hex +
        " (outside every buffer and red zone, or "
        "a stack overflow) by " +
        (current ? threadName(current->linear) : std::string("a thread")) +
        " at {0}";
    f.where = fault.pc;
    launch.add(std::move(f), /*fatal=*/true);
    blockAborted = true;
    current = nullptr;
    currentFault = nullptr;
    return;
  }
  while (!blockAborted && !launch.aborted) {
    bool ran = false, live = false;
    for (Thread &t : threads) {
      if (blockAborted || launch.aborted)
        break;
      if (t.state == State::Runnable) {
        current = &t;
        if (shadowMap)
          shadowMap->context =
              &contexts[size_t(t.linear) * TLC_SIM_CONTEXT_BYTES];
        fault.armed = true;
        t.fiber->switchFrom(main);
        fault.armed = false;
        current = nullptr;
        ran = true;
      }
      live |= t.state != State::Done;
    }
    if (!live)
      break;
    clusterProgress |= ran;
    // Every thread waits at T.sync_grid: the block's turn ends there.
    if (launch.grid && gridWaiting == numThreads) {
      if (!gridBarrier())
        break;
      continue;
    }
    // One block that alone outlasts the limit (a long loop per block, as
    // in a persistent kernel) ends the launch too: its own time is checked
    // after every scheduling round (the launch's between blocks, in run()).
    // The blocks of a cooperative launch run in turns to the end of the
    // launch, which is timed instead.
    double seconds = launch.grid ? elapsed() : blockSeconds();
    if (c.timeLimit > 0 && !launch.aborted && seconds > c.timeLimit) {
      reportTooLarge(stillRunning(seconds));
      break;
    }
    if (!blockAborted && !launch.aborted && resolveMbarriers())
      continue;
    if (!blockAborted && !launch.aborted && resolveClusterWaits())
      continue;
    // TMA copies land as late as they may: once no thread can run (the
    // multicasts of the cluster's other blocks too).
    if (!blockAborted && !launch.aborted &&
        std::none_of(threads.begin(), threads.end(), [](const Thread &t) {
          return t.state == State::Runnable;
        })) {
      if (!bulkCopies.empty()) {
        landBulkCopies();
        continue;
      }
      if (hasIncoming()) {
        landIncoming();
        continue;
      }
    }
    if (!ran && !blockAborted && !launch.aborted) {
      if (resolveActiveMasks())
        continue;
      // A cluster launch: the peers may complete what the threads wait for.
      if (launch.cluster && clusterYield())
        continue;
      if (launch.aborted)
        break;
      reportDeadlock();
      break;
    }
  }
  currentFault = nullptr;
  for (unsigned t = 0; t < pendingWrites.size(); ++t)
    settleWrite(t);
}

std::string Worker::stillRunning(double seconds) const {
  if (launch.grid)
    return "the cooperative launch has not finished after " +
           std::to_string(int(seconds)) +
           " s (its blocks take turns; one may wait for something no block "
           "does); simulate smaller sizes (-D bindings), e.g. fewer "
           "iterations of the blocks' loops or fewer blocks";
  return "block " + tuple3(threads[0].indices.block) +
         " has not finished after " + std::to_string(int(seconds)) +
         " s; simulate smaller sizes (-D bindings), e.g. fewer iterations "
         "of the block's loops";
}

void Worker::sliceEnd() {
  sliceAccesses = 0;
  const LaunchConfig &c = *launch.config;
  double seconds = launch.grid ? elapsed() : blockSeconds();
  if (c.timeLimit > 0 && seconds > c.timeLimit && !launch.aborted)
    reportTooLarge(stillRunning(seconds));
  if (launch.aborted)
    abandonBlock();
  if (launch.grid)
    gridSliceEnd();
}

void Worker::abandonBlock() {
  blockAborted = true;
  current->state = State::Done;
  main.switchFrom(*current->fiber);
  __builtin_unreachable();
}

void Worker::threadMain(void *arg) {
  Thread &t = *static_cast<Thread *>(arg);
  Worker &w = *currentWorker;
  w.launch.config->invoke(w.launch.config->args);
  // Copies never waited for still land (nobody may read them any more).
  for (const Copy &c : t.copies)
    w.completeCopy(t, c);
  t.copies.clear();
  w.exitThread();
}

void Worker::exitThread() {
  settleWrite(current->linear);
  clusterThreadExited(); // the cluster barrier no longer counts it
  current->state = State::Done;
  // A collective or barrier that only waited for this thread is now stuck;
  // the scheduler finds out when nothing can run.
  main.switchFrom(*current->fiber);
  __builtin_unreachable();
}

void Worker::trap(const std::string &checker, const std::string &message,
                  uint64_t where, uint64_t otherWhere) {
  Finding f;
  f.checker = checker;
  f.message = message;
  f.where = where;
  f.otherWhere = otherWhere;
  launch.add(std::move(f), /*fatal=*/true);
  blockAborted = true;
  current->state = State::Done;
  main.switchFrom(*current->fiber);
  __builtin_unreachable();
}

void Worker::release(const std::vector<unsigned> &participants,
                     const std::vector<unsigned> &senders) {
  shareAcquired(participants);
  if (!senders.empty()) {
    // bar.arrive: the senders' earlier accesses happen before what the
    // waiters do next; the senders learn nothing and are not resumed.
    needOverlay();
    std::vector<uint32_t> merged(numClocks, 0);
    for (const std::vector<unsigned> *group : {&participants, &senders})
      for (unsigned p : *group)
        for (unsigned u = 0; u < numClocks; ++u)
          merged[u] = std::max(merged[u], knows(p, u));
    for (unsigned p : participants)
      std::copy(merged.begin(), merged.end(),
                overlay.begin() + size_t(p) * numClocks);
    for (unsigned p : senders)
      ++clock[p];
    for (unsigned p : participants) {
      ++clock[p];
      threads[p].state = State::Runnable;
    }
    return;
  }
  if (participants.size() == numThreads) {
    // Everyone learns everyone's clock, and what any of them knew of the
    // copy agents.
    for (unsigned a = numThreads; a < numThreads + agentBars.size(); ++a)
      for (unsigned p = 0; p < numThreads; ++p)
        base[a] = std::max(base[a], knows(p, a));
    for (unsigned u = 0; u < numThreads; ++u)
      base[u] = clock[u];
    if (!overlay.empty())
      std::fill(overlay.begin(), overlay.end(), 0);
  } else {
    needOverlay();
    std::vector<uint32_t> merged(numClocks, 0);
    for (unsigned p : participants)
      for (unsigned u = 0; u < numClocks; ++u)
        merged[u] = std::max(merged[u], knows(p, u));
    for (unsigned p : participants)
      std::copy(merged.begin(), merged.end(),
                overlay.begin() + size_t(p) * numClocks);
  }
  for (unsigned p : participants) {
    ++clock[p];
    threads[p].state = State::Runnable;
  }
}

void Worker::barrierArrive(uint32_t id, uint32_t count, uint64_t where) {
  Thread &t = *current;
  bool arriveOnly = id & TLC_SIM_BARRIER_ARRIVE_ONLY;
  id &= ~uint32_t(TLC_SIM_BARRIER_ARRIVE_ONLY);
  if (id >= 16)
    trap("synccheck",
         "bar.sync " + std::to_string(id) + ": barrier ids are 0..15, by " +
             threadName(t.linear),
         where);
  if (count == 0)
    count = numThreads;
  if (count > numThreads || (count % 32 && count != numThreads))
    trap("synccheck",
         "bar.sync " + std::to_string(id) + ", " + std::to_string(count) +
             ": the thread count must be a multiple of 32 and at most the "
             "block's " +
             std::to_string(numThreads) + ", by " + threadName(t.linear),
         where);
  Barrier &bar = barriers[id];
  if (bar.arrived.empty() && bar.arrivedOnly.empty())
    bar.expected = count;
  else if (bar.expected != count)
    trap("synccheck",
         "bar.sync " + std::to_string(id) + " with " + std::to_string(count) +
             " threads while others wait there for " +
             std::to_string(bar.expected) + ", by " + threadName(t.linear),
         where);
  if (arriveOnly)
    bar.arrivedOnly.push_back(t.linear);
  else {
    t.state = State::AtBarrier;
    t.where = where;
    t.barrier = id;
    bar.arrived.push_back(t.linear);
  }
  if (bar.arrived.size() + bar.arrivedOnly.size() == bar.expected) {
    std::vector<unsigned> participants = std::move(bar.arrived);
    std::vector<unsigned> senders = std::move(bar.arrivedOnly);
    bar = Barrier();
    release(participants, senders);
    return;
  }
  if (!arriveOnly)
    yield();
}

/// Whether the phase of parity \p parity of \p bar has completed: the
/// current phase's parity (bit 63) differs.
static bool mbarrierPhaseDone(const uint64_t *bar, uint32_t parity) {
  return (*bar >> 63) != (parity & 1u);
}

void Worker::mbarrierRelease(const uint64_t *bar) {
  Thread &t = *current;
  std::vector<uint32_t> &known = mbarrierClocks[bar];
  if (known.empty())
    known.assign(numClocks, 0);
  for (unsigned u = 0; u < numClocks; ++u)
    known[u] = std::max(known[u], knows(t.linear, u));
  ++clock[t.linear];
}

void Worker::mbarrierAcquire(unsigned t, const uint64_t *bar) {
  if (launch.cluster) {
    // Arrivals from the other blocks of the cluster (Cluster.cpp).
    std::unique_lock<std::mutex> lock = clusterLock();
    auto r = launch.cluster->releases.find(
        {clusterRank,
         uint64_t(reinterpret_cast<const unsigned char *>(bar) - shared)});
    if (r != launch.cluster->releases.end())
      clusterAcquire(t, r->second);
  }
  auto it = mbarrierClocks.find(bar);
  if (it == mbarrierClocks.end())
    return;
  needOverlay();
  for (unsigned u = 0; u < numClocks; ++u)
    if (u != t) {
      uint32_t &k = overlay[size_t(t) * numClocks + u];
      k = std::max(k, it->second[u]);
    }
}

void Worker::mbarrierWait(const uint64_t *bar, uint32_t parity,
                          uint64_t where) {
  if (mbarrierPhaseDone(bar, parity)) {
    mbarrierAcquire(current->linear, bar);
    return;
  }
  Thread &t = *current;
  t.state = State::AtMbarrier;
  t.where = where;
  t.mbarrier = bar;
  t.parity = parity;
  yield();
}

bool Worker::resolveMbarriers() {
  bool resolved = false;
  for (Thread &t : threads)
    if (t.state == State::AtMbarrier &&
        mbarrierPhaseDone(t.mbarrier, t.parity)) {
      t.state = State::Runnable;
      mbarrierAcquire(t.linear, t.mbarrier);
      resolved = true;
    }
  return resolved;
}

void Worker::warpCollective(const char *op, uint64_t mask, tlc_sim_warp_fn fn,
                            void *data, uint64_t where) {
  Thread &t = *current;
  unsigned warp = t.linear / warpSize, lane = t.linear % warpSize;
  unsigned warpBase = warp * warpSize;
  if (warpSize < 64)
    mask &= (uint64_t(1) << warpSize) - 1;
  if (!(mask >> lane & 1u))
    trap("synccheck",
         std::string(op) + " by a lane outside its own mask, " +
             threadName(t.linear),
         where);
  t.state = State::AtCollective;
  t.where = where;
  t.op = op;
  t.mask = mask;
  t.fn = fn;
  t.data = data;
  // Most arrivals are not the last: only then is the mask checked.
  if (++warpArrived[warp] < unsigned(__builtin_popcountll(mask))) {
    yield();
    return;
  }
  void *lanes[64] = {};
  for (unsigned l = 0; l < warpSize; ++l) {
    if (!(mask >> l & 1u))
      continue;
    if (warpBase + l >= numThreads)
      trap("synccheck",
           std::string(op) + ": the mask names lane " + std::to_string(l) +
               ", which the block does not have, by " + threadName(t.linear),
           where);
    Thread &o = threads[warpBase + l];
    if (o.state == State::Done)
      trap("synccheck",
           std::string(op) + ": lane " + std::to_string(l) +
               " of the mask has exited, by " + threadName(t.linear),
           where);
    if (o.state != State::AtCollective)
      break;
    if (o.op != op || o.mask != mask)
      trap("synccheck",
           "lanes of warp " + std::to_string(warp) +
               " meet at different "
               "warp collectives: " +
               std::string(op) + " by " + threadName(t.linear) + " at {0}, " +
               o.op + " by " + threadName(o.linear) + " at {1}",
           where, o.where);
    lanes[l] = o.data;
    if (l == warpSize - 1 || (mask >> (l + 1)) == 0) {
      // Everyone arrived.
      std::vector<unsigned> participants;
      for (unsigned p = 0; p < warpSize; ++p)
        if (mask >> p & 1u) {
          threads[warpBase + p].state = State::Runnable;
          participants.push_back(warpBase + p);
        }
      // (fn may trap; the lanes are runnable already, the block ends.)
      warpArrived[warp] -= unsigned(participants.size());
      defineForCall(lanes, sizeof lanes);
      fn(lanes, mask, warpBase, where);
      if (std::strcmp(op, "bar.warp.sync") == 0)
        release(participants); // __syncwarp orders its lanes' memory
      return;
    }
  }
  yield();
}

bool Worker::resolveActiveMasks() {
  bool resolved = false;
  for (unsigned warpBase = 0; warpBase < numThreads; warpBase += warpSize) {
    for (unsigned l = 0; l < warpSize && warpBase + l < numThreads; ++l) {
      Thread &t = threads[warpBase + l];
      if (t.state != State::AtCollective ||
          std::strcmp(t.op, "activemask") != 0)
        continue;
      void *lanes[64] = {};
      uint64_t present = 0;
      for (unsigned o = 0; o < warpSize && warpBase + o < numThreads; ++o) {
        Thread &u = threads[warpBase + o];
        if (u.state == State::AtCollective && u.op == t.op &&
            u.where == t.where) {
          present |= uint64_t(1) << o;
          lanes[o] = u.data;
        }
      }
      for (unsigned o = 0; o < warpSize; ++o)
        if (present >> o & 1u)
          threads[warpBase + o].state = State::Runnable;
      warpArrived[warpBase / warpSize] -=
          unsigned(__builtin_popcountll(present));
      defineForCall(lanes, sizeof lanes);
      t.fn(lanes, present, warpBase, t.where);
      resolved = true;
    }
  }
  return resolved;
}

void Worker::reportDeadlock() {
  // Group the threads by what they wait at.
  std::map<std::tuple<int, std::string, uint64_t>, std::vector<unsigned>>
      groups;
  for (const Thread &t : threads) {
    std::string what =
        t.state == State::AtBarrier ? "bar.sync " + std::to_string(t.barrier)
        : t.state == State::AtCollective ? std::string(t.op)
        : t.state == State::AtMbarrier
            ? "an mbarrier wait for phase parity " + std::to_string(t.parity) +
                  " that no thread or copy can complete"
        : t.state == State::AtGridBarrier ? std::string("T.sync_grid")
        : t.state == State::AtClusterBarrier
            ? "barrier.cluster.wait (the cluster barrier)"
            : "exit";
    groups[{int(t.state), what, t.state == State::Done ? 0 : t.where}]
        .push_back(t.linear);
  }
  std::string message = "the threads of block " +
                        tuple3(threads[0].indices.block) +
                        " cannot all continue (a barrier, grid barrier, "
                        "cluster barrier or warp collective not reached by "
                        "every thread it waits for, or an mbarrier phase "
                        "that cannot complete" +
                        (launch.cluster ? std::string(", while no other "
                                                      "block of its cluster "
                                                      "can run either")
                                        : std::string()) +
                        "):";
  uint64_t first = 0, second = 0;
  int placeIndex = 0;
  for (auto &[key, ids] : groups) {
    auto &[state, what, where] = key;
    std::string range =
        std::to_string(ids.size()) + " thread" + (ids.size() == 1 ? "" : "s") +
        " (linear " + std::to_string(ids.front()) +
        (ids.size() > 1 ? ".." + std::to_string(ids.back()) : "") + ")";
    if (state == int(State::Done)) {
      message += " " + range + " exited;";
      continue;
    }
    message += " " + range + " wait at " + what;
    if (placeIndex < 2) {
      message += " at {" + std::to_string(placeIndex) + "}";
      (placeIndex == 0 ? first : second) = where;
      ++placeIndex;
    }
    message += ";";
  }
  message.pop_back();
  Finding f;
  f.checker = "synccheck";
  f.message = message;
  f.where = first;
  f.otherWhere = second;
  launch.add(std::move(f), /*fatal=*/true);
  blockAborted = true;
}
