//===- tcgen05.h - Blackwell tensor memory and tcgen05.mma ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sm_100a's tensor memory and fifth-generation tensor core instructions
// (PTX ISA, "Tensor Memory" and "tcgen05 instructions"), for one CTA
// (.cta_group::1) unless a name says 2-CTA:
//
// * Tensor memory is 128 lanes x 512 columns of 32-bit cells per CTA. Its
//   addresses are lane << 16 | column. A warp allocates columns (a power of
//   two, at least 32) with tcgen05.alloc, which writes the address of the
//   first column to shared memory; the same warp frees them with
//   tcgen05.dealloc before the kernel ends. Warp w of a warpgroup reaches
//   lanes 32 (w % 4) .. 32 (w % 4) + 31 only.
// * tcgen05.mma D[M x N] (+)= A * B: A and B through shared memory
//   descriptors (or A in tensor memory), D in tensor memory, the shapes
//   and types in a 32-bit instruction descriptor (encoded at compile time,
//   tlc/Target/CUDA/Tcgen05Descriptor.h). One thread issues it; it runs
//   asynchronously, and tcgen05.commit makes an mbarrier receive one
//   arrival when every tcgen05 operation the thread issued before is done.
// * tcgen05.ld / tcgen05.st .32x32b move 32 lanes x 32 bits per warp: lane
//   i of the warp reads or writes tensor memory lane 32 (w % 4) + i, .xN
//   gives N consecutive columns; tcgen05.wait::ld / ::st before the
//   registers (or the tensor memory) are used.
// * tcgen05.fence::before_thread_sync / ::after_thread_sync order tcgen05
//   operations around a thread synchronisation (barrier, mbarrier wait).
//
// Everything here needs sm_100a (__CUDA_ARCH_FEAT_SM100_ALL); built for
// another architecture a helper traps, which tlc never emits (the CUDA
// printer refuses tensor memory below sm_100a).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_TCGEN05_H
#define TLC_DEVICE_CUDA_TCGEN05_H

#include "tlc_device/cuda/common.h"

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL)
#define TLC_TCGEN05 1
#else
#define TLC_TCGEN05 0
#endif

namespace tlc {
namespace cuda {

/// `.kind` of tcgen05.mma (Tcgen05Descriptor.h's Tcgen05Kind).
enum Tcgen05Kind { kTcgen05F16 = 0, kTcgen05Tf32 = 1, kTcgen05F8F6F4 = 2 };

/// The calling warp allocates \p nCols columns (a power of two, 32..512)
/// and stores their address at \p slot (shared memory).
TLC_DEVICE void tmemAlloc(uint32_t *slot, uint32_t nCols) {
#if TLC_TCGEN05
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
          sharedAddress(slot)),
      "r"(nCols)
      : "memory");
#else
  __trap();
#endif
}

/// The calling warp gives up the right to allocate (after its allocation).
TLC_DEVICE void tmemRelinquishAllocPermit() {
#if TLC_TCGEN05
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::
                   : "memory");
#else
  __trap();
#endif
}

/// The calling warp frees the \p nCols columns at \p taddr.
TLC_DEVICE void tmemDealloc(uint32_t taddr, uint32_t nCols) {
#if TLC_TCGEN05
  asm volatile(
      "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(taddr),
      "r"(nCols)
      : "memory");
#else
  __trap();
#endif
}

/// The 2-CTA allocation (.cta_group::2): one warp of each CTA of the pair
/// allocates \p nCols columns in both (the pair's tcgen05.mma.cta_group::2
/// writes D into both CTAs' tensor memory).
TLC_DEVICE void tmemAlloc2Cta(uint32_t *slot, uint32_t nCols) {
#if TLC_TCGEN05
  asm volatile(
      "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
          sharedAddress(slot)),
      "r"(nCols)
      : "memory");
#else
  __trap();
#endif
}

/// tmemRelinquishAllocPermit for the pair.
TLC_DEVICE void tmemRelinquishAllocPermit2Cta() {
#if TLC_TCGEN05
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::
                   : "memory");
#else
  __trap();
#endif
}

/// tmemDealloc for the pair's allocation.
TLC_DEVICE void tmemDealloc2Cta(uint32_t taddr, uint32_t nCols) {
#if TLC_TCGEN05
  asm volatile(
      "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(taddr),
      "r"(nCols)
      : "memory");
#else
  __trap();
#endif
}

/// `tcgen05.fence::before_thread_sync`.
TLC_DEVICE void tcgen05FenceBefore() {
#if TLC_TCGEN05
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}

/// `tcgen05.fence::after_thread_sync`.
TLC_DEVICE void tcgen05FenceAfter() {
#if TLC_TCGEN05
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#endif
}

