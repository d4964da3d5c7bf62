//===- cp_async.h - Asynchronous global->shared copies ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `cp.async` (sm_80+): each thread starts a 4, 8 or 16-byte copy from global
// to shared memory that completes asynchronously. Copies issued since the
// last commit form a group; cpAsyncWait<N>() blocks until at most N groups
// are still in flight (the software pipeline keeps num_stages - 1 in
// flight). A wait only covers the calling thread's copies: follow it with a
// barrier before other threads read the data.
//
// 16-byte copies bypass L1 (`.cg`); 4 and 8-byte copies must go through it
// (`.ca`). The `Zfill` variants copy `srcBytes` (0 .. N) bytes and fill the
// rest of the destination with zeros: out-of-bounds tiles read as zero.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_CP_ASYNC_H
#define TLC_DEVICE_CUDA_CP_ASYNC_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// Starts an asynchronous copy of \p Bytes (4, 8 or 16) bytes from global
/// \p src to shared \p dst; both aligned to \p Bytes.
template <int Bytes> TLC_DEVICE void cpAsync(void *dst, const void *src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "cp.async copies 4, 8 or 16 bytes");
#if TLC_CUDA_ARCH >= 800
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                     sharedAddress(dst)),
                 "l"(src)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(
                     sharedAddress(dst)),
                 "l"(src), "n"(Bytes)
                 : "memory");
#else
  memcpy(dst, src, Bytes);
#endif
}

/// Like cpAsync, but copies only \p srcBytes (0 .. Bytes) bytes and zeroes
/// the rest of the destination; with srcBytes == 0, \p src is not read.
template <int Bytes>
TLC_DEVICE void cpAsyncZfill(void *dst, const void *src, unsigned srcBytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "cp.async copies 4, 8 or 16 bytes");
#if TLC_CUDA_ARCH >= 800
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(
                     sharedAddress(dst)),
                 "l"(src), "r"(srcBytes)
                 : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(
                     sharedAddress(dst)),
                 "l"(src), "n"(Bytes), "r"(srcBytes)
                 : "memory");
#else
  char *d = static_cast<char *>(dst);
  for (unsigned i = 0; i < Bytes; ++i)
    d[i] = i < srcBytes ? static_cast<const char *>(src)[i] : 0;
#endif
}

/// cpAsync when \p pred holds, else a zero fill of the destination (the
/// bounds-guarded form of a tile load).
template <int Bytes>
TLC_DEVICE void cpAsyncPred(void *dst, const void *src, bool pred) {
  cpAsyncZfill<Bytes>(dst, src, pred ? Bytes : 0);
}

/// Closes the group of copies issued since the last commit.
TLC_DEVICE void cpAsyncCommit() {
#if TLC_CUDA_ARCH >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

/// Waits until at most \p N committed groups are still in flight.
template <int N> TLC_DEVICE void cpAsyncWait() {
#if TLC_CUDA_ARCH >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

/// Waits for every copy of the calling thread, committed or not.
TLC_DEVICE void cpAsyncWaitAll() {
#if TLC_CUDA_ARCH >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_CP_ASYNC_H
