//===- cluster.h - Thread-block clusters (sm_90) ----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The blocks of a cluster (`__cluster_dims__` on the kernel) are resident
// together and may reach each other's shared memory (PTX ISA, "Cluster of
// Cooperative Thread Arrays", "barrier.cluster", "mapa", "mbarrier"):
//
//  * clusterCtaRank / clusterNumCtas read %cluster_ctarank and
//    %cluster_nctarank (a launch without clusters is a cluster of one);
//  * clusterArrive / clusterArriveRelaxed / clusterWait are
//    barrier.cluster.arrive(.relaxed).aligned and barrier.cluster.wait.aligned:
//    every thread of every block of the cluster arrives, then waits until
//    all have; arrive has release semantics unless relaxed, wait acquire.
//    `.aligned`: the generated code calls them where every thread of the
//    block does (as __syncthreads);
//  * mbarrierArriveCluster(bar, cta) arrives (release, cluster scope) on
//    the mbarrier at the same shared-memory offset as \p bar in block
//    \p cta of the cluster: mapa.shared::cluster gives its address in the
//    cluster's shared window, mbarrier.arrive.release.cluster.shared::cluster
//    arrives there (the shared::cluster form has no state result);
//  * mbarrierWaitCluster is try_wait.parity with acquire at cluster scope,
//    so what the peers wrote before their release arrivals is visible;
//  * mbarrierArriveWarpPair(bar, peer) releases a stage both blocks of a
//    pair read (TMA multicast): lane 0 of each warp, after __syncwarp,
//    arrives here and on block \p peer's mbarrier at the same offset;
//  * mapaShared, st/ld/atom/red .shared::cluster, the remote
//    mbarrierArriveExpectTxCluster and bulkCopySharedCluster
//    (cp.async.bulk.shared::cluster.shared::cta, a DSMEM copy completing
//    on the peer's mbarrier) are T.copy_cluster's (CUDAEmitterCluster.cpp).
//
// Included by generated sources that use clusters only.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_CLUSTER_H
#define TLC_DEVICE_CUDA_CLUSTER_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// The block's rank in its cluster (%cluster_ctarank).
TLC_DEVICE uint32_t clusterCtaRank() {
  uint32_t r = 0;
#if TLC_CUDA_ARCH >= 900
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
#endif
  return r;
}

/// The number of blocks of the cluster (%cluster_nctarank).
TLC_DEVICE uint32_t clusterNumCtas() {
  uint32_t n = 1;
#if TLC_CUDA_ARCH >= 900
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
#endif
  return n;
}

/// barrier.cluster.arrive (release).
TLC_DEVICE void clusterArrive() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
#endif
}

/// barrier.cluster.arrive.relaxed: no ordering of earlier accesses.
TLC_DEVICE void clusterArriveRelaxed() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#endif
}

/// barrier.cluster.wait (acquire).
TLC_DEVICE void clusterWait() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
#endif
}

/// Arrives on the mbarrier at \p bar's offset in block \p cta's shared
/// memory (release at cluster scope).
TLC_DEVICE void mbarrierArriveCluster(uint64_t *bar, uint32_t cta) {
#if TLC_CUDA_ARCH >= 900
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(sharedAddress(bar)), "r"(cta));
  asm volatile(
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(
          remote)
      : "memory");
#endif
}

/// A warp's release of a pipeline stage that two blocks of the cluster
/// share (a TMA multicast fills it in both): once every lane is done with
/// it (__syncwarp), lane 0 arrives on the stage's empty mbarrier here and
/// on the one at the same offset in block \p peer (whose producer
/// multicasts into this block's stage), one arrival per warp on each.
/// The warp's only accesses to the stage are the wgmma reads that
/// wgmma.wait_group completed before this call, so the arrivals take the
/// default semantics (release at CTA scope, as mbarrierArrive) instead of
/// mbarrierArriveCluster's cluster-scope release: that one puts a fence
/// before each arrival, which stalled the consumer warps of the clustered
/// GEMM on memory barriers for 44-49 % of their cycles and doubled its time
/// (docs/perf/hopper.md, 2026-12-05, measured on an H100).
TLC_DEVICE void mbarrierArriveWarpPair(uint64_t *bar, uint32_t peer) {
  __syncwarp();
  if ((threadIdx.x & 31) == 0) {
#if TLC_CUDA_ARCH >= 900
    uint32_t local = sharedAddress(bar), remote;
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(local)
                 : "memory");
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote)
                 : "r"(local), "r"(peer));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote)
                 : "memory");
