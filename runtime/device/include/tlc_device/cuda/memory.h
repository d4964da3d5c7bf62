//===- memory.h - Vectorised loads and stores -------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Copies of 1, 2, 4, 8 or 16 bytes as a single access (the generated code
// vectorises T.Parallel and T.copy to 16-byte accesses). Pointers must be
// aligned to the access size. The `Pred` variants read zero / skip the
// store when the predicate is false (TileLang's bounds guards).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_MEMORY_H
#define TLC_DEVICE_CUDA_MEMORY_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// The unsigned integer or vector type of exactly \p Bytes bytes.
template <int Bytes> struct VectorOf;
template <> struct VectorOf<1> { using type = uint8_t; };
template <> struct VectorOf<2> { using type = uint16_t; };
template <> struct VectorOf<4> { using type = uint32_t; };
template <> struct VectorOf<8> { using type = uint2; };
template <> struct VectorOf<16> { using type = uint4; };

/// Loads \p Bytes bytes at \p src as one access.
template <int Bytes>
TLC_DEVICE typename VectorOf<Bytes>::type loadVector(const void *src) {
  return *reinterpret_cast<const typename VectorOf<Bytes>::type *>(src);
}

/// Stores \p value (\p Bytes bytes) at \p dst as one access.
template <int Bytes>
TLC_DEVICE void storeVector(void *dst, typename VectorOf<Bytes>::type value) {
  *reinterpret_cast<typename VectorOf<Bytes>::type *>(dst) = value;
}

/// Copies \p Bytes bytes from \p src to \p dst with one load and one store.
template <int Bytes> TLC_DEVICE void copyVector(void *dst, const void *src) {
  storeVector<Bytes>(dst, loadVector<Bytes>(src));
}

/// Like copyVector, but writes zeros when \p pred is false (and then does
/// not read \p src).
template <int Bytes>
TLC_DEVICE void copyVectorPred(void *dst, const void *src, bool pred) {
  typename VectorOf<Bytes>::type value;
  if (pred)
    value = loadVector<Bytes>(src);
  else
    memset(&value, 0, sizeof(value));
  storeVector<Bytes>(dst, value);
}

/// Loads \p Bytes bytes through the non-coherent read-only path
/// (`ld.global.nc`), for inputs the kernel never writes.
template <int Bytes>
TLC_DEVICE typename VectorOf<Bytes>::type loadGlobalReadOnly(const void *src);
template <>
TLC_DEVICE uint4 loadGlobalReadOnly<16>(const void *src) {
  uint4 v;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(src));
  return v;
}
template <>
TLC_DEVICE uint2 loadGlobalReadOnly<8>(const void *src) {
  uint2 v;
  asm volatile("ld.global.nc.v2.u32 {%0, %1}, [%2];"
               : "=r"(v.x), "=r"(v.y)
               : "l"(src));
  return v;
}
template <>
TLC_DEVICE uint32_t loadGlobalReadOnly<4>(const void *src) {
  uint32_t v;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(src));
  return v;
}

/// The PTX cache operators of `ld.global` (TileLang's load_cache_policy):
/// cache at all levels, global level only, streaming, last use, volatile.
enum class LoadCache { CA, CG, CS, LU, CV };
/// The PTX cache operators of `st.global` (store_cache_policy): write
/// back, global level only, streaming, write through.
enum class StoreCache { WB, CG, CS, WT };

/// Loads \p Bytes bytes at the global address \p src with the cache
/// operator \p L (CUDA's __ldca ... __ldcv: ld.global.ca ... .cv).
template <int Bytes, LoadCache L>
TLC_DEVICE typename VectorOf<Bytes>::type loadGlobalCached(const void *src) {
  using T = typename VectorOf<Bytes>::type;
  const T *p = reinterpret_cast<const T *>(src);
  if constexpr (L == LoadCache::CA)
    return __ldca(p);
  else if constexpr (L == LoadCache::CG)
    return __ldcg(p);
  else if constexpr (L == LoadCache::CS)
    return __ldcs(p);
  else if constexpr (L == LoadCache::LU)
    return __ldlu(p);
  else
    return __ldcv(p);
}

/// Stores \p value (\p Bytes bytes) at the global address \p dst with the
/// cache operator \p S (CUDA's __stwb ... __stwt: st.global.wb ... .wt).
template <int Bytes, StoreCache S>
TLC_DEVICE void storeGlobalCached(void *dst,
                                  typename VectorOf<Bytes>::type value) {
  using T = typename VectorOf<Bytes>::type;
  T *p = reinterpret_cast<T *>(dst);
  if constexpr (S == StoreCache::WB)
    __stwb(p, value);
  else if constexpr (S == StoreCache::CG)
    __stcg(p, value);
  else if constexpr (S == StoreCache::CS)
    __stcs(p, value);
  else
    __stwt(p, value);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_MEMORY_H
