//===- cpu/view.h - Errors and strided views of CPU kernels -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `Status`, the error state of one kernel call, and `View`, a strided window
/// on a buffer that knows which of its indices are in bounds: out-of-range
/// reads of global memory give zero, writes are dropped (TileLang's guards);
/// out-of-range accesses to on-chip buffers are reported as errors with the
/// source location. Also the range tests of the generated code's unchecked
/// fast paths (`spans`, `covers`) and their row copy (`copyRow`).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_VIEW_H
#define TLC_DEVICE_CPU_VIEW_H

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "tlc_device/cpu/types.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The error state of one kernel call, shared by all worker threads. The
/// first error wins; the scheduler stops handing out blocks after it.
struct Status {
  std::atomic<bool> failed{false};
  char *message = nullptr;
  size_t size = 0;

  /// Records `LOC: error: WHAT` unless an error was recorded already.
  void fail(const char *loc, const char *what) {
    bool expected = false;
    if (!failed.compare_exchange_strong(expected, true))
      return;
    if (message && size)
      std::snprintf(message, size, "%s: error: %s", loc, what);
  }
  /// True once an error was recorded.
  bool hasFailed() const { return failed.load(std::memory_order_relaxed); }
};

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// A rank-R strided window on a buffer of T: `shape` is the window's
/// extent, and index i of dimension d is in bounds when lo[d] <= i < hi[d]
/// (the parts of the window that lie inside the underlying buffer). A view
/// of a whole buffer has lo = 0 and hi = shape.
template <typename T, int R> struct View {
  T *base = nullptr;
  int64_t origin = 0;
  int64_t shape[R] = {};
  int64_t stride[R] = {};
  int64_t lo[R] = {};
  int64_t hi[R] = {};

  /// The linear element offset of an index (no bounds check).
  int64_t offset(const int64_t (&idx)[R]) const {
    int64_t o = origin;
    for (int d = 0; d < R; ++d)
      o += idx[d] * stride[d];
    return o;
  }
  /// True when \p idx lies inside the underlying buffer.
  bool inBounds(const int64_t (&idx)[R]) const {
    for (int d = 0; d < R; ++d)
      if (idx[d] < lo[d] || idx[d] >= hi[d])
        return false;
    return true;
  }
  /// The element at \p idx (must be in bounds).
  typename ElementRef<T>::type at(const int64_t (&idx)[R]) const {
    return ElementRef<T>::at(base, offset(idx));
  }
};

/// A dense row-major view of \p data with extents \p shape.
template <typename T, int R>
inline View<T, R> denseView(T *data, const int64_t (&shape)[R]) {
  View<T, R> v;
  v.base = data;
  int64_t s = 1;
  for (int d = R - 1; d >= 0; --d) {
    v.shape[d] = shape[d];
    v.stride[d] = s;
    v.lo[d] = 0;
    v.hi[d] = shape[d];
    s *= shape[d];
  }
  return v;
}

/// A view of \p data with extents \p shape and element strides \p strides
/// (a transposed or padded parameter: `T.StridedTensor`).
template <typename T, int R>
inline View<T, R> stridedView(T *data, const int64_t (&shape)[R],
                              const int64_t (&strides)[R]) {
  View<T, R> v = denseView(data, shape);
  for (int d = 0; d < R; ++d)
    v.stride[d] = strides[d];
  return v;
}

/// The number of elements of extents \p shape (0 if any is negative).
template <int R> inline int64_t numElements(const int64_t (&shape)[R]) {
  int64_t n = 1;
  for (int d = 0; d < R; ++d)
    n *= std::max<int64_t>(shape[d], 0);
  return n;
}

/// Storage of an on-chip buffer (shared, fragment, local, var) of one
/// block: zero-initialised, freed at the end of the block.
/// The element storage of a Local: T itself, except for bool, whose
/// std::vector packs bits and has no data(); a one-byte cell holding a bool
/// is pointer-interconvertible with it.
template <typename T> struct LocalCell { using type = T; };
template <> struct LocalCell<bool> {
  struct type {
    bool value;
  };
};

template <typename T, int R> struct Local {
  std::vector<typename LocalCell<T>::type> data;
  View<T, R> view;
  explicit Local(const int64_t (&shape)[R])
      : data(size_t(numElements(shape)), typename LocalCell<T>::type()) {
    view = denseView(reinterpret_cast<T *>(data.data()), shape);
  }
};

/// The sub-window of \p src at \p offsets with extents \p shape. Bounds
/// follow the source: an index is in bounds if it is in the source's.
template <typename T, int R>
inline View<T, R> region(const View<T, R> &src, const int64_t (&offsets)[R],
                         const int64_t (&shape)[R]) {
  View<T, R> v = src;
  for (int d = 0; d < R; ++d) {
    v.origin += offsets[d] * src.stride[d];
    v.shape[d] = shape[d];
    v.lo[d] = src.lo[d] - offsets[d];
    v.hi[d] = src.hi[d] - offsets[d];
  }
  return v;
}