#endif
  }
}

/// Waits until the phase of \p bar with parity \p parity has completed,
/// acquiring at cluster scope what the arrivals released.
TLC_DEVICE void mbarrierWaitCluster(uint64_t *bar, uint32_t parity) {
#if TLC_CUDA_ARCH >= 900
  uint32_t done = 0;
  do
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 "
                 "p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(sharedAddress(bar)), "r"(parity)
                 : "memory");
  while (!done);
#endif
}

/// The parity of the current phase of \p bar: test_wait.parity 0 holds
/// once phase 0 (any even phase) has completed, that is while an odd phase
/// is the current one (PTX ISA, "mbarrier.test_wait").
TLC_DEVICE uint32_t mbarrierCurrentParity(uint64_t *bar) {
  uint32_t odd = 0;
#if TLC_CUDA_ARCH >= 900
  asm volatile("{\n"
               ".reg .pred p;\n"
               "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n"
               "selp.u32 %0, 1, 0, p;\n"
               "}"
               : "=r"(odd)
               : "r"(sharedAddress(bar))
               : "memory");
#endif
  return odd;
}

/// mapa.shared::cluster: the shared::cluster address of what \p local is in
/// the calling block's shared memory, in block \p cta of the cluster.
TLC_DEVICE uint32_t mapaShared(const void *local, uint32_t cta) {
  uint32_t remote = 0;
#if TLC_CUDA_ARCH >= 900
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(sharedAddress(local)), "r"(cta));
#endif
  return remote;
}

/// st.shared::cluster of \p value at \p local's offset in block \p cta
/// (4- or 2-byte values).
template <typename T>
TLC_DEVICE void stSharedCluster(T *local, uint32_t cta, T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 2, "a 2- or 4-byte value");
#if TLC_CUDA_ARCH >= 900
  uint32_t remote = mapaShared(local, cta);
  if constexpr (sizeof(T) == 4) {
    uint32_t bits;
    memcpy(&bits, &value, 4);
    asm volatile("st.shared::cluster.b32 [%0], %1;" ::"r"(remote), "r"(bits)
                 : "memory");
  } else {
    uint16_t bits;
    memcpy(&bits, &value, 2);
    asm volatile("st.shared::cluster.b16 [%0], %1;" ::"r"(remote), "h"(bits)
                 : "memory");
  }
#endif
}

/// ld.shared::cluster at \p local's offset in block \p cta (4 bytes).
template <typename T>
TLC_DEVICE T ldSharedCluster(const T *local, uint32_t cta) {
  static_assert(sizeof(T) == 4, "a 4-byte value");
  uint32_t bits = 0;
#if TLC_CUDA_ARCH >= 900
  asm volatile("ld.shared::cluster.b32 %0, [%1];"
               : "=r"(bits)
               : "r"(mapaShared(local, cta))
               : "memory");
#endif
  T value;
  memcpy(&value, &bits, 4);
  return value;
}

/// atom.shared::cluster.add.f32 / .u32: the old value.
TLC_DEVICE float atomAddSharedCluster(float *local, uint32_t cta, float v) {
  float old = 0.0f;
#if TLC_CUDA_ARCH >= 900
  asm volatile("atom.shared::cluster.add.f32 %0, [%1], %2;"
               : "=f"(old)
               : "r"(mapaShared(local, cta)), "f"(v)
               : "memory");
#endif
  return old;
}
TLC_DEVICE uint32_t atomAddSharedCluster(uint32_t *local, uint32_t cta,
                                         uint32_t v) {
  uint32_t old = 0;
#if TLC_CUDA_ARCH >= 900
  asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "r"(mapaShared(local, cta)), "r"(v)
               : "memory");
#endif
  return old;
}

/// red.shared::cluster.add.f32 / .u32.
TLC_DEVICE void redAddSharedCluster(float *local, uint32_t cta, float v) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "red.shared::cluster.add.f32 [%0], %1;" ::"r"(mapaShared(local, cta)),
      "f"(v)
      : "memory");
