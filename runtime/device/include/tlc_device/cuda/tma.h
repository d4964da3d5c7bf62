//===- tma.h - Tensor memory access (TMA) and mbarriers ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sm_90 bulk tensor copies and the shared-memory barriers they complete on,
// written from the PTX ISA ("Tensor Copy Instructions: cp.async.bulk.tensor",
// "Parallel Synchronization and Communication Instructions: mbarrier"):
//
//  * a TensorMap is the 128-byte, 64-byte aligned tensor map the host
//    encodes with the driver's cuTensorMapEncodeTiled; kernels take it by
//    value as a `const __grid_constant__` parameter and pass its (generic)
//    address to the copy;
//  * tmaLoad<Rank>(dst, map, bar, c0, ...) copies the box at element
//    coordinates (c0 innermost, ...) into shared \p dst, swizzled as the
//    map says, filling elements outside the tensor with zeros; on
//    completion it signals the box's bytes to the mbarrier \p bar
//    (complete_tx). One thread issues it;
//  * bulkLoad(dst, src, bytes, bar) copies a contiguous run of global
//    memory into shared memory (cp.async.bulk, no tensor map) and signals
//    its bytes to the mbarrier \p bar, as tmaLoad does;
//  * bulkStore(dst, src, bytes) copies a contiguous run of shared memory
//    to global memory (cp.async.bulk, no tensor map); it joins the bulk
//    group that tmaStoreCommit / tmaStoreWaitRead close and wait for;
//    bulkReduceAdd(dst, src, bytes) adds the run to global memory instead
//    (cp.reduce.async.bulk .add: T.atomic_add(..., use_tma=True));
//  * tmaLoadMulticast<Rank>(dst, map, bar, ctaMask, c0, ...) is tmaLoad
//    into every block of the cluster whose rank is set in ctaMask (the
//    same offsets there, each block's own mbarrier completes the bytes);
//  * an mbarrier is a 64-bit shared-memory object: mbarrierInit sets its
//    expected arrival count; a phase completes when that many arrivals
//    happened and every expected transaction byte arrived. mbarrierInit,
//    mbarrierArrive and mbarrierWait also exist on sm_80 (mbarrier.init,
//    arrive, test_wait.parity), for kernels that synchronise warps with
//    mbarriers without transaction bytes.
//    mbarrierArriveExpectTx(bar, bytes) raises the expected bytes and
//    arrives; mbarrierWait(bar, parity) waits until the phase of that
//    parity has completed (phases alternate 0, 1, 0 ...).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_TMA_H
#define TLC_DEVICE_CUDA_TMA_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// The opaque tensor map (CUtensorMap's size and alignment).
struct alignas(64) TensorMap {
  unsigned long long opaque[16];
};

/// Initialises the mbarrier at \p bar for \p count arrivals per phase.
TLC_DEVICE void mbarrierInit(uint64_t *bar, uint32_t count) {
#if TLC_CUDA_ARCH >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                   sharedAddress(bar)),
               "r"(count)
               : "memory");
#elif TLC_CUDA_ARCH >= 800
  // sm_80 has mbarriers (PTX ISA 7.0) without the ::cta qualifier.
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(sharedAddress(bar)),
               "r"(count)
               : "memory");
#endif
}

/// Makes the initialising thread's mbarrier.init visible to the async
/// proxy (the copy engine) before any copy signals the barrier.
TLC_DEVICE void mbarrierInitFence() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/// Expects \p bytes more transaction bytes in the current phase of \p bar
/// and arrives on it once.
TLC_DEVICE void mbarrierArriveExpectTx(uint64_t *bar, uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
          sharedAddress(bar)),
      "r"(bytes)
      : "memory");
#endif
}

/// Arrives once on the current phase of \p bar (release at CTA scope: this
/// thread's earlier accesses happen before a waiter's later ones).
TLC_DEVICE void mbarrierArrive(uint64_t *bar) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(sharedAddress(bar))
      : "memory");
#elif TLC_CUDA_ARCH >= 800
  // sm_80's arrive (release at CTA scope) returns the phase's state, which
  // parity waits do not need: into a scratch register.
  asm volatile("{\n"
               ".reg .b64 state;\n"
               "mbarrier.arrive.shared.b64 state, [%0];\n"
               "}" ::"r"(sharedAddress(bar))
               : "memory");
#endif
}

/// Expects \p bytes more transaction bytes in the current phase of \p bar
/// without arriving.
TLC_DEVICE void mbarrierExpectTx(uint64_t *bar, uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
                   sharedAddress(bar)),
               "r"(bytes)
               : "memory");
