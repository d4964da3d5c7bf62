/*===- abi.h - Between simulated kernels and the simulator ---------*- C -*-===*
 *
 * Part of the tlc project.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * The `sim` device (runtime/lib/sim) compiles a CUDA artifact's NAME.cu for
 * the host against the headers of runtime/sim/include and dlopens it. The
 * kernel side (tlc_sim/builtins.h) reaches the simulator only through the
 * table below: thread indices, memory-access checks, barriers (of the
 * block, in a cooperative launch of the grid, in a cluster launch of the
 * cluster), warp rendezvous,
 * cp.async queues. The shared object exports
 * `const tlc_sim_kernel_api *tlc_sim_kernel(void)`.
 *
 * A *where* value names a place in the generated source: a return address
 * inside the kernel's shared object (symbolized with its line table), or,
 * with TLC_SIM_WHERE_LINE set, a line number of NAME.cu itself.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TLC_SIM_ABI_H
#define TLC_SIM_ABI_H

#include <stdint.h>

#define TLC_SIM_ABI_VERSION 12
#define TLC_SIM_WHERE_LINE (1ull << 63)
/* Or-ed into a barrier id: bar.arrive, which counts without waiting. */
#define TLC_SIM_BARRIER_ARRIVE_ONLY 0x100u
/* Accesses up to this many bytes below a block's shared memory (a negative
 * index into its first buffer) are reported as shared underruns. */
#define TLC_SIM_SHARED_UNDERRUN 4096u

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of memory access. */
enum { TLC_SIM_LOAD = 0, TLC_SIM_STORE = 1, TLC_SIM_ATOMIC = 2 };

/* One thread's CUDA indices (threadIdx, blockIdx, blockDim, gridDim). */
typedef struct tlc_sim_indices {
  uint32_t thread[3], block[3], blockDim[3], gridDim[3];
} tlc_sim_indices;

/* One run of a bulk copy: \p bytes from \p src (null: zeros) to \p dst. */
typedef struct tlc_sim_bulk_piece {
  void *dst;
  const void *src;
  uint32_t bytes;
} tlc_sim_bulk_piece;

/* A warp collective: called once, by the last lane to arrive, with every
 * participating lane's data (null for lanes outside \p laneMask; bit l is
 * lane l of the warp of 32 or wavefront of 64). */
/* The definedness shadow of a kernel compiled with TLC_SIM_INITCHECK
 * (clang's -fsanitize=kernel-memory, its run-time entry points in
 * tlc_sim/initcheck.h): one shadow byte per byte of memory, a set bit an
 * undefined bit. The simulator fills it per OS thread (ABI 6): the fiber
 * stacks of the worker (registers and local arrays), the block's shared
 * memory and the global arena each have a shadow; other memory is defined.
 * \p context is the running fiber's parameter/return-value shadow area
 * (TLC_SIM_CONTEXT_BYTES bytes, kernel-memory's context state). */
typedef struct tlc_sim_shadow_map {
  void *context;
  uintptr_t stackBase, stackSize;
  unsigned char *stackShadow;
  uintptr_t arenaBase, arenaSize;
  unsigned char *arenaShadow;
  uintptr_t sharedBase;
  unsigned char *sharedShadow;
} tlc_sim_shadow_map;
#define TLC_SIM_CONTEXT_BYTES 8192

/* Per OS thread, what the kernel object reads on every memory access: the
 * thread's `smem` and its shadow map. It lives in the host executable's
 * static TLS (the host exports `tlc_sim_thread`), which the kernel object
 * reaches with one %fs-relative load (initial-exec); its own thread_locals
 * are dynamic TLS, a call per access (ABI 7). */
typedef struct tlc_sim_thread_state {
  /* The calling OS thread's `smem` (tlc_sim_kernel_api::sharedMemory). */
  uintptr_t sharedBase;
  tlc_sim_shadow_map shadow;
} tlc_sim_thread_state;

#ifdef __cplusplus
extern "C" {
#endif
extern __thread tlc_sim_thread_state tlc_sim_thread
    __attribute__((tls_model("initial-exec")));
#ifdef __cplusplus
}
#endif