/// The elements of \p src in row-major order seen with extents \p shape and
/// element type U (`T.reshape`, `T.view`; U's storage is T's bits when the
/// types differ). \p src must be a whole dense buffer; otherwise the
/// program fails at \p loc and the view covers no element.
template <typename U, int R2, typename T, int R>
inline View<U, R2> reshape(Status &st, const char *loc, const View<T, R> &src,
                           const int64_t (&shape)[R2]) {
  int64_t s = 1;
  bool dense = true;
  for (int d = R - 1; d >= 0; --d) {
    dense &= src.stride[d] == s && src.lo[d] == 0 && src.hi[d] == src.shape[d];
    s *= std::max<int64_t>(src.shape[d], 0);
  }
  if (!dense) {
    st.fail(loc, "T.reshape/T.view of a buffer that is not whole and dense");
    View<U, R2> none;
    return none;
  }
  return denseView(reinterpret_cast<U *>(src.base + src.origin), shape);
}

/// Guarded read of global memory: zero outside the buffer.
template <typename T, int R>
inline T load(const View<T, R> &v, const int64_t (&idx)[R]) {
  return v.inBounds(idx) ? v.at(idx) : T();
}

/// Guarded read of global memory under T.annotate_safe_value: \p safe
/// outside the buffer.
template <typename T, int R>
inline T loadOr(const View<T, R> &v, const int64_t (&idx)[R], T safe) {
  return v.inBounds(idx) ? v.at(idx) : safe;
}

/// Guarded write of global memory: dropped outside the buffer.
template <typename T, int R>
inline void store(const View<T, R> &v, const int64_t (&idx)[R], T value) {
  if (v.inBounds(idx))
    v.at(idx) = value;
}

/// True when every index between \p min and \p max (inclusive, per
/// dimension) lies inside the buffer of \p v; true for an empty range. The
/// fast paths of the generated loops run unchecked when this holds.
template <typename T, int R>
inline bool spans(const View<T, R> &v, const int64_t (&min)[R],
                  const int64_t (&max)[R]) {
  bool ok = true;
  for (int d = 0; d < R; ++d) {
    if (max[d] < min[d])
      return true;
    ok &= v.lo[d] <= min[d] && max[d] < v.hi[d];
  }
  return ok;
}

/// True when the box [0, ext) of indices lies inside \p v's buffer.
template <typename T, int R>
inline bool covers(const View<T, R> &v, const int64_t (&ext)[R]) {
  int64_t max[R], min[R] = {};
  for (int d = 0; d < R; ++d)
    max[d] = ext[d] - 1;
  return spans(v, min, max);
}

/// dst[j * dstStride] = To(src[j * srcStride]) for j < n: the innermost
/// loop of an unchecked T.copy. Contiguous rows of one type are copied as
/// bytes; contiguous converting rows run as a plain loop GCC vectorises.
template <typename To, typename From>
inline void copyRow(To *dst, int64_t dstStride, const From *src,
                    int64_t srcStride, int64_t n) {
  if (n <= 0)
    return;
  if (dstStride == 1 && srcStride == 1) {
    if constexpr (std::is_same_v<To, From>) {
      std::memmove(static_cast<void *>(dst), src, size_t(n) * sizeof(To));
    } else {
      for (int64_t j = 0; j < n; ++j)
        dst[j] = cast<To>(src[j]);
    }
    return;
  }
  for (int64_t j = 0; j < n; ++j)
    dst[j * dstStride] = cast<To>(src[j * srcStride]);
}

/// The least (\p greatest false) or the greatest value of x * y, x max y
/// or x min y for x in [a0, a1] and y in [b0, b1] (at the corners).
inline int64_t mulRange(bool greatest, int64_t a0, int64_t a1, int64_t b0,
                        int64_t b1) {
  int64_t p[4] = {a0 * b0, a0 * b1, a1 * b0, a1 * b1};
  return greatest ? *std::max_element(p, p + 4) : *std::min_element(p, p + 4);
}
inline int64_t maxRange(bool greatest, int64_t a0, int64_t a1, int64_t b0,
                        int64_t b1) {
  return greatest ? std::max(a1, b1) : std::max(a0, b0);
}
inline int64_t minRange(bool greatest, int64_t a0, int64_t a1, int64_t b0,
                        int64_t b1) {
  return greatest ? std::min(a1, b1) : std::min(a0, b0);
}

/// Checked access to an on-chip buffer: an index outside it is a program
/// error, reported at \p loc; reads give zero and writes are dropped then.
template <typename T, int R>
inline T loadChecked(Status &st, const char *loc, const View<T, R> &v,
                     const int64_t (&idx)[R]) {
  if (v.inBounds(idx))
    return v.at(idx);
  st.fail(loc, "index out of range of an on-chip buffer");
  return T();
}
template <typename T, int R>
inline void storeChecked(Status &st, const char *loc, const View<T, R> &v,
                         const int64_t (&idx)[R], T value) {
  if (v.inBounds(idx))
    v.at(idx) = value;
  else
    st.fail(loc, "index out of range of an on-chip buffer");
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_VIEW_H