#endif
}

/// Waits until the phase of \p bar with parity \p parity has completed.
TLC_DEVICE void mbarrierWait(uint64_t *bar, uint32_t parity) {
#if TLC_CUDA_ARCH >= 900
  uint32_t done = 0;
  do
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(sharedAddress(bar)), "r"(parity)
                 : "memory");
  while (!done);
#elif TLC_CUDA_ARCH >= 800
  // sm_80 has no try_wait (the potentially blocking test): spin on
  // test_wait.parity (PTX ISA 7.1; acquire at CTA scope once it holds).
  uint32_t done = 0;
  do
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(sharedAddress(bar)), "r"(parity)
                 : "memory");
  while (!done);
#endif
}

/// Copies the box of \p map at coordinates \p c (innermost first) into
/// shared \p dst (128-byte aligned; 1024 for the 128-byte swizzle) and
/// signals its bytes to \p bar.
template <int Rank>
TLC_DEVICE void tmaLoad(void *dst, const TensorMap *map, uint64_t *bar,
                        int c0, int c1, int c2 = 0, int c3 = 0, int c4 = 0) {
  static_assert(Rank >= 2 && Rank <= 5, "tensor maps of rank 2 to 5");
#if TLC_CUDA_ARCH >= 900
  uint32_t d = sharedAddress(dst), b = sharedAddress(bar);
  uint64_t m = reinterpret_cast<uint64_t>(map);
  if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(d),
                 "l"(m), "r"(b), "r"(c0), "r"(c1)
                 : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(d),
                 "l"(m), "r"(b), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];" ::"r"(
                     d),
                 "l"(m), "r"(b), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
                 : "memory");
  else
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::"
        "complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];" ::"r"(d),
        "l"(m), "r"(b), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
        : "memory");
#endif
}

/// tmaLoad with `.multicast::cluster`: the box lands at \p dst's offset in
/// the shared memory of every block of the cluster whose rank is set in
/// \p ctaMask and signals its bytes to each one's mbarrier at \p bar's
/// offset (PTX ISA, cp.async.bulk.tensor: the ctaMask operand, 16 bits).
template <int Rank>
TLC_DEVICE void tmaLoadMulticast(void *dst, const TensorMap *map, uint64_t *bar,
                                 uint16_t ctaMask, int c0, int c1, int c2 = 0,
                                 int c3 = 0, int c4 = 0) {
  static_assert(Rank >= 2 && Rank <= 5, "tensor maps of rank 2 to 5");
#if TLC_CUDA_ARCH >= 900
  uint32_t d = sharedAddress(dst), b = sharedAddress(bar);
  uint64_t m = reinterpret_cast<uint64_t>(map);
  if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5}], "
                 "[%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(ctaMask), "r"(c0), "r"(c1)
                 : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5, "
                 "%6}], [%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(ctaMask), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5, "
                 "%6, %7}], [%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(ctaMask), "r"(c0), "r"(c1), "r"(c2),
                 "r"(c3)
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5, "
                 "%6, %7, %8}], [%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(ctaMask), "r"(c0), "r"(c1), "r"(c2),
                 "r"(c3), "r"(c4)
                 : "memory");
#endif
}

/// Stores the box of \p map at coordinates \p c (innermost first) from
/// shared \p src (laid out as a load of the same box would leave it) into
/// global memory; the elements outside the tensor are not written. The
/// store joins this thread's current bulk group (tmaStoreCommit).
template <int Rank>
TLC_DEVICE void tmaStore(const TensorMap *map, const void *src, int c0, int c1,
                         int c2 = 0, int c3 = 0, int c4 = 0) {
  static_assert(Rank >= 2 && Rank <= 5, "tensor maps of rank 2 to 5");
#if TLC_CUDA_ARCH >= 900
  uint32_t s = sharedAddress(src);
  uint64_t m = reinterpret_cast<uint64_t>(map);
  if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3}], [%1];" ::"l"(m),
                 "r"(s), "r"(c0), "r"(c1)
                 : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4}], [%1];" ::"l"(m),
                 "r"(s), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4, %5}], [%1];" ::"l"(m),
                 "r"(s), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(m),
                 "r"(s), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4)
                 : "memory");
#endif
}