typedef void (*tlc_sim_warp_fn)(void *const *laneData, uint64_t laneMask,
                                uint32_t warpBaseThread, uint64_t where);

/* What the simulator offers the kernel. */
typedef struct tlc_sim_host_api {
  uint32_t abiVersion;
  /* Global memory and shared memory of every worker live in
   * [checkedBase, checkedBase + checkedSize); other addresses (the fiber
   * stacks: registers and local arrays) are not checked. */
  uintptr_t checkedBase, checkedSize;
  /* The calling thread's indices. */
  const tlc_sim_indices *(*indices)(void);
  /* Checks an access of \p bytes at \p address by linear thread \p thread
   * of the running block (-1: the calling thread); 0 when it is out of
   * bounds (reported; the caller should not perform it). */
  int (*access)(const void *address, uint32_t bytes, int kind, int32_t thread,
                uint64_t where);
  /* bar.sync \p id with \p numThreads threads (0: the whole block); with
   * TLC_SIM_BARRIER_ARRIVE_ONLY in \p id, bar.arrive (counted, no wait). */
  void (*barrier)(uint32_t id, uint32_t numThreads, uint64_t where);
  /* Waits until every lane of \p laneMask has reached a collective named
   * \p op (a string literal: same pointer, same collective); the last one
   * runs \p fn. \p laneData is this lane's in/out record. */
  void (*warpCollective)(const char *op, uint64_t laneMask, tlc_sim_warp_fn fn,
                         void *laneData, uint64_t where);
  /* cp.async of \p bytes (copying \p srcBytes of them, zero-filling the
   * rest), performed when a wait covers its group. */
  void (*cpAsync)(void *dst, const void *src, uint32_t bytes, uint32_t srcBytes,
                  uint64_t where);
  void (*cpAsyncCommit)(uint64_t where);
  /* Completes all but the newest \p pending committed groups (-1: every
   * copy, committed or not). */
  void (*cpAsyncWait)(int32_t pending, uint64_t where);
  /* __trap / a failed device check: ends the launch with \p message. */
  void (*trap)(const char *message, uint64_t where);
  /* Blocks until the phase of parity \p parity of the mbarrier \p bar
   * (tlc_device/cuda/tma.h's encoding: bit 63 the current phase's parity)
   * has completed; a wait no thread can complete is a deadlock (ABI 3). */
  void (*mbarrierWait)(const uint64_t *bar, uint32_t parity, uint64_t where);
  /* mbarrier.arrive's release semantics: what the calling thread did so far
   * happens before what a thread does after its wait on \p bar returns
   * (racecheck; ABI 4). Called before the arrival is counted. */
  void (*mbarrierRelease)(const uint64_t *bar);
  /* cp.async.bulk.tensor into shared memory completing on the mbarrier
   * \p bar: the sources are checked at issue, the copy itself happens
   * later, when the simulator chooses (once no thread of the block can
   * run), and then completes its bytes on \p bar (complete_tx). Until it
   * lands its destination bytes are in flight, and what it wrote is
   * ordered only before what follows a wait on \p bar (ABI 5). */
  void (*bulkCopy)(const tlc_sim_bulk_piece *pieces, uint32_t count,
                   uint64_t *bar, uint64_t where);
  /* An undefined value decided a branch, formed an address or divided
   * (initcheck; ABI 6). */
  void (*uninitUse)(uint64_t where);
  /* __threadfence(): the calling thread's accesses so far, and those its
   * block's barriers ordered before them, happen before what a thread of
   * any block does after an atomic that follows, in the order of the
   * atomics on its address, an atomic this thread issues after the fence
   * (the release of fence + atomic; ABI 7). */
  void (*threadFence)(uint64_t where);
  /* After an atomic on \p address has been performed: the calling thread
   * acquires what the atomics on that address before it released
   * (threadFence; ABI 7). */
  void (*atomicAcquire)(const void *address);
  /* T.sync_grid (cooperative groups' grid.sync(), HIP's __ockl_grid_sync):
   * blocks until every thread of every block of the launch has arrived;
   * what any thread did before it happens before what every thread does
   * after it. Only in a cooperative launch, whose blocks the simulator
   * keeps resident at once (ABI 8). */
  void (*gridSync)(uint64_t where);
  /* Thread-block clusters (ABI 9). The blocks per cluster along x, y, z of
   * the launch (1, 1, 1 outside a cluster launch); a cluster's blocks are
   * resident together. */
  const uint32_t *(*clusterDims)(void);
  /* barrier.cluster.arrive by the calling thread; \p relaxed: without
   * release semantics. */
  void (*clusterArrive)(int relaxed, uint64_t where);
  /* barrier.cluster.wait: blocks until every thread of the cluster that
   * has not exited has arrived at the calling thread's phase (acquire). */
  void (*clusterWait)(uint64_t where);
  /* mapa.shared::cluster: the address in the shared memory of block
   * \p rank of the cluster that corresponds to the caller's shared
   * \p address; null (reported) for an address outside the caller's
   * shared memory, a rank outside the cluster, or a block that has exited. */
  void *(*mapShared)(const void *address, uint32_t rank, uint64_t where);
  /* The release of an arrival (cluster scope) on the mbarrier \p bar, an
   * address mapShared returned: what the calling thread did so far happens
   * before what a thread of that block does after its wait on it returns.
   * Called before the arrival is counted. */
  void (*mbarrierReleaseCluster)(const uint64_t *bar, uint64_t where);
  /* A TMA multicast (cp.async.bulk.tensor ... .multicast::cluster): the
   * pieces (destinations in the caller's shared memory) land at the same
   * offsets in the shared memory of every block of the cluster whose rank
   * is set in \p ctaMask, each completing its bytes on its mbarrier at
   * \p bar's offset; as bulkCopy, later, in each block (ABI 10). */
  void (*bulkCopyCluster)(const tlc_sim_bulk_piece *pieces, uint32_t count,
                          uint64_t *bar, uint32_t ctaMask, uint64_t where);
  /* memcheck: element \p index of the shared buffer \p name (its
   * \p elemBytes-byte elements span \p extentBytes bytes from printed
   * offset \p offset) lies outside it; \p kind is TLC_SIM_LOAD,
   * TLC_SIM_STORE or 3 (its address taken). Reported; the access that
   * follows is not checked again (ABI 11). */
  void (*sharedIndexFault)(const char *name, int64_t index, uint32_t elemBytes,
                           uint32_t extentBytes, uint32_t offset, int kind,
                           uint64_t where);
  /* cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
   * (a DSMEM copy): \p bytes of the caller's shared \p src into \p dst, a
   * shared::cluster address (mapShared's) in some block of the cluster,
   * completing on the mbarrier \p bar there (the same block's); the source
   * is read at issue, the bytes land later, as bulkCopyCluster's. Reported
   * (memcheck) when \p dst or \p bar lies in no block's shared window, in
   * different blocks, or \p src outside the caller's (ABI 12). */
  void (*bulkCopyShared)(void *dst, const void *src, uint32_t bytes,
                         uint64_t *bar, uint64_t where);
} tlc_sim_host_api;

/* One kernel of the shared object: calls the __global__ function with
 * cuLaunchKernel-style arguments (a pointer to each argument's value). */
typedef struct tlc_sim_entry {
  const char *name;
  void (*invoke)(void **args);
} tlc_sim_entry;

/* What the kernel's shared object offers the simulator. */
typedef struct tlc_sim_kernel_api {
  uint32_t abiVersion;
  /* Installs the simulator's table (before any launch). */
  void (*bind)(const tlc_sim_host_api *api);
  /* The calling OS thread's shared-memory array (`smem`) and its size. */
  unsigned char *(*sharedMemory)(void);
  uint32_t sharedCapacity;
  uint32_t numEntries;
  const tlc_sim_entry *entries;
  /* Threads per warp the source was written for: 32 (CUDA) or 64 (HIP
   * wavefronts). */
  uint32_t warpSize;
  /* The calling OS thread's shadow map (tlc_sim_thread.shadow, its shared
   * memory's shadow filled in) when the kernel was compiled with
   * TLC_SIM_INITCHECK, else null (ABI 6). */
  tlc_sim_shadow_map *(*shadowMap)(void);
} tlc_sim_kernel_api;

#ifdef __cplusplus
}
#endif

#endif /* TLC_SIM_ABI_H */
