//===- cpu/threads.h - The threads of a block on the CPU --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kernels with per-thread code: values kept once per thread (`Lanes`,
/// `lane`), the checks that block- and warp-wide operations see agreeing
/// threads, and warp shuffles, votes and reductions computed from the other
/// lanes' values as the PTX ISA defines them.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_THREADS_H
#define TLC_DEVICE_CPU_THREADS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <type_traits>

#include "tlc_device/cpu/view.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// The threads of a block (kernels with per-thread code)
//===----------------------------------------------------------------------===//
//
// A kernel that reads its thread index (T.get_thread_binding, lane and warp
// indices, warp shuffles and votes) runs the threads of each block one after
// the other, once per phase between two barriers: the generated code loops
// over the threads for every run of per-thread statements, keeps the values
// that live from one run to a later one in Lanes arrays, and keeps every
// T.alloc_local / T.alloc_var buffer once per thread (a leading dimension
// of the thread count, see lane()). A warp operation ends a run; it is then
// computed for each thread from the other lanes' values, as the PTX ISA
// defines it. Threads are numbered as CUDA numbers them (x fastest); warp w
// holds threads 32w .. 32w + 31.

/// One value of type T per thread of a block.
template <typename T> struct Lanes {
  std::unique_ptr<T[]> v;
  explicit Lanes(int64_t n) : v(new T[size_t(n > 0 ? n : 1)]()) {}
  T &operator[](int64_t t) const { return v[t]; }
};

/// Thread \p t's copy of a per-thread buffer whose copies are the leading
/// dimension of \p all.
template <typename T, int R>
inline View<T, R - 1> lane(const View<T, R> &all, int64_t t) {
  View<T, R - 1> v;
  v.base = all.base;
  v.origin = all.origin + t * all.stride[0];
  for (int d = 1; d < R; ++d) {
    v.shape[d - 1] = all.shape[d];
    v.stride[d - 1] = all.stride[d];
    v.lo[d - 1] = all.lo[d];
    v.hi[d - 1] = all.hi[d];
  }
  return v;
}

/// Equal values (NaNs equal to each other; small floats by value).
template <typename T> inline bool sameValue(const T &a, const T &b) {
  if constexpr (std::is_integral_v<T>) {
    return a == b;
  } else if constexpr (std::is_floating_point_v<T>) {
    return a == b || (a != a && b != b);
  } else {
    float x = float(a), y = float(b);
    return x == y || (x != x && y != y);
  }
}

/// Equal views: the same elements of the same buffer with the same bounds
/// (a tile operation after a barrier takes one view its threads agree on).
template <typename T, int R>
inline bool sameValue(const View<T, R> &a, const View<T, R> &b) {
  if (a.base != b.base || a.origin != b.origin)
    return false;
  for (int d = 0; d < R; ++d)
    if (a.shape[d] != b.shape[d] || a.stride[d] != b.stride[d] ||
        a.lo[d] != b.lo[d] || a.hi[d] != b.hi[d])
      return false;
  return true;
}

/// The value of \p v in the threads that \p active names (every thread when
/// null), which must agree: it is used once for the whole block (a loop
/// bound, a loop exit, an operand of a tile operation). A disagreement is
/// an error naming two threads; T() when no thread is active.
template <typename T>
inline T uniform(Status &st, const char *loc, const char *what,
                 const Lanes<T> &v, const Lanes<uint8_t> *active, int64_t n) {
  int64_t first = -1;
  for (int64_t t = 0; t < n; ++t) {
    if (active && !(*active)[t])
      continue;
    if (first < 0) {
      first = t;
      continue;
    }
    if (!sameValue(v[t], v[first])) {
      char msg[320];
      std::snprintf(msg, sizeof msg,
                    "%s differs between thread %lld and thread %lld of the "
                    "block; the CPU target uses it once for the whole block",
                    what, (long long)first, (long long)t);
      st.fail(loc, msg);
      break;
    }
  }
  return first < 0 ? T() : v[first];
}

/// The first thread that \p active names (every thread when null); 0 when
/// none is.
inline int64_t firstActive(const Lanes<uint8_t> *active, int64_t n) {
  for (int64_t t = 0; t < n; ++t)
    if (!active || (*active)[t])
      return t;
  return 0;
}

