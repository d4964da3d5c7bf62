//===- initcheck.h - Definedness tracking in simulated kernels --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With TLC_SIM_INITCHECK the `sim` device compiles NAME.cu with clang's
// -fsanitize=kernel-memory (no eager parameter checks, recoverable): every
// value carries a shadow (a set bit is an undefined bit) through registers,
// local arrays, shared and global memory, and the instrumented code asks
// for a report when an undefined value decides a branch, forms an address
// or divides. A value that is merely computed on and discarded (the padding
// rows of a ragged tile, loaded from shared memory no thread wrote) is
// never reported; one that reaches global memory is, by the simulator
// (Worker::access checks the stored bytes' shadow).
//
// kernel-memory's instrumentation calls a run-time library instead of
// using a fixed shadow mapping; this header is that library, compiled
// into the kernel's shared object. Its shadow lives where the simulator
// puts it (tlc_sim_shadow_map, abi.h): the worker's fiber stacks, the
// block's shared memory and the global arena. Loads of any other memory
// (the simulator's tables, constants) read as defined and stores to it are
// dropped. Each fiber has its own context (parameter and return-value
// shadows), switched by the simulator with the fiber.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SIM_INITCHECK_H
#define TLC_SIM_INITCHECK_H

#include "tlc_sim/abi.h"

#include <cstdint>
#include <cstring>

/// The run-time library: never instrumented itself.
#define TLC_SIM_SHADOW_RT                                                      \
  __attribute__((disable_sanitizer_instrumentation,                            \
                 no_sanitize("coverage", "kernel-memory")))

namespace tlc {
namespace sim {

// The run-time library's per-OS-thread state is plain TLS (`__thread`),
// never reached through a C++ TLS wrapper, whose initialisation of the
// unit's other thread_locals is instrumented code that would call back
// into the library. The shadow map, read on every access, is the host's
// (tlc_sim_thread, initial-exec: no call); the rest is this object's.
/// The shadow of this OS thread's `smem`.
static __thread unsigned char sharedShadowBytes[kSharedCapacity];
/// What loads of unchecked memory read (defined), where stores to it go.
constexpr uint64_t kUncheckedBytes = 1 << 16;
inline unsigned char definedShadow[kUncheckedBytes];
inline unsigned char droppedShadow[kUncheckedBytes];
/// A context for code that runs outside a fiber (thread_local
/// initialisers).
static __thread unsigned char spareContext[TLC_SIM_CONTEXT_BYTES];

TLC_SIM_SHADOW_RT inline tlc_sim_shadow_map *shadowMap() {
  tlc_sim_shadow_map &m = tlc_sim_thread.shadow;
  m.sharedBase = reinterpret_cast<uintptr_t>(smem);
  m.sharedShadow = sharedShadowBytes;
  return &m;
}

/// The shadow of \p bytes at \p p, or null when \p p is not checked memory.
TLC_SIM_SHADOW_RT inline unsigned char *shadowAt(const void *p) {
  const tlc_sim_shadow_map &m = tlc_sim_thread.shadow;
  auto a = reinterpret_cast<uintptr_t>(p);
  if (a - m.stackBase < m.stackSize)
    return m.stackShadow + (a - m.stackBase);
  if (a - m.sharedBase < kSharedCapacity && m.sharedShadow)
    return m.sharedShadow + (a - m.sharedBase);
  if (a - m.arenaBase < m.arenaSize && m.arenaShadow)
    return m.arenaShadow + (a - m.arenaBase);
  return nullptr;
}

/// kernel-memory's { shadow, origin } pointer pair. Origins are not kept:
/// they read as 0 and their stores are dropped.
struct ShadowOrigin {
  void *shadow, *origin;
};
TLC_SIM_SHADOW_RT inline ShadowOrigin shadowFor(const void *p, uint64_t n,
                                                bool store) {
  unsigned char *s = shadowAt(p);
  void *unchecked = store ? droppedShadow : definedShadow;
  if (!s || n > kUncheckedBytes)
    return {s ? s : unchecked, store ? droppedShadow : definedShadow};
  return {s, store ? droppedShadow : definedShadow};
}

/// Sets the shadow of \p n bytes at \p p to \p value where it is checked.
TLC_SIM_SHADOW_RT inline void fillShadow(const void *p, uint64_t n, int value) {
  if (unsigned char *s = shadowAt(p))
    std::memset(s, value, n);
}

/// Copies the shadow of \p n bytes from \p src to \p dst.
TLC_SIM_SHADOW_RT inline void copyShadow(void *dst, const void *src,
                                         uint64_t n) {
  unsigned char *d = shadowAt(dst);
  if (!d)
    return;
  if (const unsigned char *s = shadowAt(src))
    std::memmove(d, s, n);
  else
    std::memset(d, 0, n);
}

/// Makes the \p n bytes at \p to undefined when any of the \p m bytes at
/// \p from is, defined otherwise.
TLC_SIM_SHADOW_RT inline void shadeLike(void *to, uint64_t n, const void *from,
                                        uint64_t m) {
  unsigned char *t = shadowAt(to);
  const unsigned char *f = shadowAt(from);
  if (!t)
    return;
  unsigned char any = 0;
  for (uint64_t i = 0; f && i < m; ++i)
    any |= f[i];
  std::memset(t, any ? 0xFF : 0, n);
}

/// Reports a use of an undefined value at \p where when any of the \p n
/// bytes at \p p is undefined.
TLC_SIM_SHADOW_RT inline void checkDefined(const void *p, uint64_t n,
                                           uint64_t where) {
  if (const unsigned char *s = shadowAt(p))
    for (uint64_t i = 0; i < n; ++i)
      if (s[i]) {
        api->uninitUse(where);
        return;
      }
}

} // namespace sim
} // namespace tlc

