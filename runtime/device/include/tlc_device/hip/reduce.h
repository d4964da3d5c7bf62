//===- reduce.h - Wavefront shuffles for reductions (HIP) -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// shuffleXor(value, offset): the value of lane `lane ^ offset` of the
// wavefront of 64, for 1-, 2-, 4- and 8-byte values, through shuffleXor32
// (common.h: ds_bpermute_b32 on the device, the simulator's wavefront
// collective on the sim device).
//
// dppXor<Offset, Mirrored>(value): the value of lane `lane ^ Offset` for
// offsets 1, 2, 4 and 8, which stay inside a DPP row of 16 lanes, through
// DPP moves (v_mov_b32_dpp, which the compiler may fold into the combining
// instruction) instead of ds_bpermute's trip through the LDS unit:
// quad_perm [1,0,3,2] / [2,3,0,1] for 1 and 2; for 4 and 8 a
// row_half_mirror / row_mirror when the value is already equal over the
// lanes that differ only below Offset (Mirrored: lane 7 - i and i ^ 4 then
// hold the same value), else row_shl and row_shr under complementary bank
// masks (banks are the 4-lane quarters of a row).
//
// Lane bits 4 and 5 of a reduction whose bits 0..3 are reduced already
// (the value is equal over each row of 16): no butterfly crosses rows, but
// GFX9's row broadcasts do. rowBcast15(v) gives the lanes of rows 1 and 3
// lane 15 of the row below (row_bcast:15 under row_mask 0xA), rowBcast31(v)
// those of rows 2 and 3 lane 31 (row_bcast:31 under row_mask 0xC); the
// other lanes keep v. Combining under ifLaneBit<4>, then <5>, leaves the
// pair totals in lanes 31 and 63, the wavefront's total in lane 63, and
// readLane (v_readlane_b32) hands them to every lane: no ds_bpermute.
//
// waveReduce<Op>(value): Op (0 sum, 1 max, 2 min, 3 and, 4 or) over the
// wavefront of 64, every lane getting the result (T.warp_reduce_*: the
// hardware warp is the wavefront): DPP within rows, ds_bpermute across.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_REDUCE_H
#define TLC_DEVICE_HIP_REDUCE_H

#include "tlc_device/hip/common.h"
#include "tlc_device/hip/warp.h"

namespace tlc {
namespace hip {

template <typename T> TLC_DEVICE T shuffleXor(T value, unsigned offset) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                    sizeof(T) == 8,
                "shuffles move 1, 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    uint64_t bits = bitCast<uint64_t>(value);
    uint64_t lo = shuffleXor32(uint32_t(bits), offset);
    uint64_t hi = shuffleXor32(uint32_t(bits >> 32), offset);
    return bitCast<T>(lo | hi << 32);
  } else if constexpr (sizeof(T) == 4) {
    return bitCast<T>(shuffleXor32(bitCast<uint32_t>(value), offset));
  } else if constexpr (sizeof(T) == 2) {
    return bitCast<T>(uint16_t(shuffleXor32(bitCast<uint16_t>(value), offset)));
  } else {
    return bitCast<T>(uint8_t(shuffleXor32(bitCast<uint8_t>(value), offset)));
  }
}

/// DPP_CTRL values (GFX9 / CDNA VOP_DPP) the reductions use.
enum DppCtrl : int {
  kDppQuadXor1 = 0xB1,      // quad_perm:[1,0,3,2]
  kDppQuadXor2 = 0x4E,      // quad_perm:[2,3,0,1]
  kDppRowShl4 = 0x104,      // row_shl:4: lane i reads lane i + 4 of its row
  kDppRowShl8 = 0x108,
  kDppRowShr4 = 0x114,      // row_shr:4: lane i reads lane i - 4 of its row
  kDppRowShr8 = 0x118,
  kDppRowMirror = 0x140,     // lane i reads lane 15 - i of its row
  kDppRowHalfMirror = 0x141, // lane i reads lane 7 - i of its half-row
  kDppRowBcast15 = 0x142,    // row r + 1 reads lane 15 of row r
  kDppRowBcast31 = 0x143     // rows 2 and 3 read lane 31
};

/// One DPP move of \p v: lanes of the rows in \p RowMask and banks in
/// \p BankMask get \p v of their source lane under \p Ctrl, the others
/// keep \p old (every source the reductions name is a valid lane).
template <int Ctrl, int RowMask = 0xF, int BankMask = 0xF>
TLC_DEVICE uint32_t dppMove32(uint32_t old, uint32_t v) {
  return uint32_t(__builtin_amdgcn_update_dpp(int(old), int(v), Ctrl, RowMask,
                                              BankMask, false));
}

