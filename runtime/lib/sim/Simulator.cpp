//===- Simulator.cpp - SIMT execution of simulated CUDA kernels -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Simulator.h"
#include "Worker.h"

#include <algorithm>
#include <csignal>
#include <dlfcn.h>
#include <thread>
#include <ucontext.h>

using namespace tlc::runtime::sim;

/// What simulated kernels read on every access, per OS thread (abi.h): in
/// this executable's static TLS, exported (runtime/CMakeLists.txt) so that
/// the kernel object, which declares it initial-exec, binds to it (C
/// linkage from its declaration there).
__attribute__((
    visibility("default"))) __thread tlc_sim_thread_state tlc_sim_thread = {};

namespace {

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
void apiUninitUse(uint64_t where) { currentWorker->uninitUse(where); }
void apiThreadFence(uint64_t) { currentWorker->threadFence(); }
void apiAtomicAcquire(const void *address) {
  currentWorker->atomicAcquire(address);
}
void apiGridSync(uint64_t where) { currentWorker->gridArrive(where); }
const uint32_t *apiClusterDims() { return currentWorker->clusterDims(); }
void apiClusterArrive(int relaxed, uint64_t where) {
  currentWorker->clusterArrive(relaxed != 0, where);
}
void apiClusterWait(uint64_t where) { currentWorker->clusterWait(where); }
void *apiMapShared(const void *address, uint32_t rank, uint64_t where) {
  return currentWorker->mapShared(address, rank, where);
}
void apiMbarrierReleaseCluster(const uint64_t *bar, uint64_t where) {
  currentWorker->mbarrierReleaseCluster(bar, where);
}
void apiBulkCopyCluster(const tlc_sim_bulk_piece *pieces, uint32_t count,
                        uint64_t *bar, uint32_t ctaMask, uint64_t where) {
  currentWorker->bulkCopyCluster(pieces, count, bar, ctaMask, where);
}
void apiBulkCopyShared(void *dst, const void *src, uint32_t bytes,
                       uint64_t *bar, uint64_t where) {
  currentWorker->bulkCopyShared(dst, src, bytes, bar, where);
}
void apiSharedIndexFault(const char *name, int64_t index, uint32_t elemBytes,
                         uint32_t extentBytes, uint32_t offset, int kind,
                         uint64_t where) {
  currentWorker->sharedIndexFault(name, index, elemBytes, extentBytes, offset,
                                  kind, where);
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
    a.uninitUse = &apiUninitUse;
    a.threadFence = &apiThreadFence;
    a.atomicAcquire = &apiAtomicAcquire;
    a.gridSync = &apiGridSync;
    a.clusterDims = &apiClusterDims;
    a.clusterArrive = &apiClusterArrive;
    a.clusterWait = &apiClusterWait;
    a.mapShared = &apiMapShared;
    a.mbarrierReleaseCluster = &apiMbarrierReleaseCluster;
    a.bulkCopyCluster = &apiBulkCopyCluster;
    a.sharedIndexFault = &apiSharedIndexFault;
    a.bulkCopyShared = &apiBulkCopyShared;
    return a;
  }();
  return api;
}

Simulator::Simulator(const tlc_sim_kernel_api &kernel) : kernel(kernel) {}

