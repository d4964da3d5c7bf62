//===- Simulator.cpp - SIMT execution of simulated CUDA kernels -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Simulator.h"
#include "Fiber.h"
#include "GlobalShadow.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <sys/mman.h>
#include <thread>
#include <tuple>
#include <ucontext.h>

using namespace tlc::runtime::sim;

//===----------------------------------------------------------------------===//
// Arena
//===----------------------------------------------------------------------===//

namespace {
constexpr size_t kArenaBytes = size_t(64) << 30;
constexpr size_t kPage = 4096;
/// Red zone after a buffer: at least 4 KiB, an eighth of its size up to
/// 1 MiB (a far overrun is still reported as in no buffer).
size_t redZone(size_t bytes) {
  size_t z = std::max<size_t>(kPage, std::min<size_t>(bytes / 8, 1 << 20));
  return (z + kPage - 1) / kPage * kPage;
}
} // namespace

Arena &Arena::get() {
  static Arena arena;
  return arena;
}

Arena::Arena() {
  void *m = mmap(nullptr, kArenaBytes, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m != MAP_FAILED) {
    start = static_cast<char *>(m);
    size = kArenaBytes;
  }
}

Arena::~Arena() {
  if (start)
    munmap(start, size);
}

void *Arena::allocate(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  size_t rounded = (std::max<size_t>(bytes, 1) + kPage - 1) / kPage * kPage;
  // A leading red zone too, so underruns of the first buffer are seen.
  size_t offset = used + kPage;
  size_t end = offset + rounded + redZone(bytes);
  if (!start || end > size)
    return nullptr;
  if (mprotect(start + used, end - used, PROT_READ | PROT_WRITE) != 0)
    return nullptr;
  used = end;
  Buffer b;
  b.base = reinterpret_cast<uintptr_t>(start + offset);
  b.size = bytes;
  b.live = true;
  buffers.push_back(b);
  return start + offset;
}

void Arena::release(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex);
  for (Buffer &b : buffers)
    if (b.base == reinterpret_cast<uintptr_t>(ptr) && b.live) {
      b.live = false;
      // The pages stay mapped: a stale pointer is reported, not a fault.
      std::memset(ptr, 0xFF, b.size);
    }
}

void Arena::setName(void *ptr, std::string name) {
  std::lock_guard<std::mutex> lock(mutex);
  for (Buffer &b : buffers)
    if (b.base == reinterpret_cast<uintptr_t>(ptr) && b.live)
      b.name = std::move(name);
}

