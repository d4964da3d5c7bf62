//===- builtins.h - CUDA built-ins on the simulator -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What CUDA C++ provides to device code, for generated NAME.cu compiled as
// host C++ by the `sim` device: the execution-space keywords, vector types,
// threadIdx / blockIdx / blockDim / gridDim, __syncthreads and named
// barriers, warp shuffles and votes (CUDA Programming Guide semantics, warp
// of 32), atomics, the math intrinsics, and the memory-access hooks of
// clang's -fsanitize-coverage=trace-loads,trace-stores through which every
// load and store of the kernel is checked (racecheck, memcheck).
//
// Each CUDA thread of a block is a fiber of the simulator (runtime/lib/sim);
// everything that synchronises goes through the table of tlc_sim/abi.h.
// Functions that report a place take it as their return address, so they
// are never inlined.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SIM_BUILTINS_H
#define TLC_SIM_BUILTINS_H

#include "tlc_sim/abi.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <math.h> // CUDA declares isfinite, isnan, ... in the global namespace
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
/* The cluster shape comes from the manifest (LaunchConfig::cluster). */
#define __cluster_dims__(...)
#define __restrict__ __restrict
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))
// One array per OS thread: the simulator runs a block's threads as fibers
// of one OS thread, so this is per block.
#define __shared__ thread_local

/// Not instrumented by the access hooks (does its own checks).
#define TLC_SIM_UNCHECKED __attribute__((no_sanitize("coverage")))
/// A simulator primitive: its return address is the place it was called.
#define TLC_SIM_PRIMITIVE __attribute__((noinline)) TLC_SIM_UNCHECKED
/// Not instrumented for definedness (reads only the simulator's memory).
#define TLC_SIM_NO_SHADOW __attribute__((no_sanitize("kernel-memory")))
#define TLC_SIM_HERE reinterpret_cast<uint64_t>(__builtin_return_address(0))

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
struct alignas(8) uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(8) int2 {
  int x, y;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(8) float2 {
  float x, y;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}
inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
  return {x, y, z, w};
}
inline int2 make_int2(int x, int y) { return {x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }

namespace tlc {
namespace sim {

/// The simulator's table, installed by bind().
inline const tlc_sim_host_api *api = nullptr;

/// The shared-memory array of the calling OS thread (`smem`), 227 KiB (the
/// largest opt-in dynamic shared memory of sm_90) plus a red zone that
/// memcheck reports accesses to.
constexpr uint32_t kSharedCapacity = 232448 + 4096;

TLC_SIM_UNCHECKED inline const uint3 &index(int which) {
  const tlc_sim_indices *i = api->indices();
  const uint32_t *v = which == 0   ? i->thread
                      : which == 1 ? i->block
                      : which == 2 ? i->blockDim
                                   : i->gridDim;
  return *reinterpret_cast<const uint3 *>(v);
}

/// Linear index of the calling thread in its block.
TLC_SIM_UNCHECKED inline unsigned linearThread() {
  const tlc_sim_indices *i = api->indices();
  return i->thread[0] +
         i->blockDim[0] * (i->thread[1] + i->blockDim[1] * i->thread[2]);
}

/// Called (launch.h) as each simulated thread starts the kernel: the
/// bulk-store groups tma.h keeps per thread start empty on an OS thread that
/// ran another block before. Weak: defined where tma.h is included.
__attribute__((weak)) void bulkStoresBegin();

} // namespace sim
} // namespace tlc

#define threadIdx (::tlc::sim::index(0))
#define blockIdx (::tlc::sim::index(1))
#define blockDim (::tlc::sim::index(2))
#define gridDim (::tlc::sim::index(3))
#ifndef TLC_SIM_WARP_SIZE
#define TLC_SIM_WARP_SIZE 32
#endif
#define warpSize TLC_SIM_WARP_SIZE

// Generated kernels are extern "C" and declare `extern __shared__ ... smem[]`
// in their body, which names this array.
// The bytes right below it are a red zone no code uses, so that an access
// there is a negative index into the first shared buffer (memcheck), not
// some other thread_local (the host's among them).
extern "C" {
thread_local __attribute__((aligned(1024), used)) unsigned char
    tlc_sim_shared_red_zone[TLC_SIM_SHARED_UNDERRUN];
thread_local __attribute__((
    aligned(1024))) unsigned char smem[tlc::sim::kSharedCapacity];
}
namespace tlc {
namespace sim {
/// TLC_SIM_SHARED_UNDERRUN when the red zone lies right below `smem` (the
/// linker placed them in order; set by bind()), else 0: underruns are then
/// not checked.
inline uintptr_t sharedUnderrun = 0;
} // namespace sim
} // namespace tlc

//===----------------------------------------------------------------------===//
// Memory-access hooks (clang -fsanitize-coverage=trace-loads,trace-stores)
//===----------------------------------------------------------------------===//

namespace tlc {
namespace sim {
/// This OS thread's `smem`, for the simulator's helpers: read from the
/// host's state (one load) instead of this object's dynamic TLS (a call).
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline unsigned char *sharedBase() {
  return reinterpret_cast<unsigned char *>(tlc_sim_thread.sharedBase);
}
/// Reports the access to the simulator when it touches checked memory
/// (global buffers, or this block's shared memory and the bytes just below
/// it, where a negative index into its first buffer lands: memcheck).
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline void
hook(const void *p, uint32_t bytes, int kind, void *where) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  if (a - api->checkedBase < api->checkedSize ||
      a - (tlc_sim_thread.sharedBase - sharedUnderrun) <
          kSharedCapacity + sharedUnderrun)
    api->access(p, bytes, kind, -1, reinterpret_cast<uint64_t>(where));
}
} // namespace sim
} // namespace tlc

