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
//    releases is the simulator's).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_CLUSTER_H
#define TLC_DEVICE_CUDA_CLUSTER_H

#include "tlc_device/cuda/common.h"
#include "tlc_device/cuda/tma.h"

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

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_CLUSTER_H