/// Whether the copies of a per-thread buffer (\p all: thread t's copy is
/// `lane(all, t)`) hold the same values in every thread that \p active
/// names: a tile operation reads one thread's copy. Otherwise an error
/// naming two threads that differ, and false.
template <typename T, int R>
inline bool lanesAgree(Status &st, const char *loc, const char *what,
                       const View<T, R> &all, const Lanes<uint8_t> *active,
                       int64_t n) {
  int64_t first = firstActive(active, n);
  int64_t per = 1;
  for (int d = 1; d < R; ++d)
    per *= all.shape[d];
  for (int64_t t = first + 1; t < n; ++t) {
    if (active && !(*active)[t])
      continue;
    for (int64_t e = 0; e < per; ++e) {
      int64_t idx[R] = {};
      int64_t rest = e;
      for (int d = R - 1; d >= 1; --d) {
        idx[d] = rest % all.shape[d];
        rest /= all.shape[d];
      }
      int64_t a[R], b[R];
      std::copy(idx, idx + R, a);
      std::copy(idx, idx + R, b);
      a[0] = first;
      b[0] = t;
      if (sameValue(all.at(a), all.at(b)))
        continue;
      char msg[320];
      std::snprintf(msg, sizeof msg,
                    "%s differs between thread %lld and thread %lld of the "
                    "block; the CPU target reads it once for the whole block",
                    what, (long long)first, (long long)t);
      st.fail(loc, msg);
      return false;
    }
  }
  return true;
}

/// Whether a tile operation under a condition on the thread index runs: it
/// is one operation of the threads that reach it (TileLang lays it out for
/// them), so it runs once when any thread is active.
inline bool anyThread(const Lanes<uint8_t> *active, int64_t n) {
  if (!active)
    return true;
  for (int64_t t = 0; t < n; ++t)
    if ((*active)[t])
      return true;
  return false;
}

/// Whether a barrier of the whole block (T.sync_threads, a block vote) is
/// reached: by every thread (true) or by none (false). Reached by some
/// threads only, it would never complete on the GPU: an error naming a
/// thread that reaches it and one that does not.
inline bool allThreads(Status &st, const char *loc, const char *what,
                       const Lanes<uint8_t> *active, int64_t n) {
  if (!active)
    return true;
  int64_t in = -1, out = -1;
  for (int64_t t = 0; t < n; ++t) {
    if ((*active)[t]) {
      if (in < 0)
        in = t;
    } else if (out < 0) {
      out = t;
    }
  }
  if (in < 0)
    return false;
  if (out < 0)
    return true;
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "%s is a barrier of the whole block, but thread %lld reaches "
                "it and thread %lld does not",
                what, (long long)in, (long long)out);
  st.fail(loc, msg);
  return false;
}

/// Whether the threads of \p active (all \p n without a mask) that reach a
/// named barrier of \p count threads (T.sync_threads(id, count) outside
/// fibers) are that many, or none. Otherwise the GPU would wait forever
/// (fewer) or release them in groups the CPU target does not model (more):
/// an error saying how many reach it.
inline bool namedBarrierThreads(Status &st, const char *loc, const char *what,
                                const Lanes<uint8_t> *active, int64_t n,
                                int64_t count) {
  int64_t reached = 0;
  for (int64_t t = 0; t < n; ++t)
    reached += !active || (*active)[t] ? 1 : 0;
  if (reached == 0 || reached == count)
    return true;
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "%s is a barrier of %lld threads, but %lld threads reach it",
                what, (long long)count, (long long)reached);
  st.fail(loc, msg);
  return false;
}

/// The lanes that take part in a warp operation of thread \p t (bit l:
/// thread 32 * warp + l): the lanes of \p mask that exist (the last warp of
/// a block may be short). Thread t must be in its own mask and every lane
/// of the mask must reach the operation (\p active; null: every thread),
/// as `*.sync` instructions require; otherwise an error and false.
inline bool warpMembers(Status &st, const char *loc, const char *what,
                        int64_t t, int64_t n, uint32_t mask,
                        const Lanes<uint8_t> *active, uint32_t &members) {
  int64_t base = t / 32 * 32;
  int lane = int(t % 32);
  uint32_t exist = n - base >= 32 ? ~0u : ((1u << (n - base)) - 1);
  char msg[320];
  if (!(mask >> lane & 1u)) {
    std::snprintf(msg, sizeof msg,
                  "thread %lld calls %s with mask 0x%08x, which does not name "
                  "its own lane %d",
                  (long long)t, what, mask, lane);
    st.fail(loc, msg);
    return false;
  }
  members = mask & exist;
  if (active)
    for (int l = 0; l < 32; ++l)
      if ((members >> l & 1u) && !(*active)[base + l]) {
        std::snprintf(msg, sizeof msg,
                      "%s: lane %d of warp %lld is in the mask but does not "
                      "reach it (lane %d does)",
                      what, l, (long long)(t / 32), lane);
        st.fail(loc, msg);
        return false;
      }
  return true;
}

/// The lanes of thread \p t's warp that exist and are active (__activemask).
inline uint32_t activeLanes(int64_t t, int64_t n,
                            const Lanes<uint8_t> *active) {
  int64_t base = t / 32 * 32;
  uint32_t m = 0;
  for (int l = 0; l < 32 && base + l < n; ++l)
    if (!active || (*active)[base + l])
      m |= 1u << l;
  return m;
}