const Arena::Buffer *Arena::find(uintptr_t address) const {
  auto it =
      std::upper_bound(buffers.begin(), buffers.end(), address,
                       [](uintptr_t a, const Buffer &b) { return a < b.base; });
  // The buffer below (whose range or red zone may hold the address) or,
  // for an address in a leading red zone, the one above.
  if (it != buffers.begin()) {
    const Buffer &below = *(it - 1);
    if (address < below.base + below.size + redZone(below.size))
      return &below;
  }
  if (it != buffers.end() && it->base - address <= kPage)
    return &*it;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Workers: one block at a time on one OS thread
//===----------------------------------------------------------------------===//

namespace {

constexpr uint16_t kNone = 0xFFFF;
constexpr unsigned kMaxFindings = 16;
constexpr size_t kFiberStack = 256 << 10;
/// Helper accesses up to this far below a block's shared memory are
/// reported as shared underruns.
constexpr uintptr_t kSharedUnderrun = 4096;

enum class State { Runnable, AtBarrier, AtCollective, AtMbarrier, Done };

/// A cp.async waiting in its thread's queue.
struct Copy {
  unsigned char *dst;
  const unsigned char *src;
  uint32_t bytes, srcBytes;
  uint64_t group;
  uint64_t where;
};

/// A TMA copy in flight: issued, not landed.
struct BulkCopy {
  std::vector<tlc_sim_bulk_piece> pieces;
  uint64_t *bar;
  uint64_t bytes;
  unsigned issuer;
  uint64_t where;
};

/// Clock slots of the copy engine: the TMA copies completing on one
/// mbarrier write as one agent of their own, whose writes a thread knows
/// only through a wait on that mbarrier.
constexpr unsigned kCopyAgents = 16;

struct Thread {
  /// At an mbarrier wait: the barrier and the parity waited for.
  const uint64_t *mbarrier = nullptr;
  uint32_t parity = 0;
  std::unique_ptr<Fiber> fiber;
  unsigned linear = 0;
  tlc_sim_indices indices{};
  State state = State::Done;
  uint64_t where = 0;
  unsigned barrier = 0;
  // Warp collective being waited at.
  const char *op = nullptr;
  uint64_t mask = 0;
  tlc_sim_warp_fn fn = nullptr;
  void *data = nullptr;
  // cp.async queue: copies, and the number of groups committed so far.
  std::vector<Copy> copies;
  uint64_t committed = 0;
};

/// The shadow of one byte of shared memory.
struct ShadowByte {
  uint32_t writeClock;
  uint16_t writer;
  uint16_t flags;
  uint32_t readClock[2];
  uint16_t reader[2];
  uint32_t pad;
  uint64_t writeWhere;
  uint64_t readWhere[2];
};
/// kPending: a cp.async (or, with kBulk, a TMA copy) is writing the byte.
enum : uint16_t { kWritten = 1, kPending = 2, kBulk = 4 };

struct Barrier {
  unsigned expected = 0;
  /// Threads waiting at it.
  std::vector<unsigned> arrived;
  /// Threads counted by bar.arrive, which went on without waiting.
  std::vector<unsigned> arrivedOnly;
};

class Worker;
thread_local Worker *currentWorker = nullptr;

/// Where a simulated thread faulted (SIGSEGV/SIGBUS in kernel code: an
/// access far outside any buffer, a fiber stack overflow): the handler
/// jumps back to the worker's scheduler, which reports it.
struct Fault {
  sigjmp_buf jump;
  bool armed = false;
  uintptr_t address = 0;
  uint64_t pc = 0;
  int signal = 0;
};
thread_local Fault *currentFault = nullptr;

void onFault(int sig, siginfo_t *info, void *context) {
  Fault *f = currentFault;
  if (!f || !f->armed) {
    // Not in a simulated thread: die as without the handler.
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  f->armed = false;
  f->signal = sig;
  f->address = reinterpret_cast<uintptr_t>(info->si_addr);
#if defined(__x86_64__)
  f->pc =
      uint64_t(static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RIP]) +
      1;
#else
  (void)context;
#endif
  siglongjmp(f->jump, 1);
}

/// State shared by the workers of one launch.
struct LaunchState {
  const LaunchConfig *config;
  const tlc_sim_kernel_api *kernel;
  std::atomic<uint64_t> nextBlock{0}, blocksDone{0};
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  std::atomic<bool> aborted{false};
  std::mutex mutex;
  std::vector<Finding> findings;
  std::map<std::tuple<std::string, uint64_t, uint64_t>, size_t> seen;
  /// The racecheck of global memory.
  std::unique_ptr<GlobalShadow> globals;

  void add(Finding f, bool fatal) {
    std::lock_guard<std::mutex> lock(mutex);
    // initcheck findings are warnings: they never end the launch.
    bool warning = f.checker == "initcheck";
    auto key = std::make_tuple(f.checker, f.where, f.otherWhere);
    auto it = seen.find(key);
    if (it != seen.end()) {
      ++findings[it->second].count;
    } else if ((warning ? warnings : errors) < kMaxFindings) {
      seen[key] = findings.size();
      findings.push_back(std::move(f));
      ++(warning ? warnings : errors);
    }
    if (fatal || errors >= kMaxFindings)
      aborted = true;
  }
  unsigned warnings = 0, errors = 0;
};

std::string tuple3(const uint32_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
         std::to_string(v[2]) + ")";
}

class Worker : public Ordering {
public:
  Worker(LaunchState &launch)
      : launch(launch), main(Fiber::forCurrentThread()) {
    const LaunchConfig &c = *launch.config;
    numThreads = c.block[0] * c.block[1] * c.block[2];
    threads.resize(numThreads);
    for (unsigned t = 0; t < numThreads; ++t) {
      threads[t].fiber = std::make_unique<Fiber>(kFiberStack);
      threads[t].linear = t;
    }
    shared = launch.kernel->sharedMemory();
    sharedBytes = c.dynamicSharedMemory;
    shadow.resize(sharedBytes ? sharedBytes : 1);
    numClocks = numThreads + kCopyAgents;
    clock.resize(numClocks);
    base.resize(numClocks);
    warpSize = launch.kernel->warpSize;
    warpArrived.resize((numThreads + warpSize - 1) / warpSize);
  }

  bool valid() const {
    for (const Thread &t : threads)
      if (!t.fiber->valid())
        return false;
    return true;
  }

  /// Runs blocks until the grid is done or the launch aborted.
  void run() {
    // Faults are handled on their own stack (a fiber's may be exhausted).
    std::vector<char> altStack(1 << 16);
    stack_t alt{}, old{};
    alt.ss_sp = altStack.data();
    alt.ss_size = altStack.size();
    sigaltstack(&alt, &old);
    currentWorker = this;
    const LaunchConfig &c = *launch.config;
    uint64_t numBlocks = uint64_t(c.grid[0]) * c.grid[1] * c.grid[2];
    while (!launch.aborted) {
      uint64_t b = launch.nextBlock.fetch_add(1);
      if (b >= numBlocks)
        break;
      runBlock(b);
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

  /// Ends the launch (once) with a "too large to simulate" finding.
  void reportTooLarge(const std::string &why) {
    if (launch.aborted.exchange(true))
      return;
    Finding f;
    f.checker = "limit";
    f.message = "too large to simulate in reasonable time: " + why;
    std::lock_guard<std::mutex> lock(launch.mutex);
    launch.findings.push_back(std::move(f));
  }
  /// Seconds since the launch began.
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         launch.start)
        .count();
  }
  /// Seconds since the running block began.
  double blockSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         blockStart)
        .count();
  }

  bool before(unsigned me, unsigned thread, uint64_t clock) const override {
    return knows(me, thread) >= clock;
  }

  // The host API, for the calling fiber.
  const tlc_sim_indices *indices() { return &current->indices; }
  bool access(const void *address, uint32_t bytes, int kind, int32_t thread,
              uint64_t where);
  void barrierArrive(uint32_t id, uint32_t count, uint64_t where);
  /// mbarrier.try_wait.parity in a loop: blocks until the phase completed.
  void mbarrierWait(const uint64_t *bar, uint32_t parity, uint64_t where);
  /// mbarrier.arrive's release: the caller's accesses so far happen before
  /// what a thread does after a wait on \p bar returns.
  void mbarrierRelease(const uint64_t *bar);
  /// The acquire of a wait on \p bar that returned in thread \p t.
  void mbarrierAcquire(unsigned t, const uint64_t *bar);
  /// Makes the threads whose mbarrier phase completed runnable; whether
  /// there was one.
  bool resolveMbarriers();
  void warpCollective(const char *op, uint64_t mask, tlc_sim_warp_fn fn,
                      void *data, uint64_t where);
  void cpAsync(void *dst, const void *src, uint32_t bytes, uint32_t srcBytes,
               uint64_t where);
  void cpAsyncCommit() { ++current->committed; }
  void cpAsyncWait(int32_t pending, uint64_t where);
  void bulkCopy(const tlc_sim_bulk_piece *pieces, uint32_t count, uint64_t *bar,
                uint64_t where);
  [[noreturn]] void trap(const std::string &checker, const std::string &message,
                         uint64_t where, uint64_t otherWhere = 0);

private:
  void runBlock(uint64_t linearBlock);
  static void threadMain(void *arg);
  /// Suspends the calling fiber until the scheduler resumes it.
  void yield() {
    settleWrite(current->linear);
    main.switchFrom(*current->fiber);
  }
  /// A global write-after-write found at a store, reported only if the
  /// store changes the bytes (threads of a replicated fragment that store
  /// the same value do not race in effect): checked after the store, at
  /// the thread's next access or when it blocks or exits.
  struct PendingWrite {
    bool armed = false;
    const unsigned char *address = nullptr;
    uint32_t bytes = 0;
    unsigned char before[16];
    Finding finding;
  };
  void settleWrite(unsigned t) {
    if (t >= pendingWrites.size() || !pendingWrites[t].armed)
      return;
    PendingWrite &p = pendingWrites[t];
    p.armed = false;
    if (std::memcmp(p.address, p.before, p.bytes) != 0)
      launch.add(std::move(p.finding), /*fatal=*/false);
  }
  [[noreturn]] void exitThread();

  /// What thread \p t knows of the clock of thread (or copy agent) \p u.
  uint32_t knows(unsigned t, unsigned u) const {
    if (t == u)
      return clock[t];
    uint32_t k = base[u];
    if (!overlay.empty())
      k = std::max(k, overlay[size_t(t) * numClocks + u]);
    return k;
  }
  /// The overlay, allocated on first use.
  void needOverlay() {
    if (overlay.empty())
      overlay.assign(size_t(numThreads) * numClocks, 0);
  }
  /// The copy agent of TMA copies completing on \p bar.
  unsigned copyAgent(const uint64_t *bar);
  /// Performs every TMA copy in flight and completes its bytes on its
  /// mbarrier.
  void landBulkCopies();
  bool ordered(unsigned t, uint16_t other, uint32_t otherClock) const {
    return other == kNone || other == t || knows(t, other) >= otherClock;
  }
  /// Resumes \p participants after a barrier, each learning what every
  /// participant and every one of \p senders (bar.arrive) knew.
  void release(const std::vector<unsigned> &participants,
               const std::vector<unsigned> &senders = {});

  /// What is missing between two accesses, the earlier one by \p other.
  std::string noOrder(unsigned other) const {
    return other >= numThreads
               ? " with no wait on the copy's mbarrier between them"
               : " with no barrier between them";
  }
  std::string threadName(unsigned t) const {
    if (t >= numThreads)
      return "the TMA copy engine";
    return "thread " + tuple3(threads[t].indices.thread) + " of block " +
           tuple3(threads[t].indices.block);
  }
  void report(const std::string &checker, const std::string &message,
              uint64_t where, uint64_t otherWhere = 0) {
    Finding f;
    f.checker = checker;
    f.message = message;
    f.where = where;
    f.otherWhere = otherWhere;
    launch.add(std::move(f), /*fatal=*/false);
  }
  void checkShared(unsigned t, size_t offset, uint32_t bytes, int kind,
                   uint64_t where);
  void checkGlobal(unsigned t, const Arena::Buffer &b, uintptr_t address,
                   uint32_t bytes, int kind, uint64_t where);
  void completeCopy(Thread &t, const Copy &c);
  void reportDeadlock();
  /// With no thread runnable: completes every `activemask` collective with
  /// the lanes of its warp that wait at it from the same place (the lanes
  /// that are converged there; the others are blocked elsewhere or have
  /// exited). Whether any was completed.
  bool resolveActiveMasks();

  LaunchState &launch;
  Fiber main;
  std::vector<Thread> threads;
  unsigned numThreads = 0;
  Thread *current = nullptr;
  bool blockAborted = false;
  /// The linear index of the running block.
  uint64_t currentBlock = 0;
  /// Per thread: its last store's write-after-write, to be settled.
  std::vector<PendingWrite> pendingWrites;
  /// When the running block began (its own time limit).
  std::chrono::steady_clock::time_point blockStart;
  unsigned char *shared = nullptr;
  uint32_t sharedBytes = 0;
  std::vector<ShadowByte> shadow;
  // Vector clocks (threads, then the copy agents): own clocks, what every
  // thread knows after the last full barrier, and per-thread knowledge from
  // partial (named) barriers and mbarrier waits (numThreads x numClocks).
  std::vector<uint32_t> clock, base, overlay;
  unsigned numClocks = 0;
  /// The mbarrier of each copy agent in use.
  std::vector<const uint64_t *> agentBars;
  /// TMA copies in flight, oldest first.
  std::vector<BulkCopy> bulkCopies;
  /// Per mbarrier: what its arrivers knew when they arrived (release);
  /// a wait that returns learns it (acquire).
  std::map<const uint64_t *, std::vector<uint32_t>> mbarrierClocks;
  Barrier barriers[16];
  /// Threads per warp (32) or wavefront (64) of the kernel's language.
  unsigned warpSize = 32;
  /// Lanes of each warp waiting at a warp collective.
  std::vector<unsigned> warpArrived;
};

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
    t.committed = 0;
    t.fiber->reset(&Worker::threadMain, &t);
  }
  // Shared memory starts as garbage (all ones: NaN in every float type).
  std::memset(shared, 0xFF, sharedBytes);
  ShadowByte fresh{};
  fresh.writer = fresh.reader[0] = fresh.reader[1] = kNone;
  std::fill(shadow.begin(), shadow.end(), fresh);
  std::fill(clock.begin(), clock.end(), 1);
  std::fill(base.begin(), base.end(), 0);
  overlay.clear();
  mbarrierClocks.clear();
  agentBars.clear();
  bulkCopies.clear();
  for (Barrier &bar : barriers)
    bar = Barrier();
  std::fill(warpArrived.begin(), warpArrived.end(), 0);
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
    // One block that alone outlasts the limit (a long loop per block, as
    // in a persistent kernel) ends the launch too: its own time is checked
    // after every scheduling round (the launch's between blocks, in run()).
    if (c.timeLimit > 0 && !launch.aborted && blockSeconds() > c.timeLimit) {
      reportTooLarge("block " + tuple3(block) + " has not finished after " +
                     std::to_string(int(blockSeconds())) +
                     " s; simulate smaller sizes (-D bindings), e.g. fewer "
                     "iterations of the block's loops");
      break;
    }
    if (!blockAborted && !launch.aborted && resolveMbarriers())
      continue;
    // TMA copies land as late as they may: once no thread can run.
    if (!bulkCopies.empty() && !blockAborted && !launch.aborted &&
        std::none_of(threads.begin(), threads.end(), [](const Thread &t) {
          return t.state == State::Runnable;
        })) {
      landBulkCopies();
      continue;
    }
    if (!ran && !blockAborted && !launch.aborted) {
      if (resolveActiveMasks())
        continue;
      reportDeadlock();
      break;
    }
  }
  currentFault = nullptr;
  for (unsigned t = 0; t < pendingWrites.size(); ++t)
    settleWrite(t);
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
            : "exit";
    groups[{int(t.state), what, t.state == State::Done ? 0 : t.where}]
        .push_back(t.linear);
  }
  std::string message = "the threads of block " +
                        tuple3(threads[0].indices.block) +
                        " cannot all continue (a barrier or warp collective "
                        "not reached by every thread it waits for, or an "
                        "mbarrier phase that cannot complete):";
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
    if (offset + bytes > sharedBytes) {
      report("memcheck",
             "out-of-bounds shared " + std::string(verb) + " of " +
                 std::to_string(bytes) + " bytes at offset " +
                 std::to_string(offset) + " (the block has " +
                 std::to_string(sharedBytes) +
                 " bytes of dynamic shared memory) by " + threadName(t) +
                 " at {0}",
             where);
      return false;
    }
    checkShared(t, offset, bytes, kind, where);
    return true;
  }
  // The access hooks pass only global and shared addresses; anything else
  // comes from a helper (atomics, vector accesses, cp.async), whose operand
  // must be global or shared memory (or the caller's registers, above).
  if (a - Arena::get().base() >= Arena::get().reserved()) {
    std::string near =
        a < s && s - a <= kSharedUnderrun
            ? std::to_string(s - a) +
                  " bytes before the block's shared memory (a negative index?)"
            : "neither global nor shared memory";
    report("memcheck",
           "out-of-bounds " + std::string(verb) + " of " +
               std::to_string(bytes) + " bytes: " + near + ", by " +
               threadName(t) + " at {0}",
           where);
    return false;
  }
  const Arena::Buffer *b = Arena::get().find(a);
  if (b && b->live && a >= b->base && a + bytes <= b->base + b->size) {
    if (kind != TLC_SIM_ATOMIC && launch.globals)
      checkGlobal(t, *b, a, bytes, kind, where);
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

void Worker::checkShared(unsigned t, size_t offset, uint32_t bytes, int kind,
                         uint64_t where) {
  for (uint32_t i = 0; i < bytes; ++i) {
    ShadowByte &s = shadow[offset + i];
    auto at = [&] { return " at offset " + std::to_string(offset + i); };
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
      if (!(s.flags & kWritten)) {
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
      (race.earlier.block != me.block ? "blocks of one launch are not ordered"
                                      : "no barrier between them") +
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
  for (const BulkCopy &c : landing) {
    unsigned agent = copyAgent(c.bar);
    ++clock[agent];
    for (const tlc_sim_bulk_piece &piece : c.pieces) {
      auto d = static_cast<unsigned char *>(piece.dst);
      if (piece.src)
        std::memcpy(d, piece.src, piece.bytes);
      else
        std::memset(d, 0, piece.bytes);
      size_t offset = d - shared;
      for (uint32_t i = 0; i < piece.bytes; ++i) {
        ShadowByte &sh = shadow[offset + i];
        sh.flags = uint16_t((sh.flags & ~(kPending | kBulk)) | kWritten);
        sh.writer = uint16_t(agent);
        sh.writeClock = clock[agent];
        sh.writeWhere = c.where;
        sh.reader[0] = sh.reader[1] = kNone;
      }
    }
    // complete_tx: the copy's writes happen before what follows a wait on
    // the mbarrier that returns after this phase.
    std::vector<uint32_t> &known = mbarrierClocks[c.bar];
    if (known.empty())
      known.assign(numClocks, 0);
    known[agent] = std::max(known[agent], clock[agent]);
    // The transaction bytes (bits 32-62 of the mbarrier word,
    // tlc_device/cuda/tma.h), then the phase if nothing is pending.
    uint64_t w = *c.bar;
    uint64_t tx = (w >> 32) & 0x7FFFFFFFu;
    if (tx < c.bytes) {
      Finding f;
      f.checker = "synccheck";
      f.message = "a TMA copy issued by " + threadName(c.issuer) +
                  " at {0} completes " + std::to_string(c.bytes) +
                  " bytes on an mbarrier that expects " + std::to_string(tx) +
                  " (mbarrier transaction count out of range)";
      f.where = c.where;
      launch.add(std::move(f), /*fatal=*/true);
      blockAborted = true;
      return;
    }
    w = (w & ~(uint64_t(0x7FFFFFFFu) << 32)) | ((tx - c.bytes) << 32);
    if ((w & 0xFFFFu) == 0 && tx == c.bytes) {
      uint64_t arrivals = (w >> 16) & 0xFFFFu;
      w = (((w >> 63) ^ 1u) << 63) | (arrivals << 16) | arrivals;
    }
    *c.bar = w;
  }
}

//===----------------------------------------------------------------------===//
// The host API table
//===----------------------------------------------------------------------===//

const tlc_sim_indices *apiIndices() { return currentWorker->indices(); }
int apiAccess(const void *a, uint32_t n, int kind, int32_t thread,
              uint64_t where) {
  return currentWorker->access(a, n, kind, thread, where);
}
void apiBarrier(uint32_t id, uint32_t count, uint64_t where) {
  currentWorker->barrierArrive(id, count, where);
}
void apiCollective(const char *op, uint64_t mask, tlc_sim_warp_fn fn,
                   void *data, uint64_t where) {
  currentWorker->warpCollective(op, mask, fn, data, where);
}
void apiCpAsync(void *d, const void *s, uint32_t n, uint32_t sn,
                uint64_t where) {
  currentWorker->cpAsync(d, s, n, sn, where);
}
void apiCpAsyncCommit(uint64_t) { currentWorker->cpAsyncCommit(); }
void apiCpAsyncWait(int32_t pending, uint64_t where) {
  currentWorker->cpAsyncWait(pending, where);
}
void apiMbarrierWait(const uint64_t *bar, uint32_t parity, uint64_t where) {
  currentWorker->mbarrierWait(bar, parity, where);
}
void apiMbarrierRelease(const uint64_t *bar) {
  currentWorker->mbarrierRelease(bar);
}
void apiBulkCopy(const tlc_sim_bulk_piece *pieces, uint32_t count,
                 uint64_t *bar, uint64_t where) {
  currentWorker->bulkCopy(pieces, count, bar, where);
}
void apiTrap(const char *message, uint64_t where) {
  currentWorker->trap("trap", std::string(message) + " at {0}", where);
}

} // namespace

const tlc_sim_host_api &Simulator::hostApi() {
  static const tlc_sim_host_api api = [] {
    tlc_sim_host_api a{};
    a.abiVersion = TLC_SIM_ABI_VERSION;
    a.checkedBase = Arena::get().base();
    a.checkedSize = Arena::get().reserved();
    a.indices = &apiIndices;
    a.access = &apiAccess;
    a.barrier = &apiBarrier;
    a.warpCollective = &apiCollective;
    a.cpAsync = &apiCpAsync;
    a.cpAsyncCommit = &apiCpAsyncCommit;
    a.cpAsyncWait = &apiCpAsyncWait;
    a.trap = &apiTrap;
    a.mbarrierWait = &apiMbarrierWait;
    a.mbarrierRelease = &apiMbarrierRelease;
    a.bulkCopy = &apiBulkCopy;
    return a;
  }();
  return api;
}

Simulator::Simulator(const tlc_sim_kernel_api &kernel) : kernel(kernel) {}

std::vector<Finding> Simulator::launch(const LaunchConfig &config) {
  LaunchState state;
  state.config = &config;
  state.kernel = &kernel;
  Dl_info info{};
  uint64_t placeBase =
      dladdr(reinterpret_cast<void *>(config.invoke), &info) && info.dli_fbase
          ? reinterpret_cast<uint64_t>(info.dli_fbase)
          : 0;
  state.globals =
      std::make_unique<GlobalShadow>(Arena::get().numBuffers(), placeBase);
  uint64_t numBlocks =
      uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
  unsigned workers = std::max(
      1u, std::min<unsigned>(config.numWorkers,
                             unsigned(std::min<uint64_t>(numBlocks, 256))));
  auto body = [&] {
    Worker w(state);
    if (!w.valid()) {
      Finding f;
      f.checker = "trap";
      f.message = "cannot map the fiber stacks of a block";
      state.add(std::move(f), true);
      return;
    }
    w.run();
  };
  // Kernel faults become findings for the duration of the launch.
  struct sigaction action {
  }, oldSegv{}, oldBus{};
  action.sa_sigaction = &onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &oldSegv);
  sigaction(SIGBUS, &action, &oldBus);
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < workers; ++i)
    pool.emplace_back(body);
  body();
  for (std::thread &t : pool)
    t.join();
  sigaction(SIGSEGV, &oldSegv, nullptr);
  sigaction(SIGBUS, &oldBus, nullptr);
  return std::move(state.findings);
}
