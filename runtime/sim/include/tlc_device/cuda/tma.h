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
//  * a multicast load (.multicast::cluster, a 16-bit mask of cluster
//    ranks) lands the same box at the same offset of every masked block's
//    shared memory and completes its bytes on each block's mbarrier at the
//    same offset (tlc_sim_host_api::bulkCopyCluster);
//  * a store (cp.async.bulk[.tensor] shared -> global), or a bulk
//    reduction (cp.reduce.async.bulk .add: atomic adds), is performed at
//    issue, but its source stays in flight until a wait covers its bulk
//    group: each thread keeps its groups (the shared bytes each store
//    read, as they were at issue; tmaStoreCommit closes the open group),
//    and cp.async.bulk.wait_group[.read] N retires all but the newest N
//    committed groups, reporting one whose bytes were written in the
//    meantime (the copy engine may read them at any point before the
//    wait: such a reuse stores undefined data);
//  * an mbarrier is one 64-bit word: bits 0-15 the arrivals still pending
//    in the current phase, 16-31 the arrival count, 32-62 the pending
//    transaction bytes (signed: a peer's multicast may complete its bytes
//    before the expect-tx that announces them; the PTX ISA bounds the
//    count by 2^20 - 1 either way), 63 the current phase's parity. A phase
//    completes when pending arrivals and bytes are both zero: the parity
//    flips and the arrivals are reset. A wait for parity P returns once the
//    current parity differs from P; one that can never return is reported as a
//    deadlock by the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_TMA_H
#define TLC_DEVICE_CUDA_TMA_H

#include "tlc_device/cuda/common.h"

#include <algorithm>
#include <cstring>
#include <map>
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
  int64_t tx = int64_t((w >> 32) & 0x7FFFFFFFu);
  tx = (tx & 0x40000000 ? tx - 0x80000000LL : tx) + bytes;
  const int64_t limit = (int64_t(1) << 20) - 1;
  if (tx < -limit || tx > limit)
    sim::api->trap("mbarrier transaction count out of range (the PTX ISA "
                   "bounds it by 2^20 - 1 bytes)",
                   where);
  *bar = (w & ~(uint64_t(0x7FFFFFFFu) << 32)) |
         ((uint64_t(tx) & 0x7FFFFFFFu) << 32);
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

namespace simimpl {

/// One box of a tiled copy between global and shared memory, as the PTX ISA
/// lays it out; what tmaLoad and tmaStore share. Element e of the box
/// (e = i0 + box0 * (i1 + box1 * ...), innermost first) is global element
/// (c0 + i0, c1 + i1, ...) and lies at shared offset base + e * elemBytes
/// with the 16-byte chunk bits 4.. XORed with bits 7.. (3 bits for the
/// 128-byte swizzle, 2 for 64, 1 for 32).
struct TmaBox {
  const TensorMap *map;
  int coord[5];
  /// The box's shared offset, its elements, the chunk bits swizzled.
  uint32_t base;
  uint64_t elems;
  uint32_t chunkMask;

  /// Checks that \p map has rank \p rank and that \p shared is 128-byte
  /// aligned and aligned to the swizzle's pattern (8 rows of the swizzle's
  /// width); a violation traps at \p where.
  TLC_SIM_UNCHECKED TmaBox(const TensorMap *map, int rank, const void *shared,
                           const int (&c)[5], uint64_t where)
      : map(map), coord{c[0], c[1], c[2], c[3], c[4]} {
    if (map->magic != kTensorMapMagic || map->rank != unsigned(rank))
      sim::api->trap("cp.async.bulk.tensor with a tensor map that is not one "
                     "of this rank",
                     where);
    uint32_t sw = map->swizzle;
    uint32_t align = sw == 128 || sw == 64 || sw == 32 ? 8 * sw : 128;
    chunkMask = sw == 128 ? 7 : sw == 64 ? 3 : sw == 32 ? 1 : 0;
    base = sharedAddress(shared);
    if (base % 128)
      sim::api->trap("cp.async.bulk.tensor with shared memory not 128-byte "
                     "aligned",
                     where);
    if (base % align)
      sim::api->trap("cp.async.bulk.tensor with a swizzled tile not aligned "
                     "to its swizzle pattern",
                     where);
    elems = 1;
    for (int d = 0; d < rank; ++d)
      elems *= map->box[d];
  }