#endif
}
TLC_DEVICE void redAddSharedCluster(uint32_t *local, uint32_t cta, uint32_t v) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "red.shared::cluster.add.u32 [%0], %1;" ::"r"(mapaShared(local, cta)),
      "r"(v)
      : "memory");
#endif
}

/// mbarrier.arrive.expect_tx.release.cluster.shared::cluster on the
/// mbarrier at \p bar's offset in block \p cta: \p bytes more expected in
/// its phase, then one arrival.
TLC_DEVICE void mbarrierArriveExpectTxCluster(uint64_t *bar, uint32_t cta,
                                              uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 "
               "_, [%0], %1;" ::"r"(mapaShared(bar, cta)),
               "r"(bytes)
               : "memory");
#endif
}

/// cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes:
/// \p bytes of the calling block's shared \p src into block \p cta's
/// shared memory at \p dst's offset, completing on that block's mbarrier at
/// \p bar's offset (addresses 16-byte aligned, the size a multiple of 16).
TLC_DEVICE void bulkCopySharedCluster(void *dst, const void *src,
                                      uint32_t bytes, uint64_t *bar,
                                      uint32_t cta) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::"
      "complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(mapaShared(dst, cta)),
      "r"(sharedAddress(src)), "r"(bytes), "r"(mapaShared(bar, cta))
      : "memory");
#endif
}

//===----------------------------------------------------------------------===//
// Cluster launch control (sm_100; PTX ISA, "clusterlaunchcontrol")
//===----------------------------------------------------------------------===//

/// clusterlaunchcontrol.try_cancel: asks to cancel the launch of a cluster
/// of the grid that has not started; the 16-byte response is written to
/// \p response (shared memory, 16-byte aligned) and completes 16
/// transaction bytes on \p bar.
TLC_DEVICE void clcTryCancel(const void *response, uint64_t *bar) {
#if TLC_CUDA_ARCH >= 1000
  asm volatile(
      "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::"
      "complete_tx::bytes.b128 [%0], [%1];" ::"r"(sharedAddress(response)),
      "r"(sharedAddress(bar))
      : "memory");
#endif
}

/// clcTryCancel whose response goes to the same offset of every block of
/// the cluster, completing on each block's barrier at \p bar's offset.
TLC_DEVICE void clcTryCancelMulticast(const void *response, uint64_t *bar) {
#if TLC_CUDA_ARCH >= 1000
  asm volatile(
      "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::"
      "complete_tx::bytes.multicast::cluster::all.b128 [%0], [%1];" ::"r"(
          sharedAddress(response)),
      "r"(sharedAddress(bar))
      : "memory");
#endif
}

/// clusterlaunchcontrol.query_cancel.is_canceled of the response at
/// \p response (written by the async proxy: fenced before later shared
/// memory accesses).
TLC_DEVICE bool clcIsCanceled(const void *response) {
  uint32_t canceled = 0;
#if TLC_CUDA_ARCH >= 1000
  asm volatile("{\n"
               ".reg .pred p;\n"
               ".reg .b128 r;\n"
               "ld.shared.b128 r, [%1];\n"
               "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, r;\n"
               "selp.u32 %0, 1, 0, p;\n"
               "}"
               : "=r"(canceled)
               : "r"(sharedAddress(response))
               : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  return canceled != 0;
}

/// clusterlaunchcontrol.query_cancel.get_first_ctaid: coordinate \p Dim of
/// the block index of the canceled cluster's first block (meaningful only
/// when the response says canceled).
template <int Dim> TLC_DEVICE uint32_t clcFirstCtaid(const void *response) {
  uint32_t id[4] = {0, 0, 0, 0};
#if TLC_CUDA_ARCH >= 1000
  asm volatile("{\n"
               ".reg .b128 r;\n"
               "ld.shared.b128 r, [%4];\n"
               "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 "
               "{%0, %1, %2, %3}, r;\n"
               "}"
               : "=r"(id[0]), "=r"(id[1]), "=r"(id[2]), "=r"(id[3])
               : "r"(sharedAddress(response))
               : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  return id[Dim];
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_CLUSTER_H