/// The four shfl.sync modes.
enum class Shuffle { Idx, Up, Down, Bfly };

/// The thread whose value thread \p t receives from `__shfl*_sync(mask, v,
/// b, width)`, by the PTX ISA's shfl.sync: CUDA passes c = ((32 - width) <<
/// 8) | (Up ? 0 : 31), so segmask = 32 - width and the clamp is 31 (0 for
/// Up); maxLane = (lane & segmask) | (clamp & ~segmask), minLane = lane &
/// segmask; Up: j = lane - b, valid when j >= maxLane; Down: j = lane + b,
/// Bfly: j = lane ^ b, Idx: j = minLane | (b & ~segmask), valid when j <=
/// maxLane; an invalid j reads the thread's own lane. b is taken mod 32 (its
/// five low bits). The source lane must be one of \p members; -1 (and an
/// error) when it is not or when width is not a power of two in 1..32
/// (width 64, HIP's wavefront, is waveShuffleSource's).
inline int64_t shuffleSource(Status &st, const char *loc, const char *what,
                             Shuffle mode, int64_t t, uint32_t members,
                             int64_t b, int64_t width) {
  char msg[320];
  if (width < 1 || width > 32 || (width & (width - 1))) {
    std::snprintf(msg, sizeof msg,
                  "%s: width %lld is not a power of two in 1..32", what,
                  (long long)width);
    st.fail(loc, msg);
    return -1;
  }
  int lane = int(t % 32);
  int bval = int(b & 31);
  int segmask = int(32 - width) & 31;
  int clamp = mode == Shuffle::Up ? 0 : 31;
  int maxLane = (lane & segmask) | (clamp & ~segmask);
  int minLane = lane & segmask;
  int j = lane;
  bool valid = false;
  switch (mode) {
  case Shuffle::Up:
    j = lane - bval;
    valid = j >= maxLane;
    break;
  case Shuffle::Down:
    j = lane + bval;
    valid = j <= maxLane;
    break;
  case Shuffle::Bfly:
    j = lane ^ bval;
    valid = j <= maxLane;
    break;
  case Shuffle::Idx:
    j = minLane | (bval & ~segmask);
    valid = j <= maxLane;
    break;
  }
  if (!valid)
    j = lane;
  if (!(members >> j & 1u)) {
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld reads lane %d, which does not take part "
                  "(not in the mask, or past the end of the block)",
                  what, (long long)t, j);
    st.fail(loc, msg);
    return -1;
  }
  return t - lane + j;
}

/// The thread whose value thread \p t receives from a shuffle of width 64,
/// which only HIP's wavefronts of 64 lanes have (tlc_device/hip/warp.h):
/// threads t / 64 * 64 .. + 63 are one segment; Idx reads lane b % 64, Up
/// lane - b, Down lane + b, Bfly lane ^ b, and a source outside the segment
/// reads the thread's own lane. The source must exist (below \p n) and be
/// active; -1 (and an error) when it is not. Programs written for
/// wavefronts (tilelang.intrinsics' MFMA emitter) are checked against this.
inline int64_t waveShuffleSource(Status &st, const char *loc, const char *what,
                                 Shuffle mode, int64_t t, int64_t n,
                                 const Lanes<uint8_t> *active, int64_t b) {
  int64_t lane = t % 64;
  int64_t j = mode == Shuffle::Idx    ? (b & 63)
              : mode == Shuffle::Up   ? lane - b
              : mode == Shuffle::Down ? lane + b
                                      : lane ^ b;
  if (j < 0 || j >= 64)
    j = lane;
  int64_t src = t - lane + j;
  if (src >= n || (active && !(*active)[src])) {
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld reads lane %lld of its wavefront of 64, "
                  "which does not take part (past the end of the block, or "
                  "not active)",
                  what, (long long)t, (long long)j);
    st.fail(loc, msg);
    return -1;
  }
  return src;
}

/// The butterfly all-reduce of the CUDA target's warpAllReduce<Op, 32>
/// (tlc_device/cuda/reduce.h): offsets 1, 2, 4, 8, 16, each lane combining
/// its value with lane ^ offset's as `op(own, other)`, in that order, so a
/// float sum rounds as the GPU's does. \p value(l) is lane l's value.
template <typename T, typename Op, typename Get>
inline T warpAllReduce(int lane, Op op, Get value) {
  T v[32];
  for (int l = 0; l < 32; ++l)
    v[l] = value(l);
  for (int offset = 1; offset < 32; offset *= 2) {
    T next[32];
    for (int l = 0; l < 32; ++l)
      next[l] = op(v[l], v[l ^ offset]);
    for (int l = 0; l < 32; ++l)
      v[l] = next[l];
  }
  return v[lane];
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_THREADS_H