  /// The shared offset of element \p e.
  TLC_SIM_UNCHECKED uint32_t sharedOffset(uint64_t e) const {
    uint32_t offset = base + uint32_t(e * map->elemBytes);
    return offset ^ (((offset >> 7) & chunkMask) << 4);
  }

  /// The global address of element \p e; false when it lies outside the
  /// tensor.
  TLC_SIM_UNCHECKED bool globalAddress(uint64_t e, uint64_t &address) const {
    uint64_t rest = e;
    address = map->address;
    bool inside = true;
    for (unsigned d = 0; d < map->rank; ++d) {
      int64_t g = int64_t(coord[d]) + int64_t(rest % map->box[d]);
      rest /= map->box[d];
      if (g < 0 || g >= int64_t(map->dims[d]))
        inside = false;
      else
        address += uint64_t(g) * (d == 0 ? map->elemBytes
                                         : map->strides[d - 1]);
    }
    return inside;
  }
};

} // namespace simimpl

namespace simimpl {
/// The box of a tiled load as runs of bytes contiguous in both global and
/// shared memory (a row's 16-byte chunks, or the row without swizzle).
TLC_SIM_UNCHECKED inline std::vector<tlc_sim_bulk_piece>
loadPieces(const TmaBox &box) {
  const uint32_t eb = box.map->elemBytes;
  std::vector<tlc_sim_bulk_piece> pieces;
  for (uint64_t e = 0; e < box.elems; ++e) {
    uint64_t src;
    bool inside = box.globalAddress(e, src);
    unsigned char *to = sim::sharedBase() + box.sharedOffset(e);
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
  return pieces;
}
} // namespace simimpl

template <int Rank>
TLC_SIM_PRIMITIVE void tmaLoad(void *dst, const TensorMap *map, uint64_t *bar,
                               int c0, int c1, int c2 = 0, int c3 = 0,
                               int c4 = 0) {
  uint64_t where = TLC_SIM_HERE;
  const simimpl::TmaBox box(map, Rank, dst, {c0, c1, c2, c3, c4}, where);
  std::vector<tlc_sim_bulk_piece> pieces = simimpl::loadPieces(box);
  // The copy lands later and completes its bytes on the mbarrier then.
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->bulkCopy(pieces.data(), uint32_t(pieces.size()), bar, where);
}

/// cp.async.bulk.tensor ... .multicast::cluster: tmaLoad's box into the
/// shared memory of every block of the cluster whose rank is set in
/// \p ctaMask, at \p dst's offset, completing on each block's mbarrier at
/// \p bar's offset.
template <int Rank>
TLC_SIM_PRIMITIVE void tmaLoadMulticast(void *dst, const TensorMap *map,
                                        uint64_t *bar, uint16_t ctaMask, int c0,
                                        int c1, int c2 = 0, int c3 = 0,
                                        int c4 = 0) {
  uint64_t where = TLC_SIM_HERE;
  const simimpl::TmaBox box(map, Rank, dst, {c0, c1, c2, c3, c4}, where);
  std::vector<tlc_sim_bulk_piece> pieces = simimpl::loadPieces(box);
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->bulkCopyCluster(pieces.data(), uint32_t(pieces.size()), bar,
                            ctaMask, where);
}

namespace simimpl {

/// The shared bytes one bulk store read at issue: [offset, offset + size).
struct BulkStoreRead {
  uint32_t offset;
  std::vector<unsigned char> bytes;
};

/// A simulated thread's bulk groups: committed ones, oldest first, and the
/// open one.
struct BulkStoreThread {
  std::vector<std::vector<BulkStoreRead>> committed;
  std::vector<BulkStoreRead> open;
};

/// Per simulated thread of the block being run on this OS thread; a
/// thread's entry is dropped when it starts the kernel (launch.h).
inline thread_local std::map<unsigned, BulkStoreThread> bulkStoreThreads;

} // namespace simimpl
} // namespace cuda

namespace sim {
__attribute__((weak)) TLC_SIM_UNCHECKED void bulkStoresBegin() {
  cuda::simimpl::bulkStoreThreads.erase(linearThread());
}
} // namespace sim