namespace tlc {
namespace sim {
/// memcheck of an element index into a shared buffer of the generated
/// source (runtime/lib/sim/SharedRedZones.h wraps each `NAME[INDEX]`):
/// reports element \p index of \p name, \p kind 0 a load, 1 a store, 3 an
/// address taken, at the caller's place.
TLC_SIM_PRIMITIVE TLC_SIM_NO_SHADOW inline void
sharedIndexFault(const char *name, int64_t index, uint32_t elemBytes,
                 uint32_t extentBytes, uint32_t offset, int kind) {
  api->sharedIndexFault(name, index, elemBytes, extentBytes, offset, kind,
                        TLC_SIM_HERE);
}
/// \p index, checked to name an element of the buffer \p name whose
/// \p elemBytes-byte elements span \p extentBytes bytes from printed
/// offset \p offset: an index that runs past its end or before its start
/// is reported even where it lands in another buffer. An address taken
/// (\p kind 3) may be the one just past the end. Always inlined: the
/// report's place is the caller's line, not this one.
template <typename I>
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW __attribute__((always_inline)) inline I
sharedIndex(I index, const char *name, uint32_t elemBytes, uint32_t extentBytes,
            uint32_t offset, int kind) {
  const int64_t i = static_cast<int64_t>(index);
  if (i < 0 || uint64_t(i) + (kind == 3 ? 0 : 1) > extentBytes / elemBytes)
    sharedIndexFault(name, i, elemBytes, extentBytes, offset, kind);
  return index;
}
} // namespace sim
} // namespace tlc

#define TLC_SIM_HOOK(N)                                                        \
  extern "C" TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW __attribute__((               \
      visibility("hidden"))) void __sanitizer_cov_load##N(void *p) {           \
    ::tlc::sim::hook(p, N, TLC_SIM_LOAD, __builtin_return_address(0));         \
  }                                                                            \
  extern "C" TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW __attribute__((               \
      visibility("hidden"))) void __sanitizer_cov_store##N(void *p) {          \
    ::tlc::sim::hook(p, N, TLC_SIM_STORE, __builtin_return_address(0));        \
  }
TLC_SIM_HOOK(1)
TLC_SIM_HOOK(2)
TLC_SIM_HOOK(4)
TLC_SIM_HOOK(8)
TLC_SIM_HOOK(16)
#undef TLC_SIM_HOOK

#ifdef TLC_SIM_INITCHECK
#include "tlc_sim/initcheck.h"
#endif

