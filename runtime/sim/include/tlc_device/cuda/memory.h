//===- memory.h - Vector loads and stores (sim) -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One access of 1..16 bytes, checked as one access (memcheck, racecheck)
// and required to be aligned to its size, like ld/st.v* on the GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_MEMORY_H
#define TLC_DEVICE_CUDA_MEMORY_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

template <int Bytes> struct VectorOf;
template <> struct VectorOf<1> { using type = uint8_t; };
template <> struct VectorOf<2> { using type = uint16_t; };
template <> struct VectorOf<4> { using type = uint32_t; };
template <> struct VectorOf<8> { using type = uint2; };
template <> struct VectorOf<16> { using type = uint4; };

namespace simimpl {
TLC_SIM_UNCHECKED inline void checkAligned(const void *p, unsigned bytes,
                                           uint64_t where) {
  if (reinterpret_cast<uintptr_t>(p) % bytes)
    sim::api->trap("misaligned vector access (the address is not a multiple "
                   "of the access size)",
                   where);
}
} // namespace simimpl

template <int Bytes>
TLC_SIM_PRIMITIVE typename VectorOf<Bytes>::type loadVector(const void *src) {
  simimpl::checkAligned(src, Bytes, TLC_SIM_HERE);
  typename VectorOf<Bytes>::type v;
  sim::checkedLoad(&v, src, Bytes, -1, TLC_SIM_HERE);
  return v;
}

template <int Bytes>
TLC_SIM_PRIMITIVE void storeVector(void *dst,
                                   typename VectorOf<Bytes>::type value) {
  simimpl::checkAligned(dst, Bytes, TLC_SIM_HERE);
  sim::checkedCopy(dst, &value, Bytes, -1, TLC_SIM_HERE);
}

template <int Bytes>
TLC_SIM_PRIMITIVE void copyVector(void *dst, const void *src) {
  simimpl::checkAligned(src, Bytes, TLC_SIM_HERE);
  simimpl::checkAligned(dst, Bytes, TLC_SIM_HERE);
  typename VectorOf<Bytes>::type v;
  sim::checkedLoad(&v, src, Bytes, -1, TLC_SIM_HERE);
  sim::checkedCopy(dst, &v, Bytes, -1, TLC_SIM_HERE);
}

template <int Bytes>
TLC_SIM_PRIMITIVE void copyVectorPred(void *dst, const void *src, bool pred) {
  typename VectorOf<Bytes>::type v;
  std::memset(&v, 0, sizeof(v));
  if (pred) {
    simimpl::checkAligned(src, Bytes, TLC_SIM_HERE);
    sim::checkedLoad(&v, src, Bytes, -1, TLC_SIM_HERE);
  }
  simimpl::checkAligned(dst, Bytes, TLC_SIM_HERE);
  sim::checkedCopy(dst, &v, Bytes, -1, TLC_SIM_HERE);
}

/// ld.global.nc: the same as a load on the simulator.
template <int Bytes>
TLC_SIM_PRIMITIVE typename VectorOf<Bytes>::type
loadGlobalReadOnly(const void *src) {
  simimpl::checkAligned(src, Bytes, TLC_SIM_HERE);
  typename VectorOf<Bytes>::type v;
  sim::checkedLoad(&v, src, Bytes, -1, TLC_SIM_HERE);
  return v;
}

/// The PTX cache operators of ld.global / st.global (TileLang's copy
/// cache policies): hints only, so plain accesses on the simulator.
enum class LoadCache { CA, CG, CS, LU, CV };
enum class StoreCache { WB, CG, CS, WT };

template <int Bytes, LoadCache L>
TLC_SIM_PRIMITIVE typename VectorOf<Bytes>::type
loadGlobalCached(const void *src) {
  return loadVector<Bytes>(src);
}

template <int Bytes, StoreCache S>
TLC_SIM_PRIMITIVE void storeGlobalCached(void *dst,
                                         typename VectorOf<Bytes>::type value) {
  storeVector<Bytes>(dst, value);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_MEMORY_H