namespace cuda {
namespace simimpl {

/// Records that a bulk store of the calling thread read \p size shared
/// bytes at \p offset (issued now, in its open group).
TLC_SIM_UNCHECKED inline void bulkStoreRead(uint32_t offset, uint32_t size) {
  if (offset >= sim::kSharedCapacity)
    return;
  size = std::min<uint32_t>(size, sim::kSharedCapacity - offset);
  const unsigned char *from = sim::sharedBase() + offset;
  bulkStoreThreads[sim::linearThread()].open.push_back(
      {offset, std::vector<unsigned char>(from, from + size)});
}

/// cp.async.bulk.wait_group[.read] \p pending: the calling thread's
/// committed groups but the newest \p pending are done; a source byte that
/// changed since its store's issue is reported.
TLC_SIM_UNCHECKED inline void bulkStoreWait(int pending, uint64_t where) {
  auto it = bulkStoreThreads.find(sim::linearThread());
  if (it == bulkStoreThreads.end())
    return;
  std::vector<std::vector<BulkStoreRead>> &groups = it->second.committed;
  size_t done = groups.size() > size_t(pending) ? groups.size() - pending : 0;
  bool rewritten = false;
  for (size_t g = 0; g < done && !rewritten; ++g)
    for (const BulkStoreRead &r : groups[g])
      rewritten |= std::memcmp(sim::sharedBase() + r.offset, r.bytes.data(),
                               r.bytes.size()) != 0;
  groups.erase(groups.begin(), groups.begin() + done);
  if (rewritten)
    sim::api->trap("shared memory that a bulk store (cp.async.bulk) reads "
                   "was written before a cp.async.bulk.wait_group.read "
                   "covered the store's group: the store may write "
                   "undefined data",
                   where);
  if (groups.empty() && it->second.open.empty())
    bulkStoreThreads.erase(it);
}

} // namespace simimpl

/// cp.async.bulk.tensor shared -> global (a TMA store): box element
/// (i0, i1, ...) of \p src, laid out as tmaLoad leaves a box (dense rows,
/// the swizzle's chunk XOR), is written to global element (c0 + i0, ...)
/// when that lies inside the tensor; elements outside are not written.
/// Modelled as performed at issue by the issuing thread (checked reads of
/// shared memory, checked writes of global memory); its source (the box's
/// 128-byte rows) stays in flight until a wait covers its bulk group.
template <int Rank>
TLC_SIM_PRIMITIVE void tmaStore(const TensorMap *map, const void *src, int c0,
                                int c1, int c2 = 0, int c3 = 0, int c4 = 0) {
  uint64_t where = TLC_SIM_HERE;
  const simimpl::TmaBox box(map, Rank, src, {c0, c1, c2, c3, c4}, where);
  const uint32_t eb = map->elemBytes;
  simimpl::bulkStoreRead(box.base,
                         uint32_t((box.elems * eb + 127) / 128 * 128));
  for (uint64_t e = 0; e < box.elems; ++e) {
    uint64_t dst;
    if (!box.globalAddress(e, dst))
      continue;
    unsigned char *from = sim::sharedBase() + box.sharedOffset(e);
    void *to = reinterpret_cast<void *>(dst);
    if (!sim::api->access(from, eb, TLC_SIM_LOAD, -1, where) ||
        !sim::api->access(to, eb, TLC_SIM_STORE, -1, where))
      return;
    std::memcpy(to, from, eb);
  }
}

/// cp.async.bulk.shared::cluster.global.mbarrier (no tensor map): \p bytes
/// of global \p src into shared \p dst, completing on \p bar. Both
/// addresses 16-byte aligned and the size a positive multiple of 16 (the
/// PTX ISA's conditions), else a trap; asynchronous as tmaLoad (the source
/// checked at issue, the copy landing later, ordered by a wait on \p bar).
TLC_SIM_PRIMITIVE inline void bulkLoad(void *dst, const void *src,
                                       uint32_t bytes, uint64_t *bar) {
  uint64_t where = TLC_SIM_HERE;
  if (bytes == 0 || bytes % 16 || reinterpret_cast<uint64_t>(src) % 16 ||
      sharedAddress(dst) % 16)
    sim::api->trap("cp.async.bulk with an address not 16-byte aligned or a "
                   "size not a positive multiple of 16",
                   where);
  tlc_sim_bulk_piece piece{sim::sharedBase() + sharedAddress(dst), src, bytes};
  if (!sim::api->access(bar, 8, TLC_SIM_ATOMIC, -1, where))
    return;
  sim::api->bulkCopy(&piece, 1, bar, where);
}

/// cp.async.bulk.global.shared::cta (no tensor map): \p bytes of shared
/// \p src to global \p dst. Both addresses 16-byte aligned and the size a
/// positive multiple of 16 (the PTX ISA's conditions), else a trap; modelled
/// as performed at issue by the issuing thread, as tmaStore.
TLC_SIM_PRIMITIVE inline void bulkStore(void *dst, const void *src,
                                        uint32_t bytes) {
  uint64_t where = TLC_SIM_HERE;
  if (bytes == 0 || bytes % 16 || reinterpret_cast<uint64_t>(dst) % 16 ||
      sharedAddress(src) % 16)
    sim::api->trap("cp.async.bulk with an address not 16-byte aligned or a "
                   "size not a positive multiple of 16",
                   where);
  unsigned char *to = static_cast<unsigned char *>(dst);
  const unsigned char *from = sim::sharedBase() + sharedAddress(src);
  simimpl::bulkStoreRead(sharedAddress(src), bytes);
  if (!sim::api->access(from, bytes, TLC_SIM_LOAD, -1, where) ||
      !sim::api->access(to, bytes, TLC_SIM_STORE, -1, where))
    return;
  std::memcpy(to, from, bytes);
}

namespace simimpl {
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add of \p bytes of
/// shared \p src into global \p dst, from the PTX ISA: both addresses
/// 16-byte aligned and the size a positive multiple of 16, else a trap;
/// element i of the run is added to dst[i] as a relaxed gpu-scope atomic
/// (an atomicAdd: f16 / bf16 rounded to nearest, `.noftz` keeping
/// subnormals). Modelled as performed at issue by the issuing thread, its
/// source in flight until a wait covers its bulk group, as bulkStore.
template <typename T>
TLC_SIM_UNCHECKED void bulkReduceAdd(T *dst, const T *src, uint32_t bytes,
                                     uint64_t where) {
  if (bytes == 0 || bytes % 16 || reinterpret_cast<uint64_t>(dst) % 16 ||
      sharedAddress(src) % 16)
    sim::api->trap("cp.reduce.async.bulk with an address not 16-byte "
                   "aligned or a size not a positive multiple of 16",
                   where);
  const T *from =
      reinterpret_cast<const T *>(sim::sharedBase() + sharedAddress(src));
  bulkStoreRead(sharedAddress(src), bytes);
  if (!sim::api->access(from, bytes, TLC_SIM_LOAD, -1, where))
    return;
  for (uint32_t i = 0; i < bytes / sizeof(T); ++i) {
    T v = from[i];
    sim::atomicUpdate(
        dst + i, [&](T old) { return T(old + v); }, where);
  }
}
} // namespace simimpl

/// cp.reduce.async.bulk ... .add.f32 / .add.noftz.f16 / .add.noftz.bf16
/// (simimpl::bulkReduceAdd).
TLC_SIM_PRIMITIVE inline void bulkReduceAdd(float *dst, const float *src,
                                            uint32_t bytes) {
  simimpl::bulkReduceAdd(dst, src, bytes, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void bulkReduceAdd(half *dst, const half *src,
                                            uint32_t bytes) {
  simimpl::bulkReduceAdd(dst, src, bytes, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void bulkReduceAdd(bfloat16 *dst, const bfloat16 *src,
                                            uint32_t bytes) {
  simimpl::bulkReduceAdd(dst, src, bytes, TLC_SIM_HERE);
}

/// cp.async.bulk.commit_group: closes the calling thread's open group.
TLC_SIM_PRIMITIVE inline void tmaStoreCommit() {
  auto it = simimpl::bulkStoreThreads.find(sim::linearThread());
  if (it == simimpl::bulkStoreThreads.end() || it->second.open.empty())
    return;
  it->second.committed.push_back(std::move(it->second.open));
  it->second.open.clear();
}
/// cp.async.bulk.wait_group.read 0.
TLC_SIM_PRIMITIVE inline void tmaStoreWaitRead() {
  simimpl::bulkStoreWait(0, TLC_SIM_HERE);
}
/// cp.async.bulk.wait_group[.read] N (the writes are performed at issue, so
/// both forms wait for the same).
template <int N, bool Read> TLC_SIM_PRIMITIVE void tmaStoreWait() {
  static_assert(N >= 0 && N <= 7, "a bulk wait_group count in 0..7");
  simimpl::bulkStoreWait(N, TLC_SIM_HERE);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_TMA_H
