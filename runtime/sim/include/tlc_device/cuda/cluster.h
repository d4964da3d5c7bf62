//===- cluster.h - Thread-block clusters (sim) ------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sim device's tlc_device/cuda/cluster.h, from the PTX ISA ("Cluster of
// Cooperative Thread Arrays", "Special Registers: %cluster_ctarank,
// %cluster_nctarank", "barrier.cluster", "mapa", "mbarrier"):
//
//  * %cluster_ctarank is the block's position in its cluster, x fastest:
//    (blockIdx % clusterDim) linearised; %cluster_nctarank the cluster's
//    block count;
//  * barrier.cluster arrive / wait are the simulator's cluster barrier
//    (runtime/lib/sim/Cluster.cpp), which keeps the blocks of a cluster
//    resident together and orders what each thread did before a release
//    arrival before what every thread of the cluster does after the wait;
//  * a remote arrival maps the barrier's address into the peer block's
//    shared memory (mapa) and performs the arrival there, on the same
//    64-bit encoding as tma.h's mbarriers;
//  * a wait at cluster scope is tma.h's wait (the acquire of the peers'
//    releases is the simulator's);
//  * ld / st / red / atom .shared::cluster map the address (mapa) and access
//    the peer's shared memory there, which the simulator checks against
//    every block's shared window (out of bounds, a block outside the
//    cluster, one that has not started or has exited: memcheck);
//  * cp.async.bulk.shared::cluster.shared::cta reads the source at issue
//    and lands the bytes in the peer later, completing them on the peer's
//    mbarrier (tlc_sim_host_api::bulkCopyShared); a remote
//    arrive.expect_tx raises the peer's transaction count and arrives.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_CLUSTER_H
#define TLC_DEVICE_CUDA_CLUSTER_H

#include "tlc_device/cuda/common.h"
#include "tlc_device/cuda/tma.h"

#include <cstring>

namespace tlc {
namespace cuda {

/// %cluster_ctarank.
TLC_SIM_PRIMITIVE inline uint32_t clusterCtaRank() {
  const uint32_t *dims = sim::api->clusterDims();
  const tlc_sim_indices *i = sim::api->indices();
  return i->block[0] % dims[0] +
         dims[0] * (i->block[1] % dims[1] + dims[1] * (i->block[2] % dims[2]));
}

/// %cluster_nctarank.
TLC_SIM_PRIMITIVE inline uint32_t clusterNumCtas() {
  const uint32_t *dims = sim::api->clusterDims();
  return dims[0] * dims[1] * dims[2];
}

/// barrier.cluster.arrive (release).
TLC_SIM_PRIMITIVE inline void clusterArrive() {
  sim::api->clusterArrive(0, TLC_SIM_HERE);
}

/// barrier.cluster.arrive.relaxed.
TLC_SIM_PRIMITIVE inline void clusterArriveRelaxed() {
  sim::api->clusterArrive(1, TLC_SIM_HERE);
}

/// barrier.cluster.wait (acquire).
TLC_SIM_PRIMITIVE inline void clusterWait() {
  sim::api->clusterWait(TLC_SIM_HERE);
}

/// mapa.shared::cluster + mbarrier.arrive.release.cluster.shared::cluster.
TLC_SIM_PRIMITIVE inline void mbarrierArriveCluster(uint64_t *bar,
                                                    uint32_t cta) {
  uint64_t where = TLC_SIM_HERE;
  auto *remote = static_cast<uint64_t *>(sim::api->mapShared(bar, cta, where));
  if (!remote)
    return;
  sim::api->mbarrierReleaseCluster(remote, where);
  if ((*remote & 0xFFFFu) == 0)
    sim::api->trap("mbarrier arrive (from a block of the cluster) on a phase "
                   "with no pending arrival",
                   where);
  *remote -= 1;
  simimpl::mbarrierComplete(remote);
}

/// __syncwarp, then lane 0 arrives on \p bar and on block \p peer's
/// mbarrier at the same offset (tlc_device/cuda/cluster.h).
TLC_SIM_PRIMITIVE inline void mbarrierArriveWarpPair(uint64_t *bar,
                                                     uint32_t peer) {
  __syncwarp();
  if ((sim::api->indices()->thread[0] & 31) == 0) {
    mbarrierArrive(bar);
    mbarrierArriveCluster(bar, peer);
  }
}

/// mbarrier.try_wait.parity.acquire.cluster in a loop.
TLC_SIM_PRIMITIVE inline void mbarrierWaitCluster(uint64_t *bar,
                                                  uint32_t parity) {
  uint64_t where = TLC_SIM_HERE;
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->mbarrierWait(bar, parity, where);
}

/// The parity of \p bar's current phase (bit 63 of the simulator's word).
TLC_SIM_PRIMITIVE inline uint32_t mbarrierCurrentParity(uint64_t *bar) {
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, TLC_SIM_HERE))
    return 0;
  return uint32_t(*bar >> 63);
}

