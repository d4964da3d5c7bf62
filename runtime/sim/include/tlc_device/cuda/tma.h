//===- tma.h - Tensor memory access (TMA) and mbarriers (sim) ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cp.async.bulk.tensor and mbarriers on the simulator, from the PTX ISA
// ("Tensor Copy Instructions", "Tensor-map", "mbarrier") and the CUDA
// driver's cuTensorMapEncodeTiled documentation:
//
//  * the TensorMap here is the simulator's own encoding (the driver's is
//    opaque), which the sim device writes from the manifest: the global
//    address, rank, element bytes, extents and box innermost first, the
//    byte strides of dims 1.., and the swizzle;
//  * a tiled load copies the box at the given coordinates: box element
//    (i0, i1, ...) is global element (c0 + i0, c1 + i1, ...), zero when any
//    coordinate lies outside the tensor (OOB fill none: zeros); the box is
//    stored densely (rows of box[0] elements) and the 16-byte chunk bits
//    4.. of each shared address are XORed with its bits 7.. (3 bits for
//    the 128-byte swizzle, 2 for 64, 1 for 32); then the box's bytes
//    complete on the mbarrier (complete_tx). The copy is asynchronous: the
//    simulator performs it later than its issue, at a point it chooses
//    (once no thread of the block can run), and only a wait on its
//    mbarrier orders what it wrote before a thread's accesses
//    (tlc_sim_host_api::bulkCopy), so a consumer that reads a stage
//    without waiting reads stale bytes and is reported;
//  * an mbarrier is one 64-bit word: bits 0-15 the arrivals still pending
//    in the current phase, 16-31 the arrival count, 32-62 the pending
//    transaction bytes, 63 the current phase's parity. A phase completes
//    when pending arrivals and bytes are both zero: the parity flips and
//    the arrivals are reset. A wait for parity P returns once the current
//    parity differs from P; one that can never return is reported as a
//    deadlock by the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_TMA_H
#define TLC_DEVICE_CUDA_TMA_H

#include "tlc_device/cuda/common.h"

#include <cstring>
#include <vector>