namespace tlc {
namespace sim {
/// \p r, a function of \p x computed by a TLC_SIM_NO_SHADOW helper (a
/// conversion that branches on the bits of \p x where the hardware does
/// not): undefined when \p x is, so an undefined input is reported where
/// the result is used, not at the helper's branches.
template <typename R, typename X> inline R shadeResult(R r, const X &x) {
#ifdef TLC_SIM_INITCHECK
  R out = r;
  shadeLike(&out, sizeof(R), &x, sizeof(X));
  return out;
#else
  (void)x;
  return r;
#endif
}
} // namespace sim
} // namespace tlc

//===----------------------------------------------------------------------===//
// Barriers, traps
//===----------------------------------------------------------------------===//

TLC_SIM_PRIMITIVE inline void __syncthreads() {
  tlc::sim::api->barrier(0, 0, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void __trap() {
  tlc::sim::api->trap("__trap() called", TLC_SIM_HERE);
}
namespace tlc {
namespace sim {
/// A false T.assume: on a GPU undefined behaviour; here the launch ends.
TLC_SIM_PRIMITIVE inline void assumptionFailed() {
  api->trap("a T.assume promise is false (__builtin_assume)", TLC_SIM_HERE);
}
} // namespace sim
} // namespace tlc
/// The generated code's `__builtin_assume(c)` (T.assume) is checked: the
/// simulator reports the promise that does not hold.
#define __builtin_assume(c) ((c) ? (void)0 : ::tlc::sim::assumptionFailed())

TLC_SIM_PRIMITIVE inline void __threadfence() {
  tlc::sim::api->threadFence(TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void __threadfence_block() {}
/// One device on the host: a system-scope fence orders what a device-scope
/// fence does.
TLC_SIM_PRIMITIVE inline void __threadfence_system() {
  tlc::sim::api->threadFence(TLC_SIM_HERE);
}

namespace tlc {
namespace sim {
/// bar.sync \p id, \p numThreads.
TLC_SIM_PRIMITIVE inline void namedBarrier(unsigned id, unsigned numThreads) {
  api->barrier(id, numThreads, TLC_SIM_HERE);
}

/// Loads / stores \p bytes through the checker on behalf of linear thread
/// \p thread (-1: the caller), at place \p where.
/// (Out-of-bounds accesses are reported and not performed: a load gives
/// zeros.)
TLC_SIM_UNCHECKED inline void checkedCopy(void *dst, const void *src,
                                          uint32_t bytes, int32_t thread,
                                          uint64_t where) {
  if (api->access(src, bytes, TLC_SIM_LOAD, thread, where) &&
      api->access(dst, bytes, TLC_SIM_STORE, thread, where))
    std::memcpy(dst, src, bytes);
}
TLC_SIM_UNCHECKED inline void checkedLoad(void *dst, const void *src,
                                          uint32_t bytes, int32_t thread,
                                          uint64_t where) {
  if (api->access(src, bytes, TLC_SIM_LOAD, thread, where))
    std::memcpy(dst, src, bytes);
  else
    std::memset(dst, 0, bytes);
}
/// checkedLoad for the simulator's own models (wgmma), which read the
/// loaded bytes' definedness from the shadow themselves: not instrumented,
/// so it can be inlined into them and copies no shadow.
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline void
checkedLoadUnshadowed(void *dst, const void *src, uint32_t bytes,
                      int32_t thread, uint64_t where) {
  if (api->access(src, bytes, TLC_SIM_LOAD, thread, where))
    std::memcpy(dst, src, bytes);
  else
    std::memset(dst, 0, bytes);
}
} // namespace sim
} // namespace tlc

//===----------------------------------------------------------------------===//
// Warp shuffles and votes
//===----------------------------------------------------------------------===//

namespace tlc {
namespace sim {

/// One lane's record of a shuffle: its value in, the result out.
struct ShuffleLane {
  uint64_t value;
  int operand; // source lane, delta or xor mask
  int width;
  uint64_t result;
};

/// The lane a shuffle of \p mode reads for \p lane, or \p lane itself when
/// the source lies outside the lane's segment of \p width lanes (CUDA
/// Programming Guide, warp shuffle functions).
inline int shuffleSource(int mode, int lane, int operand, int width) {
  int segment = lane & ~(width - 1);
  switch (mode) {
  case 0: // idx
    return segment + (operand & (width - 1));
  case 1: { // up
    int src = lane - operand;
    return src < segment ? lane : src;
  }
  case 2: { // down
    int src = lane + operand;
    return src >= segment + width ? lane : src;
  }
  default: { // xor: earlier groups are reachable, later ones are not
    int src = lane ^ operand;
    return src >= segment + width ? lane : src;
  }
  }
}

template <int Mode>
TLC_SIM_UNCHECKED void shuffleRun(void *const *lanes, uint64_t mask, uint32_t,
                                  uint64_t where) {
  for (int l = 0; l < TLC_SIM_WARP_SIZE; ++l) {
    if (!lanes[l])
      continue;
    auto *me = static_cast<ShuffleLane *>(lanes[l]);
    int src = shuffleSource(Mode, l, me->operand, me->width);
    if (!(mask >> src & 1u)) {
      api->trap("warp shuffle reads a lane outside its mask or an exited "
                "lane (the result is undefined)",
                where);
      return;
    }
    me->result = static_cast<ShuffleLane *>(lanes[src])->value;
  }
}

inline const char *const kShuffleNames[4] = {
    "shfl.sync.idx", "shfl.sync.up", "shfl.sync.down", "shfl.sync.bfly"};

template <int Mode, typename T>
TLC_SIM_UNCHECKED T shuffle(uint64_t mask, T value, int operand, int width,
                            uint64_t where) {
  static_assert(sizeof(T) <= 8, "shuffles move 2, 4 or 8 bytes");
  ShuffleLane me{};
  std::memcpy(&me.value, &value, sizeof(T));
  me.operand = operand;
  me.width = width;
  api->warpCollective(kShuffleNames[Mode], mask, &shuffleRun<Mode>, &me, where);
  T out;
  std::memcpy(&out, &me.result, sizeof(T));
  return out;
}

struct VoteLane {
  int predicate;
  uint64_t ballot;
};
TLC_SIM_UNCHECKED inline void voteRun(void *const *lanes, uint64_t mask,
                                      uint32_t, uint64_t) {
  uint64_t ballot = 0;
  for (int l = 0; l < TLC_SIM_WARP_SIZE; ++l)
    if (lanes[l] && static_cast<VoteLane *>(lanes[l])->predicate)
      ballot |= uint64_t(1) << l;
  for (int l = 0; l < TLC_SIM_WARP_SIZE; ++l)
    if (lanes[l])
      static_cast<VoteLane *>(lanes[l])->ballot = ballot & mask;
}
TLC_SIM_UNCHECKED inline uint64_t ballot(uint64_t mask, int predicate,
                                         uint64_t where) {
  VoteLane me{predicate != 0, 0};
  api->warpCollective("vote.sync", mask, &voteRun, &me, where);
  return me.ballot;
}
TLC_SIM_UNCHECKED inline void syncWarpRun(void *const *, uint64_t, uint32_t,
                                          uint64_t) {}

/// The lanes of the calling warp that the block has.
TLC_SIM_UNCHECKED inline uint64_t warpLanes() {
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned base = linearThread() / TLC_SIM_WARP_SIZE * TLC_SIM_WARP_SIZE;
  unsigned n = threads - base < unsigned(TLC_SIM_WARP_SIZE)
                   ? threads - base
                   : unsigned(TLC_SIM_WARP_SIZE);
  return n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
}
/// __activemask: a collective of the warp's lanes that the simulator
/// completes early, with the lanes waiting at the same place, once every
/// other lane is blocked elsewhere or has exited (the lanes converged
/// there; Worker::resolveActiveMasks).
TLC_SIM_UNCHECKED inline void activeMaskRun(void *const *lanes, uint64_t mask,
                                            uint32_t, uint64_t) {
  for (int l = 0; l < TLC_SIM_WARP_SIZE; ++l)
    if (lanes[l])
      *static_cast<uint64_t *>(lanes[l]) = mask;
}

/// One lane's record of a match: its value in, the matching lanes out.
struct MatchLane {
  uint64_t value;
  uint64_t result;
};
TLC_SIM_UNCHECKED inline void matchRun(void *const *lanes, uint64_t mask,
                                       uint32_t, uint64_t) {
  for (int l = 0; l < TLC_SIM_WARP_SIZE; ++l) {
    if (!lanes[l])
      continue;
    auto *me = static_cast<MatchLane *>(lanes[l]);
    me->result = 0;
    for (int o = 0; o < TLC_SIM_WARP_SIZE; ++o)
      if (lanes[o] && static_cast<MatchLane *>(lanes[o])->value == me->value)
        me->result |= uint64_t(1) << o;
    me->result &= mask;
  }
}
template <typename T>
TLC_SIM_UNCHECKED uint64_t match(uint64_t mask, T value, uint64_t where) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "match on 4 or 8 bytes");
  MatchLane me{};
  std::memcpy(&me.value, &value, sizeof(T));
  api->warpCollective("match.sync", mask, &matchRun, &me, where);
  return me.result;
}

/// __syncthreads_count: the block's threads add their predicates between
/// two barriers (the block runs as fibers of one OS thread, so one
/// thread_local sum serves it), read it after the second and thread 0
/// clears it after a third, before any thread can start the next vote.
struct BlockVote {
  int count = 0;
};
inline thread_local BlockVote blockVote;
TLC_SIM_UNCHECKED inline int syncthreadsCount(int predicate, uint64_t where) {
  api->barrier(0, 0, where);
  blockVote.count += predicate != 0;
  api->barrier(0, 0, where);
  int count = blockVote.count;
  api->barrier(0, 0, where);
  if (linearThread() == 0)
    blockVote.count = 0;
  return count;
}

} // namespace sim
} // namespace tlc

TLC_SIM_PRIMITIVE inline unsigned __activemask() {
  uint64_t mask = 0;
  tlc::sim::api->warpCollective("activemask", tlc::sim::warpLanes(),
                                &tlc::sim::activeMaskRun, &mask, TLC_SIM_HERE);
  return unsigned(mask);
}
template <typename T>
TLC_SIM_PRIMITIVE unsigned __match_any_sync(unsigned mask, T value) {
  return unsigned(tlc::sim::match(mask, value, TLC_SIM_HERE));
}
template <typename T>
TLC_SIM_PRIMITIVE unsigned __match_all_sync(unsigned mask, T value, int *pred) {
  unsigned same = unsigned(tlc::sim::match(mask, value, TLC_SIM_HERE));
  *pred = same == mask;
  return same == mask ? mask : 0u;
}
TLC_SIM_PRIMITIVE inline int __syncthreads_count(int predicate) {
  return tlc::sim::syncthreadsCount(predicate, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline int __syncthreads_and(int predicate) {
  return tlc::sim::syncthreadsCount(predicate, TLC_SIM_HERE) ==
         int(blockDim.x * blockDim.y * blockDim.z);
}
TLC_SIM_PRIMITIVE inline int __syncthreads_or(int predicate) {
  return tlc::sim::syncthreadsCount(predicate, TLC_SIM_HERE) != 0;
}

template <typename T>
TLC_SIM_PRIMITIVE T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  return tlc::sim::shuffle<0>(mask, v, src, width, TLC_SIM_HERE);
}
template <typename T>
TLC_SIM_PRIMITIVE T __shfl_up_sync(unsigned mask, T v, unsigned delta,
                                   int width = 32) {
  return tlc::sim::shuffle<1>(mask, v, int(delta), width, TLC_SIM_HERE);
}
template <typename T>
TLC_SIM_PRIMITIVE T __shfl_down_sync(unsigned mask, T v, unsigned delta,
                                     int width = 32) {
  return tlc::sim::shuffle<2>(mask, v, int(delta), width, TLC_SIM_HERE);
}
template <typename T>
TLC_SIM_PRIMITIVE T __shfl_xor_sync(unsigned mask, T v, int laneMask,
                                    int width = 32) {
  return tlc::sim::shuffle<3>(mask, v, laneMask, width, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline unsigned __ballot_sync(unsigned mask, int pred) {
  return unsigned(tlc::sim::ballot(mask, pred, TLC_SIM_HERE));
}
TLC_SIM_PRIMITIVE inline int __any_sync(unsigned mask, int pred) {
  return tlc::sim::ballot(mask, pred, TLC_SIM_HERE) != 0;
}
TLC_SIM_PRIMITIVE inline int __all_sync(unsigned mask, int pred) {
  return tlc::sim::ballot(mask, pred, TLC_SIM_HERE) == uint64_t(mask);
}
TLC_SIM_PRIMITIVE inline void __syncwarp(unsigned mask = 0xffffffffu) {
  tlc::sim::api->warpCollective("bar.warp.sync", mask, &tlc::sim::syncWarpRun,
                                nullptr, TLC_SIM_HERE);
}

#ifdef TLC_SIM_INITCHECK
/// An atomic's undefined operand is reported (it reaches global memory).
#define TLC_SIM_CHECK_OPERAND(v)                                               \
  ::tlc::sim::checkDefined(&(v), sizeof(v), TLC_SIM_HERE)
#else
#define TLC_SIM_CHECK_OPERAND(v) ((void)0)
#endif

//===----------------------------------------------------------------------===//
// Atomics: checked as atomic accesses (never a race), done with the host's
// atomics (blocks run on several OS threads).
//===----------------------------------------------------------------------===//

namespace tlc {
namespace sim {
/// Applies \p op to *address atomically with a compare-and-swap loop on the
/// bits; returns the old value.
template <typename T, typename Op>
TLC_SIM_UNCHECKED T atomicUpdate(T *address, Op op, uint64_t where) {
  if (!api->access(address, sizeof(T), TLC_SIM_ATOMIC, -1, where))
    return T(); // out of bounds: reported, not performed
  using Bits = std::conditional_t<
      sizeof(T) == 2, uint16_t,
      std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  static_assert(sizeof(T) == sizeof(Bits), "atomics on 2, 4 or 8 bytes");
  Bits *bits = reinterpret_cast<Bits *>(address);
  Bits old = __atomic_load_n(bits, __ATOMIC_RELAXED);
  while (true) {
    T current;
    std::memcpy(&current, &old, sizeof(T));
    T next = op(current);
    Bits nextBits;
    std::memcpy(&nextBits, &next, sizeof(T));
    // The compare is the simulator's, not a use by the kernel: memory no
    // thread wrote (the other nibble of a packed fp4 byte) may be updated
    // atomically, and keeps its definedness bit for bit.
    Bits expected = old;
#ifdef TLC_SIM_INITCHECK
    fillShadow(&expected, sizeof(Bits), 0);
#endif
    if (__atomic_compare_exchange_n(bits, &expected, nextBits, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
#ifdef TLC_SIM_INITCHECK
      copyShadow(bits, &nextBits, sizeof(Bits));
#endif
      api->atomicAcquire(address);
      return current;
    }
    old = __atomic_load_n(bits, __ATOMIC_RELAXED);
  }
}
} // namespace sim
} // namespace tlc

template <typename T> TLC_SIM_PRIMITIVE T atomicAdd(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return T(old + value); }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicSub(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return T(old - value); }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicMax(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return old < value ? value : old; }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicMin(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return value < old ? value : old; }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicExch(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T) { return value; }, TLC_SIM_HERE);
}
template <typename T>
TLC_SIM_PRIMITIVE T atomicCAS(T *address, T compare, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return old == compare ? value : old; },
      TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicAnd(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return T(old & value); }, TLC_SIM_HERE);
}
template <typename T> TLC_SIM_PRIMITIVE T atomicOr(T *address, T value) {
  TLC_SIM_CHECK_OPERAND(value);
  return tlc::sim::atomicUpdate(
      address, [&](T old) { return T(old | value); }, TLC_SIM_HERE);
}

//===----------------------------------------------------------------------===//
// Math
//===----------------------------------------------------------------------===//

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) {
  return a < b ? a : b;
}
inline unsigned long max(unsigned long a, unsigned long b) {
  return a > b ? a : b;
}
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
inline unsigned long long max(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

inline float __int_as_float(int x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
inline int __float_as_int(float x) {
  int i;
  std::memcpy(&i, &x, 4);
  return i;
}
inline float __uint_as_float(unsigned x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
inline unsigned __float_as_uint(float x) {
  unsigned i;
  std::memcpy(&i, &x, 4);
  return i;
}
inline double __longlong_as_double(long long x) {
  double d;
  std::memcpy(&d, &x, 8);
  return d;
}
inline long long __double_as_longlong(double x) {
  long long i;
  std::memcpy(&i, &x, 8);
  return i;
}
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float a, float b) { return powf(a, b); }
inline float __saturatef(float x) {
  return x != x ? 0.0f : fminf(fmaxf(x, 0.0f), 1.0f);
}
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frsqrt_rn(float x) { return float(1.0 / std::sqrt(double(x))); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline double __dmul_rn(double a, double b) { return a * b; }
namespace tlc {
namespace sim {
/// a * b + c for 16-bit float operands held as floats, rounded to odd into
/// a float (an inexact sum takes the neighbour whose last bit is 1): one
/// more rounding to nearest into f16 or bf16 is then __hfma's single
/// rounding. The product is exact in double and the sum exact as s + e.
inline float fmaRoundToOdd(float a, float b, float c) {
  double p = double(a) * double(b);
  double s = p + double(c);
  if (!std::isfinite(s))
    return float(s);
  double bv = s - p;
  double e = (p - (s - bv)) + (double(c) - bv);
  float f = float(s);
  if (!std::isfinite(f))
    return f;
  double r = (s - double(f)) + e;
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (r == 0 || (bits & 1u))
    return f;
  return std::nextafter(f, r > 0 ? INFINITY : -INFINITY);
}
} // namespace sim
} // namespace tlc
namespace tlc {
namespace sim {
/// \p f computed in the host's rounding mode \p mode (FE_TOWARDZERO, ...):
/// the IEEE single-precision result CUDA's __f*_rz/ru/rd give.
template <typename F> inline float roundedAs(int mode, F f) {
  int saved = fegetround();
  fesetround(mode);
  volatile float r = f();
  fesetround(saved);
  return r;
}
} // namespace sim
} // namespace tlc
#define TLC_SIM_ROUNDED(SUFFIX, MODE)                                          \
  inline float __fadd_##SUFFIX(float a, float b) {                             \
    return tlc::sim::roundedAs(MODE, [&] { return a + b; });                   \
  }                                                                            \
  inline float __fsub_##SUFFIX(float a, float b) {                             \
    return tlc::sim::roundedAs(MODE, [&] { return a - b; });                   \
  }                                                                            \
  inline float __fmul_##SUFFIX(float a, float b) {                             \
    return tlc::sim::roundedAs(MODE, [&] { return a * b; });                   \
  }                                                                            \
  inline float __fdiv_##SUFFIX(float a, float b) {                             \
    return tlc::sim::roundedAs(MODE, [&] { return a / b; });                   \
  }                                                                            \
  inline float __fmaf_##SUFFIX(float a, float b, float c) {                    \
    return tlc::sim::roundedAs(MODE, [&] { return fmaf(a, b, c); });           \
  }                                                                            \
  inline float __frcp_##SUFFIX(float x) {                                      \
    return tlc::sim::roundedAs(MODE, [&] { return 1.0f / x; });                \
  }                                                                            \
  inline float __fsqrt_##SUFFIX(float x) {                                     \
    return tlc::sim::roundedAs(MODE, [&] { return sqrtf(x); });                \
  }
