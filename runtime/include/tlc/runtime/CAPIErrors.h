//===- CAPIErrors.h - Errors and handles of tlc's C APIs --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the runtime's C APIs (tlc_cuda.h, tlc_hip.h) share: each failing
// function records a message for the calling thread (its library's
// `*_last_error()` returns it) and returns a non-zero status, and each
// constructor hands out a new handle or null. Header-only and free of LLVM,
// so that libtlc_cuda.so stays small; every library that includes it has
// its own message per thread.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_CAPIERRORS_H
#define TLC_RUNTIME_CAPIERRORS_H

#include <memory>
#include <string>
#include <utility>

namespace tlc::runtime::capi {

/// The calling thread's last error message ("" before any).
inline std::string &lastError() {
  static thread_local std::string message;
  return message;
}

/// Records \p message as the thread's last error; returns \p code, or -1
/// when it is 0.
inline int fail(std::string message, int code = -1) {
  lastError() = std::move(message);
  return code ? code : -1;
}

/// The failure of \p function called with a null handle or output.
inline int nullArgument(const char *function) {
  return fail(std::string(function) + ": null argument");
}

/// Creates a handle, fills it with \p init (returning 0 or a failure's
/// status) and stores it in \p out; on failure \p out is null and the
/// handle deleted.
template <typename Handle, typename Init>
int createHandle(Handle **out, Init init) {
  auto handle = std::make_unique<Handle>();
  if (int r = init(*handle)) {
    *out = nullptr;
    return r;
  }
  *out = handle.release();
  return 0;
}

} // namespace tlc::runtime::capi

#endif // TLC_RUNTIME_CAPIERRORS_H