/// The shared memory descriptor of the operand at \p smemPtr: its start
/// address (bits 0-13, 16-byte units) or-ed into \p layoutBits (offsets,
/// the fixed 0b001 and the swizzle, encoded at compile time).
TLC_DEVICE uint64_t tcgen05SmemDescriptor(const void *smemPtr,
                                          uint64_t layoutBits) {
  return layoutBits | uint64_t((sharedAddress(smemPtr) & 0x3FFFF) >> 4);
}

#define TLC_TCGEN05_MMA_SS(GROUP, KIND)                                        \
  asm volatile("{\n"                                                           \
               ".reg .pred p;\n"                                               \
               "setp.ne.b32 p, %4, 0;\n"                                       \
               "tcgen05.mma.cta_group::" GROUP ".kind::" KIND                  \
               " [%0], %1, %2, %3, p;\n"                                       \
               "}\n" ::"r"(dTmem),                                             \
               "l"(aDesc), "l"(bDesc), "r"(idesc), "r"(accumulate)             \
               : "memory")

/// One tcgen05.mma with A and B in shared memory: D = A * B, or D += A * B
/// when \p accumulate is non-zero. Issued by one thread.
template <int Kind>
TLC_DEVICE void tcgen05MmaSS(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc,
                             uint32_t idesc, uint32_t accumulate) {
#if TLC_TCGEN05
  if constexpr (Kind == kTcgen05F16)
    TLC_TCGEN05_MMA_SS("1", "f16");
  else if constexpr (Kind == kTcgen05Tf32)
    TLC_TCGEN05_MMA_SS("1", "tf32");
  else
    TLC_TCGEN05_MMA_SS("1", "f8f6f4");
#else
  __trap();
#endif
}

/// The 2-CTA form (.cta_group::2): issued by one thread of the pair's
/// first CTA; M spans both CTAs' tensor memory, B both CTAs' halves.
template <int Kind>
TLC_DEVICE void tcgen05MmaSS2Cta(uint32_t dTmem, uint64_t aDesc, uint64_t bDesc,
                                 uint32_t idesc, uint32_t accumulate) {
#if TLC_TCGEN05
  if constexpr (Kind == kTcgen05F16)
    TLC_TCGEN05_MMA_SS("2", "f16");
  else if constexpr (Kind == kTcgen05Tf32)
    TLC_TCGEN05_MMA_SS("2", "tf32");
  else
    TLC_TCGEN05_MMA_SS("2", "f8f6f4");
#else
  __trap();
#endif
}
#undef TLC_TCGEN05_MMA_SS

/// One tcgen05.mma .kind::f16 with A in tensor memory at \p aTmem.
TLC_DEVICE void tcgen05MmaTS(uint32_t dTmem, uint32_t aTmem, uint64_t bDesc,
                             uint32_t idesc, uint32_t accumulate) {
#if TLC_TCGEN05
  asm volatile("{\n"
               ".reg .pred p;\n"
               "setp.ne.b32 p, %4, 0;\n"
               "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p;\n"
               "}\n" ::"r"(dTmem),
               "r"(aTmem), "l"(bDesc), "r"(idesc), "r"(accumulate)
               : "memory");
#else
  __trap();
#endif
}

/// One block-scaled tcgen05.mma .kind::mxf8f6f4 (scale_vec::1X: one E8M0
/// factor a row of A / column of B per instruction, the factor ids in
/// \p idesc) with A and B in shared memory and the scale factors in
/// tensor memory at \p sfaTmem / \p sfbTmem. Issued by one thread.
TLC_DEVICE void tcgen05MmaBlockScaledSS(uint32_t dTmem, uint64_t aDesc,
                                        uint64_t bDesc, uint32_t idesc,
                                        uint32_t sfaTmem, uint32_t sfbTmem,
                                        uint32_t accumulate) {
#if TLC_TCGEN05
  asm volatile("{\n"
               ".reg .pred p;\n"
               "setp.ne.b32 p, %6, 0;\n"
               "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale."
               "scale_vec::1X [%0], %1, %2, %3, [%4], [%5], p;\n"
               "}\n" ::"r"(dTmem),
               "l"(aDesc), "l"(bDesc), "r"(idesc), "r"(sfaTmem), "r"(sfbTmem),
               "r"(accumulate)
               : "memory");
#else
  __trap();
#endif
}

/// The CTA pair's form (.cta_group::2, M = 256): issued by one thread of
/// the pair's first CTA; each CTA's A is 128 rows and its D and scale
/// factors its own tensor memory's, B half of N from each CTA.
TLC_DEVICE void tcgen05MmaBlockScaledSS2Cta(uint32_t dTmem, uint64_t aDesc,
                                            uint64_t bDesc, uint32_t idesc,
                                            uint32_t sfaTmem, uint32_t sfbTmem,
                                            uint32_t accumulate) {
#if TLC_TCGEN05
  asm volatile("{\n"
               ".reg .pred p;\n"
               "setp.ne.b32 p, %6, 0;\n"
               "tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale."
               "scale_vec::1X [%0], %1, %2, %3, [%4], [%5], p;\n"
               "}\n" ::"r"(dTmem),
               "l"(aDesc), "l"(bDesc), "r"(idesc), "r"(sfaTmem), "r"(sfbTmem),
               "r"(accumulate)
               : "memory");
#else
  __trap();
#endif
}