std::vector<Finding> Simulator::launch(const LaunchConfig &config) {
  if (config.orderCheck == LaunchConfig::OrderCheck::Off)
    return run(config, /*reverse=*/false, nullptr);
  Arena &arena = Arena::get();
  Arena::Snapshot before = arena.snapshot();
  // The two runs compared hand blocks out on one worker: with several, the
  // blocks of a "first to last" run overlap and may reach global memory in
  // the other order, so a dependence on the order could go unseen. (A
  // cooperative launch has a worker per block, but they take turns in the
  // order blocks are handed out: its runs are in exact orders too.)
  LaunchConfig serial = config;
  serial.numWorkers = 1;
  bool atomics = false;
  bool always = config.orderCheck == LaunchConfig::OrderCheck::Always;
  std::vector<Finding> findings = run(always ? serial : config,
                                      /*reverse=*/false, nullptr, &atomics);
  if (!findings.empty())
    return findings;
  if (!always && !atomics)
    return findings;
  if (!always && config.numWorkers > 1 && !config.cooperative) {
    // The first run was the usual parallel one: run the forward order again.
    arena.restore(before);
    findings = run(serial, /*reverse=*/false, nullptr);
    if (!findings.empty())
      return findings;
  }
  Arena::Snapshot forward = arena.snapshot();
  arena.restore(before);
  std::unique_ptr<GlobalShadow> globals;
  findings = run(serial, /*reverse=*/true, &globals);
  if (!findings.empty())
    return findings;
  // Bytes that differ between the two orders, one finding per buffer at
  // the first whose last writer was a plain store (bytes only atomics
  // wrote may differ in rounding: a float sum's order is not fixed).
  for (const auto &[index, bytes] : forward) {
    const Arena::Buffer &b = arena.buffer(index);
    auto *now = reinterpret_cast<const unsigned char *>(b.base);
    size_t differing = 0, first = 0;
    Accessor who{};
    uint64_t where = 0;
    bool placed = false;
    for (size_t i = 0; i < bytes.size() && i < b.size; ++i) {
      if (bytes[i] == now[i])
        continue;
      ++differing;
      if (!placed && globals && globals->lastWrite(index, i, who, where)) {
        placed = true;
        first = i;
      }
    }
    if (!placed)
      continue;
    const unsigned *g = config.grid, *k = config.block;
    unsigned l = unsigned(who.thread);
    uint32_t thread[3] = {l % k[0], l / k[0] % k[1], l / (k[0] * k[1])};
    uint32_t block[3] = {uint32_t(who.block % g[0]),
                         uint32_t(who.block / g[0] % g[1]),
                         uint32_t(who.block / (uint64_t(g[0]) * g[1]))};
    Finding f;
    f.checker = "ordercheck";
    f.where = where;
    f.message =
        "byte " + std::to_string(first) + " of '" +
        (b.name.empty() ? std::string("buffer") : b.name) + "' (and " +
        std::to_string(differing - 1) +
        " more) differs between the blocks run first to last and last to "
        "first: the result depends on the order blocks are scheduled in "
        "(blocks exchange data through global memory with no atomic or "
        "grid-wide synchronisation ordering them); last stored by thread " +
        tuple3(thread) + " of block " + tuple3(block) + " at {0}";
    findings.push_back(std::move(f));
  }
  return findings;
}

std::vector<Finding> Simulator::run(const LaunchConfig &config, bool reverse,
                                    std::unique_ptr<GlobalShadow> *globals,
                                    bool *atomics) {
  LaunchState state;
  state.config = &config;
  state.kernel = &kernel;
  state.reverse = reverse;
  Dl_info info{};
  uint64_t placeBase =
      dladdr(reinterpret_cast<void *>(config.invoke), &info) && info.dli_fbase
          ? reinterpret_cast<uint64_t>(info.dli_fbase)
          : 0;
  if (kernel.shadowMap && Arena::get().shadow())
    Arena::get().clearShadow();
  state.globals =
      std::make_unique<GlobalShadow>(Arena::get().numBuffers(), placeBase);
  uint64_t numBlocks =
      uint64_t(config.grid[0]) * config.grid[1] * config.grid[2];
  unsigned workers = std::max(
      1u, std::min<unsigned>(config.numWorkers,
                             unsigned(std::min<uint64_t>(numBlocks, 256))));
  if (config.cooperative) {
    // Every block resident at once: a worker each (Grid.cpp).
    workers = unsigned(std::max<uint64_t>(numBlocks, 1));
    state.grid = std::make_unique<GridState>();
    state.grid->done.assign(numBlocks, false);
    state.grid->arrived.assign(numBlocks, false);
    state.grid->wake =
        std::make_unique<std::condition_variable[]>(size_t(numBlocks));
    for (std::vector<std::vector<uint32_t>> &slot : state.grid->arrivals)
      slot.resize(numBlocks);
  }
  unsigned clusterBlocks =
      config.cluster[0] * config.cluster[1] * config.cluster[2];
  if (clusterBlocks > 1 && !config.cooperative) {
    // The blocks of a cluster resident together: a worker per rank, the
    // clusters one after another (Cluster.cpp).
    workers = clusterBlocks;
    state.cluster = std::make_unique<ClusterState>();
    ClusterState &cs = *state.cluster;
    cs.size = clusterBlocks;
    for (int d = 0; d < 3; ++d)
      cs.dims[d] = config.cluster[d];
    cs.numClusters = numBlocks / clusterBlocks;
    cs.done.assign(clusterBlocks, false);
    cs.started.assign(clusterBlocks, false);
    cs.shared.assign(clusterBlocks, nullptr);
    cs.sharedShadow.assign(clusterBlocks, nullptr);
    cs.incoming.resize(clusterBlocks);
    cs.wake = std::make_unique<std::condition_variable[]>(clusterBlocks);
  }
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
  if (globals)
    *globals = std::move(state.globals);
  if (atomics)
    *atomics = state.globalAtomics;
  return std::move(state.findings);
}
