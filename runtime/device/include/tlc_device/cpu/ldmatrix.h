//===- cpu/ldmatrix.h - Warp-wide ldmatrix of CPU kernels -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `T.ptx_ldmatrix` on the CPU target: one warp's ldmatrix.sync as the PTX
/// ISA defines it, on the bytes of the threads' buffers.
///
/// * Lane 8i + r gives the address of row r of matrix i (16 bytes of shared
///   memory, 16-byte aligned); for .x1 / .x2 only lanes 0-7 / 0-15 are read.
/// * `.m8n8.b16`: lane l receives, in register i, bytes 4 (l % 4) ..
///   4 (l % 4) + 3 of row l / 4 of matrix i (the 16-bit elements in columns
///   2 (l % 4) and 2 (l % 4) + 1, the smaller column in the low half).
///   `.trans`: the 16-bit elements (row 2 (l % 4), column l / 4) and (row
///   2 (l % 4) + 1, column l / 4) instead.
/// * `.m8n16.b8x16.b4x16_p64` / `.b6x16_p32` (sm_100a; TileLang's 'su4' /
///   'su6'): a row holds 16 unsigned 4- / 6-bit elements packed LSB first
///   in its first 8 / 12 bytes (the rest is padding). Each is unpacked into
///   a byte (zero-extended); lane l receives bytes 4 (l % 4) .. + 3 of the
///   unpacked row l / 4, as for .b16.
/// * Register i of lane l is stored at byte 4 i of that lane's destination
///   (little-endian, as the GPU stores a register).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_LDMATRIX_H
#define TLC_DEVICE_CPU_LDMATRIX_H

#include "tlc_device/cpu/threads.h"
#include "tlc_device/cpu/view.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace tlc {
namespace cpu {

/// The row format of an ldmatrix.
enum class LdmatrixFormat { B16, Su4, Su6 };

/// Whether the warp starting at thread \p w runs the ldmatrix: 0 when none
/// of its threads reaches it, 1 when all 32 do; otherwise an error (the
/// instruction is `.sync.aligned`: the whole warp executes it) and -1.
inline int ldmatrixWarp(Status &st, const char *loc, int64_t w, int64_t n,
                        const Lanes<uint8_t> *active) {
  int reached = 0;
  for (int64_t l = 0; l < 32 && w + l < n; ++l)
    reached += !active || (*active)[w + l];
  if (reached == 0)
    return 0;
  char msg[200];
  if (n - w < 32 || reached < 32) {
    std::snprintf(msg, sizeof msg,
                  "T.ptx_ldmatrix is executed by the whole warp, but only "
                  "%d lanes of warp %lld reach it",
                  reached, (long long)(w / 32));
    st.fail(loc, msg);
    return -1;
  }
  return 1;
}

/// The bytes at element offset \p extra past the first element of \p v,
/// which lane \p t names as its \p what: checked to have \p bytes bytes of
/// the dense buffer \p v is a window on from there, \p align-byte aligned
/// within it. Null after an error.
template <typename T, int R>
inline uint8_t *ldmatrixBytes(Status &st, const char *loc, const char *what,
                              int64_t t, const View<T, R> &v, int64_t extra,
                              int64_t bytes, int64_t align) {
  // The buffer's extents are hi - lo; the window's first element lies at
  // -lo in it.
  int64_t pos = 0, total = 1;
  bool dense = true;
  for (int d = R - 1; d >= 0; --d) {
    dense &= v.stride[d] == total;
    pos -= v.lo[d] * total;
    total *= v.hi[d] - v.lo[d];
  }
  const int64_t size = int64_t(sizeof(T));
  const int64_t first = (pos + extra) * size;
  char msg[320];
  if (!dense) {
    std::snprintf(msg, sizeof msg,
                  "T.ptx_ldmatrix: lane %lld's %s is not in a dense "
                  "row-major buffer",
                  (long long)(t % 32), what);
    st.fail(loc, msg);
    return nullptr;
  }
  if (first < 0 || first + bytes > total * size) {
    std::snprintf(msg, sizeof msg,
                  "T.ptx_ldmatrix: thread %lld's %s (%lld bytes at byte "
                  "%lld) lies outside its buffer of %lld bytes",
                  (long long)t, what, (long long)bytes, (long long)first,
                  (long long)(total * size));
    st.fail(loc, msg);
    return nullptr;
  }
  if (first % align) {
    std::snprintf(msg, sizeof msg,
                  "T.ptx_ldmatrix: thread %lld's %s at byte %lld of its "
                  "buffer is not %lld-byte aligned",
                  (long long)t, what, (long long)first, (long long)align);
    st.fail(loc, msg);
    return nullptr;
  }
  return reinterpret_cast<uint8_t *>(v.base) + (v.origin + extra) * size;
}

/// One warp's ldmatrix: \p rows[i][r] is row r of matrix i, \p dst[l] where
/// lane l's \p num registers go (4 num bytes). Every row is read before any
/// register is written.
inline void ldmatrixRun(int num, bool trans, LdmatrixFormat format,
                        uint8_t *const (&rows)[4][8],
                        uint8_t *const (&dst)[32]) {
  // The matrices as bytes, 16 per row (unpacked for the sub-byte formats).
  uint8_t m[4][8][16];
  for (int i = 0; i < num; ++i)
    for (int r = 0; r < 8; ++r) {
      const uint8_t *p = rows[i][r];
      for (int e = 0; e < 16; ++e) {
        if (format == LdmatrixFormat::B16) {
          m[i][r][e] = p[e];
        } else if (format == LdmatrixFormat::Su4) {
          m[i][r][e] = uint8_t(p[e / 2] >> (4 * (e % 2)) & 0xFu);
        } else {
          unsigned v = 0;
          for (int b = 0; b < 6; ++b) {
            int bit = 6 * e + b;
            v |= unsigned(p[bit / 8] >> (bit % 8) & 1u) << b;
          }
          m[i][r][e] = uint8_t(v);
        }
      }
    }
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < num; ++i) {
      uint8_t reg[4];
      for (int k = 0; k < 4; ++k) {
        if (!trans) {
          reg[k] = m[i][l / 4][4 * (l % 4) + k];
        } else {
          // Half k / 2: the 16-bit element (row 2 (l % 4) + k / 2, column
          // l / 4), byte k % 2 of it.
          reg[k] = m[i][2 * (l % 4) + k / 2][2 * (l / 4) + k % 2];
        }
      }
      std::memcpy(dst[l] + 4 * i, reg, 4);
    }
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_LDMATRIX_H
