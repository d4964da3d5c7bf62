//===- launch.h - Entry points of a simulated kernel ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `sim` device compiles, per artifact, a translation unit
//
//   #include "tlc_sim/launch.h"
//   #include "NAME.cu"
//   TLC_SIM_BEGIN_ENTRIES
//   TLC_SIM_ENTRY(kernel_a)
//   ...
//   TLC_SIM_END_ENTRIES
//
// that exports tlc_sim_kernel() (tlc_sim/abi.h). invoke() calls a
// __global__ function with cuLaunchKernel-style arguments, each cast to the
// function's own parameter type.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SIM_LAUNCH_H
#define TLC_SIM_LAUNCH_H

#include "tlc_sim/builtins.h"

namespace tlc {
namespace sim {

template <typename... P, size_t... I>
void invokeWith(void (*f)(P...), void **args, std::index_sequence<I...>) {
  f(*static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(args[I])...);
}
template <typename... P> void invoke(void (*f)(P...), void **args) {
  if (&bulkStoresBegin)
    bulkStoresBegin();
  invokeWith(f, args, std::index_sequence_for<P...>{});
}

TLC_SIM_UNCHECKED inline void bind(const tlc_sim_host_api *table) {
  api = table;
  sharedUnderrun =
      reinterpret_cast<uintptr_t>(smem) -
                  reinterpret_cast<uintptr_t>(tlc_sim_shared_red_zone) ==
              TLC_SIM_SHARED_UNDERRUN
          ? TLC_SIM_SHARED_UNDERRUN
          : 0;
}
TLC_SIM_UNCHECKED inline unsigned char *sharedMemory() { return smem; }

} // namespace sim
} // namespace tlc

#ifdef TLC_SIM_INITCHECK
#define TLC_SIM_SHADOW_MAP &::tlc::sim::shadowMap
#else
#define TLC_SIM_SHADOW_MAP nullptr
#endif

#define TLC_SIM_BEGIN_ENTRIES static const tlc_sim_entry tlcSimEntries[] = {
#define TLC_SIM_ENTRY(name)                                                    \
  {#name, [](void **args) { ::tlc::sim::invoke(&name, args); }},
#define TLC_SIM_END_ENTRIES                                                    \
  }                                                                            \
  ;                                                                            \
  extern "C" __attribute__((visibility("default"))) const tlc_sim_kernel_api * \
  tlc_sim_kernel(void) {                                                       \
    static const tlc_sim_kernel_api kernel = {TLC_SIM_ABI_VERSION,             \
                                              &::tlc::sim::bind,               \
                                              &::tlc::sim::sharedMemory,       \
                                              ::tlc::sim::kSharedCapacity,     \
                                              sizeof(tlcSimEntries) /          \
                                                  sizeof(tlcSimEntries[0]),    \
                                              tlcSimEntries,                   \
                                              TLC_SIM_WARP_SIZE,               \
                                              TLC_SIM_SHADOW_MAP};             \
    return &kernel;                                                            \
  }

#endif // TLC_SIM_LAUNCH_H