/// sm_100a's `.tile::gather4` (PTX ISA 8.6): rows \p r0 .. \p r3 of the
/// 2-D tensor of \p map (whose box is one row of W elements), W elements
/// from column \p col each, into shared \p dst one after the other (row i
/// at i * W); zeros outside the tensor; the 4 * W elements' bytes complete
/// on the mbarrier \p bar. One thread issues it.
TLC_DEVICE void tmaLoadGather4(void *dst, const TensorMap *map, uint64_t *bar,
                               int col, int r0, int r1, int r2, int r3) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL)
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4"
               ".mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, "
               "%7}], [%2];" ::"r"(sharedAddress(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(sharedAddress(bar)),
               "r"(col), "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
#else
  __trap();
#endif
}

/// sm_100a's `.tile::scatter4`, the store of tmaLoadGather4: row i of the
/// shared [4, W] tile \p src into row r_i of the tensor, W elements from
/// column \p col; elements outside the tensor are not written. It joins
/// this thread's bulk group (tmaStoreCommit).
TLC_DEVICE void tmaStoreScatter4(const TensorMap *map, const void *src, int col,
                                 int r0, int r1, int r2, int r3) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL)
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4"
               ".bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(sharedAddress(src)), "r"(col), "r"(r0), "r"(r1), "r"(r2),
               "r"(r3)
               : "memory");
#else
  __trap();
#endif
}

/// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes (the
/// non-tensor form): copies \p bytes (a positive multiple of 16, below
/// 2^20) from global \p src to shared \p dst, both 16-byte aligned, and
/// signals the bytes to the mbarrier \p bar when they have landed. One
/// thread issues it.
TLC_DEVICE void bulkLoad(void *dst, const void *src, uint32_t bytes,
                         uint64_t *bar) {
#if TLC_CUDA_ARCH >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes [%0], [%1], %2, [%3];" ::"r"(sharedAddress(dst)),
               "l"(reinterpret_cast<uint64_t>(src)), "r"(bytes),
               "r"(sharedAddress(bar))
               : "memory");
#endif
}

/// cp.async.bulk.global.shared::cta.bulk_group (the non-tensor form): copies
/// \p bytes (a positive multiple of 16) from shared \p src to global \p dst,
/// both 16-byte aligned. The store joins this thread's current bulk group
/// (tmaStoreCommit); its source may be reused once tmaStoreWaitRead returns.
TLC_DEVICE void bulkStore(void *dst, const void *src, uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
          reinterpret_cast<uint64_t>(dst)),
      "r"(sharedAddress(src)), "r"(bytes)
      : "memory");
#endif
}

/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add (the non-tensor
/// form; PTX ISA 8.0, sm_90): adds the \p bytes (a positive multiple of 16)
/// of shared \p src elementwise to global \p dst, both 16-byte aligned;
/// each element's add is relaxed at gpu scope, as atomicAdd's. f16 and
/// bf16 take `.noftz` (subnormals kept), the only form PTX has for them.
/// Joins the bulk group as bulkStore does.
TLC_DEVICE void bulkReduceAdd(float *dst, const float *src, uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 "
               "[%0], [%1], %2;" ::"l"(reinterpret_cast<uint64_t>(dst)),
               "r"(sharedAddress(src)), "r"(bytes)
               : "memory");
#endif
}
TLC_DEVICE void bulkReduceAdd(half *dst, const half *src, uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 "
      "[%0], [%1], %2;" ::"l"(reinterpret_cast<uint64_t>(dst)),
      "r"(sharedAddress(src)), "r"(bytes)
      : "memory");
#endif
}
TLC_DEVICE void bulkReduceAdd(bfloat16 *dst, const bfloat16 *src,
                              uint32_t bytes) {
#if TLC_CUDA_ARCH >= 900
  asm volatile(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 "
      "[%0], [%1], %2;" ::"l"(reinterpret_cast<uint64_t>(dst)),
      "r"(sharedAddress(src)), "r"(bytes)
      : "memory");
#endif
}

/// cp.async.bulk.commit_group: the bulk stores issued so far form a group.
TLC_DEVICE void tmaStoreCommit() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#endif
}

/// cp.async.bulk.wait_group.read 0: every committed bulk store of this
/// thread has read its shared source (the bytes may be reused).
TLC_DEVICE void tmaStoreWaitRead() {
#if TLC_CUDA_ARCH >= 900
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}

/// cp.async.bulk.wait_group[.read] N: at most \p N of this thread's bulk
/// groups are pending (with .read: have not read their source yet).
template <int N, bool Read> TLC_DEVICE void tmaStoreWait() {
  static_assert(N >= 0 && N <= 7, "a bulk wait_group count in 0..7");
#if TLC_CUDA_ARCH >= 900
  if (Read)
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
  else
    asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");
#endif
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_TMA_H
