//===- cpu/device_library.h - CUDA functions by name on CPU -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CUDA device-library functions that programs call by name (T.call_extern,
/// T.import_source text), for the CPU target: memory fences and the
/// fast-math intrinsics.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_DEVICE_LIBRARY_H
#define TLC_DEVICE_CPU_DEVICE_LIBRARY_H

#include <atomic>
#include <cmath>

// CUDA device-library functions that programs call by name (T.call_extern,
// T.import_source text), for the CPU target. Fences: the threads of a block
// run in turn on one host thread, so a block-scope fence only has to keep
// the compiler from moving accesses across it; blocks may run on several
// host threads, so device and system scope are a full fence. The fast-math
// functions compute as the IEEE ones (the CPU target keeps IEEE math).
inline void __threadfence_block() {
  std::atomic_signal_fence(std::memory_order_seq_cst);
}
inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_system() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float a, float b) { return std::pow(a, b); }
inline float __fdividef(float a, float b) { return a / b; }

#endif // TLC_DEVICE_CPU_DEVICE_LIBRARY_H
