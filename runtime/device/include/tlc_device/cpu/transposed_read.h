//===- cpu/transposed_read.h - gfx950's LDS transpose reads -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `T.ds_read_tr16_b64` / `T.ds_read_tr8_b64` on the CPU target: one
/// wavefront's ds_read_b64_tr_b16 / ds_read_b64_tr_b8 (gfx950, CDNA4) on the
/// bytes of the threads' shared buffers, the reference the HIP code on the
/// sim device is compared with.
///
/// With E = 16 or 8 bits and n = 64 / E elements in a lane's 8 bytes:
///
/// * Every lane of the wavefront of 64 executes it (the ISA requires EXEC
///   to be all ones); each lane reads the 8 bytes at its address, 8-byte
///   aligned.
/// * The lanes exchange within each row of 16 lanes: lane j of a row
///   receives element j % n of the chunks of lanes (16 / n) v + j / n of
///   its row, v = 0 .. n - 1, element v of its value in bits E v ..
///   E v + E - 1. When lane j addresses chunk j of an n x 16 block stored
///   row-major (row j / (16 / n), columns n (j % (16 / n)) ..), lane j
///   receives column j.
///
/// (The rule as public descriptions of the instruction give it: Triton's
/// lowering diagram, lane T0 taking M0's K0..K3 from the chunks of lanes
/// 0, 4, 8, 12; Modular's "each 16-lane row loads a 4x16 tile ... each lane
/// gets a column"; its b8 "two interleaved 8x8 byte transposes". The AMD
/// CDNA4 ISA document's own text was not at hand. Nothing here ran on
/// hardware. The sim's model of the instruction,
/// runtime/sim/include/tlc_device/hip/common.h, is a separate one.)
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_TRANSPOSED_READ_H
#define TLC_DEVICE_CPU_TRANSPOSED_READ_H

#include "tlc_device/cpu/threads.h"
#include "tlc_device/cpu/view.h"

#include <cstdint>
#include <cstdio>

namespace tlc {
namespace cpu {

/// Whether the wavefront of 64 threads starting at thread \p w runs the
/// read \p name: 0 when none of its threads reaches it, 1 when all 64 do;
/// otherwise an error and -1.
inline int transposedReadWave(Status &st, const char *loc, const char *name,
                              int64_t w, int64_t n,
                              const Lanes<uint8_t> *active) {
  int reached = 0;
  for (int64_t l = 0; l < 64 && w + l < n; ++l)
    reached += !active || (*active)[w + l];
  if (reached == 0)
    return 0;
  if (n - w < 64 || reached < 64) {
    char msg[240];
    std::snprintf(msg, sizeof msg,
                  "%s is executed by the whole wavefront of 64 lanes, but "
                  "only %d lanes of wavefront %lld reach it",
                  name, reached, (long long)(w / 64));
    st.fail(loc, msg);
    return -1;
  }
  return 1;
}

/// The 8 bytes thread \p t reads for \p name: from the first element of its
/// view \p v, checked to lie in the dense buffer \p v is a window on and to
/// be 8-byte aligned within it. Null after an error.
template <typename T, int R>
inline const uint8_t *transposedReadChunk(Status &st, const char *loc,
                                          const char *name, int64_t t,
                                          const View<T, R> &v) {
  int64_t pos = 0, total = 1;
  bool dense = true;
  for (int d = R - 1; d >= 0; --d) {
    dense &= v.stride[d] == total;
    pos -= v.lo[d] * total;
    total *= v.hi[d] - v.lo[d];
  }
  const int64_t size = int64_t(sizeof(T));
  const int64_t first = pos * size;
  char msg[320];
  if (!dense) {
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld's address is not in a dense row-major "
                  "buffer",
                  name, (long long)t);
    st.fail(loc, msg);
    return nullptr;
  }
  if (first < 0 || first + 8 > total * size) {
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld's 8 bytes (at byte %lld) lie outside its "
                  "buffer of %lld bytes",
                  name, (long long)t, (long long)first,
                  (long long)(total * size));
    st.fail(loc, msg);
    return nullptr;
  }
  if (first % 8) {
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld's address, byte %lld of its buffer, is "
                  "not 8-byte aligned",
                  name, (long long)t, (long long)first);
    st.fail(loc, msg);
    return nullptr;
  }
  return reinterpret_cast<const uint8_t *>(v.base) + v.origin * size;
}

/// Lane \p l's value after the exchange of \p chunks (the 8 bytes each lane
/// of the wavefront read) with elements of \p bits bits (16 or 8).
inline uint64_t transposedReadLane(int bits, const uint8_t *const (&chunks)[64],
                                   int l) {
  const int n = 64 / bits, across = 16 / n, bytes = bits / 8;
  const int row = l & ~15, j = l & 15;
  uint64_t out = 0;
  for (int v = 0; v < n; ++v) {
    const uint8_t *from = chunks[row + across * v + j / n];
    for (int b = 0; b < bytes; ++b)
      out |= uint64_t(from[bytes * (j % n) + b]) << (bits * v + 8 * b);
  }
  return out;
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_TRANSPOSED_READ_H