#define TLC_SIM_SHADOW_ENTRY                                                   \
  extern "C" __attribute__((visibility("hidden"))) TLC_SIM_SHADOW_RT

namespace tlc {
namespace sim {
/// The context outside a fiber: this object's TLS, reached only there.
TLC_SIM_SHADOW_RT __attribute__((noinline)) inline void *spareContextState() {
  return spareContext;
}
} // namespace sim
} // namespace tlc
TLC_SIM_SHADOW_ENTRY void *__msan_get_context_state() {
  // Every instrumented call asks: the fiber's context is one load.
  if (void *c = tlc_sim_thread.shadow.context;
      __builtin_expect(c != nullptr, 1))
    return c;
  return tlc::sim::spareContextState();
}
TLC_SIM_SHADOW_ENTRY void __msan_warning(uint32_t) {
  tlc::sim::api->uninitUse(
      reinterpret_cast<uint64_t>(__builtin_return_address(0)));
}
TLC_SIM_SHADOW_ENTRY void __msan_warning_noreturn(uint32_t) {
  tlc::sim::api->uninitUse(
      reinterpret_cast<uint64_t>(__builtin_return_address(0)));
}
TLC_SIM_SHADOW_ENTRY uint32_t __msan_chain_origin(uint32_t origin) {
  return origin;
}
TLC_SIM_SHADOW_ENTRY void __msan_poison_alloca(void *p, uint64_t n,
                                               const char *) {
  tlc::sim::fillShadow(p, n, 0xFF);
}
TLC_SIM_SHADOW_ENTRY void __msan_unpoison_alloca(void *p, uint64_t n) {
  tlc::sim::fillShadow(p, n, 0);
}
TLC_SIM_SHADOW_ENTRY void __msan_instrument_asm_store(void *p, uint64_t n) {
  tlc::sim::fillShadow(p, n, 0);
}
TLC_SIM_SHADOW_ENTRY void *__msan_memcpy(void *dst, const void *src,
                                         uint64_t n) {
  tlc::sim::copyShadow(dst, src, n);
  return std::memcpy(dst, src, n);
}
TLC_SIM_SHADOW_ENTRY void *__msan_memmove(void *dst, const void *src,
                                          uint64_t n) {
  tlc::sim::copyShadow(dst, src, n);
  return std::memmove(dst, src, n);
}
TLC_SIM_SHADOW_ENTRY void *__msan_memset(void *dst, int c, uint64_t n) {
  tlc::sim::fillShadow(dst, n, 0);
  return std::memset(dst, c, n);
}
#define TLC_SIM_SHADOW_PTRS(N)                                                 \
  TLC_SIM_SHADOW_ENTRY tlc::sim::ShadowOrigin                                  \
      __msan_metadata_ptr_for_load_##N(void *p) {                              \
    return tlc::sim::shadowFor(p, N, false);                                   \
  }                                                                            \
  TLC_SIM_SHADOW_ENTRY tlc::sim::ShadowOrigin                                  \
      __msan_metadata_ptr_for_store_##N(void *p) {                             \
    return tlc::sim::shadowFor(p, N, true);                                    \
  }
TLC_SIM_SHADOW_PTRS(1)
TLC_SIM_SHADOW_PTRS(2)
TLC_SIM_SHADOW_PTRS(4)
TLC_SIM_SHADOW_PTRS(8)
#undef TLC_SIM_SHADOW_PTRS
TLC_SIM_SHADOW_ENTRY tlc::sim::ShadowOrigin
__msan_metadata_ptr_for_load_n(void *p, uint64_t n) {
  return tlc::sim::shadowFor(p, n, false);
}
TLC_SIM_SHADOW_ENTRY tlc::sim::ShadowOrigin
__msan_metadata_ptr_for_store_n(void *p, uint64_t n) {
  return tlc::sim::shadowFor(p, n, true);
}

#endif // TLC_SIM_INITCHECK_H