/// mapa.shared::cluster: the address of what \p local is in the calling
/// block's shared memory, in block \p cta of the cluster (null, reported,
/// outside the block's shared memory or the cluster).
template <typename T>
TLC_SIM_PRIMITIVE inline T *mapSharedRank(T *local, uint32_t cta) {
  return static_cast<T *>(sim::api->mapShared(local, cta, TLC_SIM_HERE));
}

/// st.shared::cluster of \p value at \p local's offset in block \p cta.
template <typename T>
TLC_SIM_PRIMITIVE inline void stSharedCluster(T *local, uint32_t cta, T value) {
  uint64_t where = TLC_SIM_HERE;
  T *remote = static_cast<T *>(sim::api->mapShared(local, cta, where));
  if (!remote || !sim::api->access(remote, sizeof(T), TLC_SIM_STORE, -1, where))
    return;
  std::memcpy(remote, &value, sizeof(T));
}

/// ld.shared::cluster at \p local's offset in block \p cta.
template <typename T>
TLC_SIM_PRIMITIVE inline T ldSharedCluster(const T *local, uint32_t cta) {
  uint64_t where = TLC_SIM_HERE;
  T value{};
  const T *remote =
      static_cast<const T *>(sim::api->mapShared(local, cta, where));
  if (!remote || !sim::api->access(remote, sizeof(T), TLC_SIM_LOAD, -1, where))
    return value;
  std::memcpy(&value, remote, sizeof(T));
  return value;
}

/// atom.shared::cluster.add: adds \p value at \p local's offset in block
/// \p cta and returns the old value (one block runs at a time on the
/// simulator, so the read-modify-write is atomic); red is the same without
/// the result.
template <typename T>
TLC_SIM_PRIMITIVE inline T atomAddSharedCluster(T *local, uint32_t cta,
                                                T value) {
  uint64_t where = TLC_SIM_HERE;
  T *remote = static_cast<T *>(sim::api->mapShared(local, cta, where));
  if (!remote ||
      !sim::api->access(remote, sizeof(T), TLC_SIM_ATOMIC, -1, where))
    return T{};
  T old = *remote;
  *remote = old + value;
  return old;
}
template <typename T>
TLC_SIM_PRIMITIVE inline void redAddSharedCluster(T *local, uint32_t cta,
                                                  T value) {
  (void)atomAddSharedCluster(local, cta, value);
}

/// mbarrier.arrive.expect_tx.release.cluster.shared::cluster: \p bytes more
/// expected, then one arrival, on the mbarrier at \p bar's offset in block
/// \p cta.
TLC_SIM_PRIMITIVE inline void
mbarrierArriveExpectTxCluster(uint64_t *bar, uint32_t cta, uint32_t bytes) {
  uint64_t where = TLC_SIM_HERE;
  auto *remote = static_cast<uint64_t *>(sim::api->mapShared(bar, cta, where));
  if (!remote || !sim::api->access(remote, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->mbarrierReleaseCluster(remote, where);
  simimpl::mbarrierTx(remote, int64_t(bytes), where);
  if ((*remote & 0xFFFFu) == 0)
    sim::api->trap("mbarrier arrive (from a block of the cluster) on a phase "
                   "with no pending arrival",
                   where);
  *remote -= 1;
  simimpl::mbarrierComplete(remote);
}

/// cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes:
/// \p bytes of the calling block's shared \p src into block \p cta's
/// shared memory at \p dst's offset, completing on its mbarrier at \p bar's
/// offset. Addresses 16-byte aligned, the size a positive multiple of 16
/// (the PTX ISA's conditions), else a trap.
TLC_SIM_PRIMITIVE inline void bulkCopySharedCluster(void *dst, const void *src,
                                                    uint32_t bytes,
                                                    uint64_t *bar,
                                                    uint32_t cta) {
  uint64_t where = TLC_SIM_HERE;
  if (bytes == 0 || bytes % 16 || sharedAddress(src) % 16 ||
      sharedAddress(dst) % 16)
    sim::api->trap("cp.async.bulk.shared::cluster with an address not "
                   "16-byte aligned or a size not a positive multiple of 16",
                   where);
  void *to = sim::api->mapShared(dst, cta, where);
  auto *at = static_cast<uint64_t *>(sim::api->mapShared(bar, cta, where));
  if (!to || !at)
    return;
  sim::api->bulkCopyShared(to, src, bytes, at, where);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_CLUSTER_H