/// `tcgen05.cp.cta_group::1.32x128b.warpx4`: 32 rows of 16 bytes of shared
/// memory (\p srcDesc: no swizzle, 8-row groups 128 bytes apart) into 4
/// columns from \p taddr of every lane, lane 32w + r holding row r for
/// each warp w. Issued by one thread; ordered before the tcgen05.mma the
/// same thread issues after it.
TLC_DEVICE void tcgen05CopyWarpx4(uint32_t taddr, uint64_t srcDesc) {
#if TLC_TCGEN05
  asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" ::"r"(taddr),
               "l"(srcDesc)
               : "memory");
#else
  __trap();
#endif
}

/// The CTA pair's copy (`tcgen05.cp.cta_group::2.32x128b.warpx4`): issued
/// by one thread of the pair's first CTA, it copies in both CTAs, each from
/// its own shared memory at \p srcDesc's address into its own tensor
/// memory at \p taddr.
TLC_DEVICE void tcgen05CopyWarpx42Cta(uint32_t taddr, uint64_t srcDesc) {
#if TLC_TCGEN05
  asm volatile("tcgen05.cp.cta_group::2.32x128b.warpx4 [%0], %1;" ::"r"(taddr),
               "l"(srcDesc)
               : "memory");
#else
  __trap();
#endif
}

/// The scale-factor permutation tcgen05.cp .32x128b.warpx4 reads (what
/// T.tcgen05_sf_warp_transpose does): in each 128 32-bit words at \p words
/// (128 rows of four 8-bit factors), word 4m + k becomes word 32k + m.
/// Called by the 32 threads of one warp, \p lane its lane.
TLC_DEVICE void sfWarpTranspose(uint32_t *words, int groups, int lane) {
  for (int g = 0; g < groups; ++g) {
    uint32_t *w = words + 128 * g;
    uint32_t v[4];
    for (int k = 0; k < 4; ++k)
      v[k] = w[32 * k + lane];
    __syncwarp();
    for (int k = 0; k < 4; ++k)
      w[4 * lane + k] = v[k];
    __syncwarp();
  }
}

/// `tcgen05.commit`: \p bar receives one arrival when the tcgen05
/// operations the calling thread issued before are complete.
TLC_DEVICE void tcgen05Commit(uint64_t *bar) {
#if TLC_TCGEN05
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
               "cluster.b64 [%0];" ::"r"(sharedAddress(bar))
               : "memory");
#else
  __trap();
#endif
}

/// The 2-CTA commit: the barrier at the same shared address in each CTA
/// of \p ctaMask (bit i: rank i of the cluster) receives one arrival.
TLC_DEVICE void tcgen05Commit2Cta(uint64_t *bar, uint16_t ctaMask) {
#if TLC_TCGEN05
  asm volatile(
      "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::"
      "cluster.multicast::cluster.b64 [%0], %1;" ::"r"(sharedAddress(bar)),
      "h"(ctaMask)
      : "memory");
#else
  __trap();
#endif
}

/// `tcgen05.ld.sync.aligned.32x32b.x8.b32`: 8 consecutive columns of the
/// warp's 32 lanes from \p taddr (lane field = the warp's first lane).
TLC_DEVICE void tmemLoad32x32bX8(uint32_t taddr, uint32_t (&r)[8]) {
#if TLC_TCGEN05
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]),
                 "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
               : "r"(taddr)
               : "memory");
#else
  __trap();
#endif
}

/// `tcgen05.st.sync.aligned.32x32b.x8.b32`: the store of tmemLoad32x32bX8.
TLC_DEVICE void tmemStore32x32bX8(uint32_t taddr, const uint32_t (&r)[8]) {
#if TLC_TCGEN05
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], "
               "{%1, %2, %3, %4, %5, %6, %7, %8};" ::"r"(taddr),
               "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]),
               "r"(r[6]), "r"(r[7])
               : "memory");
#else
  __trap();
#endif
}

/// `tcgen05.wait::ld.sync.aligned`: the warp's loads have landed.
TLC_DEVICE void tmemWaitLoad() {
#if TLC_TCGEN05
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#endif
}

/// `tcgen05.wait::st.sync.aligned`: the warp's stores are done.
TLC_DEVICE void tmemWaitStore() {
#if TLC_TCGEN05
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
#endif
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_TCGEN05_H
