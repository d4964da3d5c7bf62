//===- cpu/abi.h - The CPU kernel entry point's argument --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ABI of the entry point `extern "C" int ENTRY(const tlc_cpu_args *)`
/// that `tlc-build --target=cpu` generates for each kernel, and the check of
/// a call's arguments against the kernel (checkArgs).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_ABI_H
#define TLC_DEVICE_CPU_ABI_H

#include <cstddef>
#include <cstdint>
#include <cstdio>

//===----------------------------------------------------------------------===//
// Kernel ABI
//===----------------------------------------------------------------------===//

extern "C" {
/// Version of tlc_cpu_args; bumped when its layout changes.
#define TLC_CPU_ABI_VERSION 1

/// The single argument of a CPU kernel entry point
/// `extern "C" int ENTRY(const tlc_cpu_args *)`. The entry returns 0 on
/// success; otherwise it wrote a message (with the DSL source location) into
/// `error`.
struct tlc_cpu_args {
  /// TLC_CPU_ABI_VERSION of the caller.
  uint32_t abiVersion;
  /// Number of entries of `params` (checked against the kernel's).
  uint32_t numParams;
  /// One per kernel parameter in order: the data pointer of a tensor (row
  /// major, dense), or a pointer to the value of a scalar parameter.
  void *const *params;
  /// Number of entries of `symbols` (checked against the kernel's).
  uint32_t numSymbols;
  /// The values of the kernel's symbols, in manifest order.
  const int64_t *symbols;
  /// Host threads that run blocks concurrently (<= 1: in sequence).
  int32_t numWorkers;
  /// Receives a NUL-terminated error message; may be null.
  char *error;
  /// Capacity of `error` in bytes.
  size_t errorSize;
};
}

namespace tlc {
namespace cpu {

/// Checks the call's ABI version and parameter/symbol counts; false (with
/// a message) when they do not match the kernel's.
inline bool checkArgs(const tlc_cpu_args *args, uint32_t numParams,
                      uint32_t numSymbols) {
  const char *what = nullptr;
  if (!args)
    return false;
  if (args->abiVersion != TLC_CPU_ABI_VERSION)
    what = "ABI version mismatch between runtime and kernel";
  else if (args->numParams != numParams)
    what = "wrong number of parameters";
  else if (args->numSymbols != numSymbols)
    what = "wrong number of symbol values";
  if (!what)
    return true;
  if (args->error && args->errorSize)
    std::snprintf(args->error, args->errorSize, "error: %s", what);
  return false;
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_ABI_H
