//===- cp_async.h - Asynchronous global->shared copies (sim) ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cp.async on the simulator (PTX ISA, "cp.async", "cp.async.commit_group",
// "cp.async.wait_group"): a copy is queued on the issuing thread and is
// performed, source read and destination written, only when a
// cp.async.wait_group / wait_all of that thread covers its group; until
// then any access to its destination is reported. cp-size 4, 8 or 16;
// src-size bytes are copied and the rest of the destination zero-filled.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_CP_ASYNC_H
#define TLC_DEVICE_CUDA_CP_ASYNC_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

template <int Bytes>
TLC_SIM_PRIMITIVE void cpAsync(void *dst, const void *src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "cp.async copies 4, 8 or 16 bytes");
  sim::api->cpAsync(dst, src, Bytes, Bytes, TLC_SIM_HERE);
}

template <int Bytes>
TLC_SIM_PRIMITIVE void cpAsyncZfill(void *dst, const void *src,
                                    unsigned srcBytes) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "cp.async copies 4, 8 or 16 bytes");
  sim::api->cpAsync(dst, src, Bytes, srcBytes, TLC_SIM_HERE);
}

template <int Bytes>
TLC_SIM_PRIMITIVE void cpAsyncPred(void *dst, const void *src, bool pred) {
  sim::api->cpAsync(dst, src, Bytes, pred ? Bytes : 0, TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline void cpAsyncCommit() {
  sim::api->cpAsyncCommit(TLC_SIM_HERE);
}

template <int N> TLC_SIM_PRIMITIVE void cpAsyncWait() {
  static_assert(N >= 0, "cp.async.wait_group takes a count >= 0");
  sim::api->cpAsyncWait(N, TLC_SIM_HERE);
}

TLC_SIM_PRIMITIVE inline void cpAsyncWaitAll() {
  sim::api->cpAsyncWait(-1, TLC_SIM_HERE);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_CP_ASYNC_H
