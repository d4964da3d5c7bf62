//===- Status.h - Error values of the CUDA runtime --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime has no LLVM dependency (it is embedded through a C header), so
// it reports errors with this small value type instead of llvm::Error. Every
// failing driver call becomes a Status whose message names the call, the
// driver's error name and description, and what the runtime was doing.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_CUDA_STATUS_H
#define TLC_RUNTIME_CUDA_STATUS_H

#include "tlc/Runtime/CUDA/CUDAHeaders.h"

#include <string>
#include <utility>

namespace tlc::runtime::cuda {

/// Success, or an error with a readable message. Cheap to copy when ok.
class [[nodiscard]] Status {
public:
  /// A success value.
  Status() = default;

  /// An error with \p message; \p code is the driver's CUresult, or -1 when
  /// the error did not come from the driver.
  static Status error(std::string message, CUresult code = -1) {
    Status s;
    s.failed = true;
    s.text = std::move(message);
    s.result = code;
    return s;
  }

  /// True on success.
  bool ok() const { return !failed; }
  /// The message (empty on success).
  const std::string &message() const { return text; }
  /// The driver result code (0 on success, -1 for non-driver errors).
  CUresult code() const { return result; }

  /// Prepends "\p context: " to the message of an error; no-op on success.
  Status &withContext(const std::string &context) {
    if (failed)
      text = context + ": " + text;
    return *this;
  }

private:
  bool failed = false;
  CUresult result = 0;
  std::string text;
};

} // namespace tlc::runtime::cuda

#endif // TLC_RUNTIME_CUDA_STATUS_H