template <unsigned Offset, bool Mirrored>
TLC_DEVICE uint32_t dppXor32(uint32_t v) {
  static_assert(Offset == 1 || Offset == 2 || Offset == 4 || Offset == 8,
                "DPP rows hold 16 lanes");
  if constexpr (Offset == 1) {
    return dppMove32<kDppQuadXor1>(v, v);
  } else if constexpr (Offset == 2) {
    return dppMove32<kDppQuadXor2>(v, v);
  } else if constexpr (Offset == 4 && Mirrored) {
    return dppMove32<kDppRowHalfMirror>(v, v);
  } else if constexpr (Offset == 8 && Mirrored) {
    return dppMove32<kDppRowMirror>(v, v);
  } else if constexpr (Offset == 4) { // banks 0, 2 read up; 1, 3 down
    return dppMove32<kDppRowShr4, 0xF, 0xA>(
        dppMove32<kDppRowShl4, 0xF, 0x5>(v, v), v);
  } else { // banks 0, 1 read up; 2, 3 down
    return dppMove32<kDppRowShr8, 0xF, 0xC>(
        dppMove32<kDppRowShl8, 0xF, 0x3>(v, v), v);
  }
}

template <unsigned Offset, bool Mirrored, typename T>
TLC_DEVICE T dppXor(T value) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                    sizeof(T) == 8,
                "DPP moves 1, 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    uint64_t bits = bitCast<uint64_t>(value);
    uint64_t lo = dppXor32<Offset, Mirrored>(uint32_t(bits));
    uint64_t hi = dppXor32<Offset, Mirrored>(uint32_t(bits >> 32));
    return bitCast<T>(lo | hi << 32);
  } else if constexpr (sizeof(T) == 4) {
    return bitCast<T>(dppXor32<Offset, Mirrored>(bitCast<uint32_t>(value)));
  } else if constexpr (sizeof(T) == 2) {
    return bitCast<T>(
        uint16_t(dppXor32<Offset, Mirrored>(bitCast<uint16_t>(value))));
  } else {
    return bitCast<T>(
        uint8_t(dppXor32<Offset, Mirrored>(bitCast<uint8_t>(value))));
  }
}

/// \p value moved by \p Fn (a 32-bit move) word by word.
template <typename T, typename F> TLC_DEVICE T byWords(T value, F fn) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                    sizeof(T) == 8,
                "lane moves take 1, 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    uint64_t bits = bitCast<uint64_t>(value);
    uint64_t lo = fn(uint32_t(bits));
    uint64_t hi = fn(uint32_t(bits >> 32));
    return bitCast<T>(lo | hi << 32);
  } else if constexpr (sizeof(T) == 4) {
    return bitCast<T>(fn(bitCast<uint32_t>(value)));
  } else if constexpr (sizeof(T) == 2) {
    return bitCast<T>(uint16_t(fn(bitCast<uint16_t>(value))));
  } else {
    return bitCast<T>(uint8_t(fn(bitCast<uint8_t>(value))));
  }
}

template <typename T> TLC_DEVICE T rowBcast15(T value) {
  return byWords(
      value, [](uint32_t v) { return dppMove32<kDppRowBcast15, 0xA>(v, v); });
}

template <typename T> TLC_DEVICE T rowBcast31(T value) {
  return byWords(
      value, [](uint32_t v) { return dppMove32<kDppRowBcast31, 0xC>(v, v); });
}

/// \p a in lanes whose bit \p Bit is set, else \p b.
template <unsigned Bit, typename T> TLC_DEVICE T ifLaneBit(T a, T b) {
  return (laneId() >> Bit) & 1u ? a : b;
}

/// Lane \p lane's \p value (uniform \p lane) in every lane.
template <typename T> TLC_DEVICE T readLane(T value, int lane) {
  return byWords(value, [lane](uint32_t v) {
    return uint32_t(__builtin_amdgcn_readlane(int(v), lane));
  });
}

/// Lane 31's \p value in lanes 0..31, lane 63's in 32..63.
template <typename T> TLC_DEVICE T readPairTotal(T value) {
  T low = readLane(value, 31), high = readLane(value, 63);
  return laneId() & 32u ? high : low;
}

template <int Op, typename T> TLC_DEVICE T waveCombine(T value, T other) {
  return Op == 0   ? T(value + other)
         : Op == 1 ? (other > value ? other : value)
         : Op == 2 ? (other < value ? other : value)
         : Op == 3 ? T(value & other)
                   : T(value | other);
}

template <int Op, typename T> TLC_DEVICE T waveReduce(T value) {
  // Offsets 1 .. 8 in increasing order: each DPP step sees values already
  // equal below its offset (the mirrors).
  value = waveCombine<Op>(value, dppXor<1, true>(value));
  value = waveCombine<Op>(value, dppXor<2, true>(value));
  value = waveCombine<Op>(value, dppXor<4, true>(value));
  value = waveCombine<Op>(value, dppXor<8, true>(value));
  for (int offset = 16; offset < 64; offset *= 2) {
    T other = shuffle<3>(value, offset, 64);
    value = waveCombine<Op>(value, other);
  }
  return value;
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_REDUCE_H