namespace tlc {
namespace cuda {

/// The simulator's tensor map (the sim device encodes it; 128 bytes).
struct alignas(64) TensorMap {
  uint32_t magic, rank, elemBytes, swizzle;
  uint64_t address;
  uint32_t dims[5], box[5];
  uint64_t strides[4];
  uint64_t unused[4];
};
static_assert(sizeof(TensorMap) == 128, "CUtensorMap's size");

/// The magic number of an encoded TensorMap ("TLCM").
constexpr uint32_t kTensorMapMagic = 0x4D434C54u;

namespace simimpl {
TLC_SIM_UNCHECKED inline void mbarrierComplete(uint64_t *bar) {
  uint64_t w = *bar;
  if ((w & 0xFFFFu) == 0 && ((w >> 32) & 0x7FFFFFFFu) == 0) {
    uint64_t count = (w >> 16) & 0xFFFFu;
    uint64_t parity = (w >> 63) ^ 1u;
    *bar = (parity << 63) | (count << 16) | count;
  }
}
TLC_SIM_UNCHECKED inline void mbarrierTx(uint64_t *bar, int64_t bytes,
                                         uint64_t where) {
  uint64_t w = *bar;
  int64_t tx = int64_t((w >> 32) & 0x7FFFFFFFu) + bytes;
  if (tx < 0 || tx >= (int64_t(1) << 31))
    sim::api->trap("mbarrier transaction count out of range (more bytes "
                   "completed than expected)",
                   where);
  *bar = (w & ~(uint64_t(0x7FFFFFFFu) << 32)) | (uint64_t(tx) << 32);
}
} // namespace simimpl

TLC_SIM_PRIMITIVE inline void mbarrierInit(uint64_t *bar, uint32_t count) {
  if (count == 0 || count > 0xFFFFu)
    sim::api->trap("mbarrier.init with an arrival count outside 1..65535",
                   TLC_SIM_HERE);
  if (!sim::api->access(bar, 8, TLC_SIM_STORE, -1, TLC_SIM_HERE))
    return;
  *bar = (uint64_t(count) << 16) | count;
}

TLC_SIM_PRIMITIVE inline void mbarrierInitFence() {}

TLC_SIM_PRIMITIVE inline void mbarrierArriveExpectTx(uint64_t *bar,
                                                     uint32_t bytes) {
  uint64_t where = TLC_SIM_HERE;
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->mbarrierRelease(bar);
  simimpl::mbarrierTx(bar, int64_t(bytes), where);
  if ((*bar & 0xFFFFu) == 0)
    sim::api->trap("mbarrier arrive on a phase with no pending arrival",
                   where);
  *bar -= 1;
  simimpl::mbarrierComplete(bar);
}

/// mbarrier.arrive (release): one arrival on the current phase.
TLC_SIM_PRIMITIVE inline void mbarrierArrive(uint64_t *bar) {
  uint64_t where = TLC_SIM_HERE;
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->mbarrierRelease(bar);
  if ((*bar & 0xFFFFu) == 0)
    sim::api->trap("mbarrier arrive on a phase with no pending arrival", where);
  *bar -= 1;
  simimpl::mbarrierComplete(bar);
}

/// mbarrier.expect_tx: \p bytes more expected in the current phase, no
/// arrival.
TLC_SIM_PRIMITIVE inline void mbarrierExpectTx(uint64_t *bar, uint32_t bytes) {
  uint64_t where = TLC_SIM_HERE;
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  simimpl::mbarrierTx(bar, int64_t(bytes), where);
}

TLC_SIM_PRIMITIVE inline void mbarrierWait(uint64_t *bar, uint32_t parity) {
  uint64_t where = TLC_SIM_HERE;
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->mbarrierWait(bar, parity, where);
}

template <int Rank>
TLC_SIM_PRIMITIVE void tmaLoad(void *dst, const TensorMap *map, uint64_t *bar,
                               int c0, int c1, int c2 = 0, int c3 = 0,
                               int c4 = 0) {
  uint64_t where = TLC_SIM_HERE;
  if (map->magic != kTensorMapMagic || map->rank != unsigned(Rank))
    sim::api->trap("cp.async.bulk.tensor with a tensor map that is not one "
                   "of this rank",
                   where);
  uint32_t align = map->swizzle == 128 ? 1024
                   : map->swizzle == 64 ? 512
                   : map->swizzle == 32 ? 256
                                        : 128;
  uint32_t base = sharedAddress(dst);
  if (base % 128)
    sim::api->trap("cp.async.bulk.tensor into shared memory not 128-byte "
                   "aligned",
                   where);
  if (base % align)
    sim::api->trap("cp.async.bulk.tensor into a swizzled tile not aligned "
                   "to its swizzle pattern",
                   where);
  int coord[5] = {c0, c1, c2, c3, c4};
  const uint32_t *box = map->box;
  uint64_t elems = 1;
  for (int d = 0; d < Rank; ++d)
    elems *= box[d];
  const uint32_t eb = map->elemBytes;
  unsigned bits = map->swizzle == 128 ? 3 : map->swizzle == 64 ? 2
                  : map->swizzle == 32 ? 1 : 0;
  // The box as runs of bytes contiguous in both global and shared memory
  // (a row's 16-byte chunks, or the row without swizzle).
  std::vector<tlc_sim_bulk_piece> pieces;
  for (uint64_t e = 0; e < elems; ++e) {
    uint64_t rest = e, src = map->address;
    bool inside = true;
    for (int d = 0; d < Rank; ++d) {
      int64_t g = int64_t(coord[d]) + int64_t(rest % box[d]);
      rest /= box[d];
      if (g < 0 || g >= int64_t(map->dims[d]))
        inside = false;
      else
        src += uint64_t(g) * (d == 0 ? eb : map->strides[d - 1]);
    }
    uint32_t offset = base + uint32_t(e * eb);
    uint32_t chunkMask = (1u << bits) - 1;
    uint32_t swz = offset ^ (((offset >> 7) & chunkMask) << 4);
    unsigned char *to = sim::sharedBase() + swz;
    const unsigned char *from =
        inside ? reinterpret_cast<const unsigned char *>(src) : nullptr;
    if (!pieces.empty()) {
      tlc_sim_bulk_piece &last = pieces.back();
      const unsigned char *lastFrom =
          static_cast<const unsigned char *>(last.src);
      if (static_cast<unsigned char *>(last.dst) + last.bytes == to &&
          (from ? lastFrom && lastFrom + last.bytes == from : !lastFrom)) {
        last.bytes += eb;
        continue;
      }
    }
    pieces.push_back({to, from, eb});
  }
  // The copy lands later and completes its bytes on the mbarrier then.
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->bulkCopy(pieces.data(), uint32_t(pieces.size()), bar, where);
}

/// cp.async.bulk.tensor shared -> global (a TMA store): box element
/// (i0, i1, ...) of \p src, laid out as tmaLoad leaves a box (dense rows,
/// the swizzle's chunk XOR), is written to global element (c0 + i0, ...)
/// when that lies inside the tensor; elements outside are not written.
/// Modelled as performed at issue by the issuing thread (checked reads of
/// shared memory, checked writes of global memory).
template <int Rank>
TLC_SIM_PRIMITIVE void tmaStore(const TensorMap *map, const void *src, int c0,
                                int c1, int c2 = 0, int c3 = 0, int c4 = 0) {
  uint64_t where = TLC_SIM_HERE;
  if (map->magic != kTensorMapMagic || map->rank != unsigned(Rank))
    sim::api->trap("cp.async.bulk.tensor with a tensor map that is not one "
                   "of this rank",
                   where);
  uint32_t align = map->swizzle == 128 ? 1024
                   : map->swizzle == 64 ? 512
                   : map->swizzle == 32 ? 256
                                        : 128;
  uint32_t base = sharedAddress(src);
  if (base % 128 || base % align)
    sim::api->trap("cp.async.bulk.tensor store from shared memory not "
                   "aligned to 128 bytes or its swizzle pattern",
                   where);
  int coord[5] = {c0, c1, c2, c3, c4};
  const uint32_t *box = map->box;
  uint64_t elems = 1;
  for (int d = 0; d < Rank; ++d)
    elems *= box[d];
  const uint32_t eb = map->elemBytes;
  unsigned bits = map->swizzle == 128 ? 3 : map->swizzle == 64 ? 2
                  : map->swizzle == 32 ? 1 : 0;
  for (uint64_t e = 0; e < elems; ++e) {
    uint64_t rest = e, dst = map->address;
    bool inside = true;
    for (int d = 0; d < Rank; ++d) {
      int64_t g = int64_t(coord[d]) + int64_t(rest % box[d]);
      rest /= box[d];
      if (g < 0 || g >= int64_t(map->dims[d]))
        inside = false;
      else
        dst += uint64_t(g) * (d == 0 ? eb : map->strides[d - 1]);
    }
    if (!inside)
      continue;
    uint32_t offset = base + uint32_t(e * eb);
    uint32_t chunkMask = (1u << bits) - 1;
    unsigned char *from = sim::sharedBase() + (offset ^ (((offset >> 7) & chunkMask) << 4));
    void *to = reinterpret_cast<void *>(dst);
    if (!sim::api->access(from, eb, TLC_SIM_LOAD, -1, where) ||
        !sim::api->access(to, eb, TLC_SIM_STORE, -1, where))
      return;
    std::memcpy(to, from, eb);
  }
}

/// Bulk groups complete at issue on the simulator (tmaStore).
TLC_DEVICE void tmaStoreCommit() {}
TLC_DEVICE void tmaStoreWaitRead() {}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_TMA_H