TLC_SIM_ROUNDED(rz, FE_TOWARDZERO)
TLC_SIM_ROUNDED(ru, FE_UPWARD)
TLC_SIM_ROUNDED(rd, FE_DOWNWARD)
#undef TLC_SIM_ROUNDED
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x ? __builtin_clz(unsigned(x)) : 32; }
inline int __clzll(long long x) {
  return x ? __builtin_clzll((unsigned long long)x) : 64;
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i)
    r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
/// dp4a.s32.s32 and dp4a.u32.u32 (PTX ISA): \p c plus the dot product of
/// the four bytes of \p a and \p b (byte i is bits 8i..8i+7), each byte
/// sign- or zero-extended; the sum wraps modulo 2^32.
inline int __dp4a(int a, int b, int c) {
  unsigned sum = unsigned(c);
  for (int i = 0; i < 4; ++i)
    sum += unsigned(int(int8_t(uint8_t(unsigned(a) >> 8 * i))) *
                    int(int8_t(uint8_t(unsigned(b) >> 8 * i))));
  return int(sum);
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  unsigned sum = c;
  for (int i = 0; i < 4; ++i)
    sum += (a >> 8 * i & 0xffu) * (b >> 8 * i & 0xffu);
  return sum;
}
inline int __mul24(int a, int b) { return a * b; }
inline int __mulhi(int a, int b) { return int((long long)a * b >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return unsigned((unsigned long long)a * b >> 32);
}

#endif // TLC_SIM_BUILTINS_H
