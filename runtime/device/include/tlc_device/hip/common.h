//===- common.h - HIP language and wavefront primitives ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What generated HIP C++ uses of the language, without ROCm's headers (the
// source is compiled with -nogpuinc): the execution-space keywords,
// threadIdx / blockIdx / blockDim / gridDim (work-item and work-group ids;
// sizes from the HSA dispatch packet), __syncthreads (workgroup fences
// around s_barrier), the 16-bit float types, the math functions the
// printer calls (ROCm's ocml, linked as bitcode) and the wavefront-64
// primitives: lane id and a butterfly shuffle through ds_bpermute_b32.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_COMMON_H
#define TLC_DEVICE_HIP_COMMON_H

#include <stdint.h>

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __forceinline__ inline __attribute__((always_inline))
/// __launch_bounds__(threads[, min blocks per CU]): the work-group size,
/// and for a minimum of b blocks of w wavefronts per CU (4 SIMDs) at least
/// ceil(b w / 4) wavefronts per SIMD (at most 8).
#define __launch_bounds__(...)                                                 \
  TLC_HIP_LAUNCH_BOUNDS_PICK(__VA_ARGS__, TLC_HIP_LAUNCH_BOUNDS2,              \
                             TLC_HIP_LAUNCH_BOUNDS1)(__VA_ARGS__)
#define TLC_HIP_LAUNCH_BOUNDS_PICK(a, b, name, ...) name
#define TLC_HIP_LAUNCH_BOUNDS1(n)                                              \
  __attribute__((amdgpu_flat_work_group_size(1, n)))
#define TLC_HIP_LAUNCH_BOUNDS2(n, blocks)                                      \
  __attribute__((amdgpu_flat_work_group_size(1, n),                            \
                 amdgpu_waves_per_eu(TLC_HIP_WAVES_PER_EU(n, blocks))))
#define TLC_HIP_WAVES_PER_EU(n, blocks)                                        \
  ((blocks) * (((n) + 63) / 64) + 3) / 4 < 1   ? 1                            \
  : ((blocks) * (((n) + 63) / 64) + 3) / 4 > 8 ? 8                            \
                                               : ((blocks) * (((n) + 63) / 64) + 3) / 4
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))

#define TLC_DEVICE __device__ __forceinline__
/// LDS pointers as the AMDGPU builtins that take one want them (the sim
/// device's common.h defines this empty: its LDS is host memory).
#define TLC_HIP_LDS_SPACE __attribute__((address_space(3)))
/// TileLang's name for the same qualifiers, for source the program imports
/// (T.import_source, T.Kernel(prelude=...)).
#ifndef TL_DEVICE
#define TL_DEVICE __forceinline__ __device__
#endif

struct uint3 {
  unsigned x, y, z;
};
struct alignas(8) uint2 {
  unsigned x, y;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};

namespace tlc {
namespace hip {

TLC_DEVICE uint3 threadIndex() {
  return {__builtin_amdgcn_workitem_id_x(), __builtin_amdgcn_workitem_id_y(),
          __builtin_amdgcn_workitem_id_z()};
}
TLC_DEVICE uint3 blockIndex() {
  return {__builtin_amdgcn_workgroup_id_x(), __builtin_amdgcn_workgroup_id_y(),
          __builtin_amdgcn_workgroup_id_z()};
}
/// The HSA kernel dispatch packet: work-group sizes (uint16) at bytes 4, 6,
/// 8; grid sizes in work-items (uint32) at bytes 12, 16, 20.
TLC_DEVICE uint3 blockSize() {
  const uint16_t *p =
      reinterpret_cast<const uint16_t *>(__builtin_amdgcn_dispatch_ptr());
  return {p[2], p[3], p[4]};
}
TLC_DEVICE uint3 gridSize() {
  const uint32_t *p =
      reinterpret_cast<const uint32_t *>(__builtin_amdgcn_dispatch_ptr());
  uint3 b = blockSize();
  return {p[3] / b.x, p[4] / b.y, p[5] / b.z};
}

} // namespace hip
} // namespace tlc

#define threadIdx (::tlc::hip::threadIndex())
#define blockIdx (::tlc::hip::blockIndex())
#define blockDim (::tlc::hip::blockSize())
#define gridDim (::tlc::hip::gridSize())
#define warpSize 64

/// Every thread of the block arrives; LDS and global writes before it are
/// visible to the block after it.
TLC_DEVICE void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
TLC_DEVICE void __trap() { __builtin_trap(); }
/// HIP's memory fences (the names CUDA shares, which programs call through
/// T.call_extern): sequentially consistent at workgroup, agent (device) and
/// system scope.
TLC_DEVICE void __threadfence_block() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
TLC_DEVICE void __threadfence() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
}
TLC_DEVICE void __threadfence_system() {
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
}

/// Device printf (T.print): clang lowers each call to ROCm's hostcall
/// printf (__ockl_printf_begin / _append_args / _append_string_n of
/// ockl.bc, linked by the HIP target); the HIP runtime's host thread prints
/// the buffer.
extern "C" __device__ int printf(const char *format, ...);

// Math: ROCm's ocml (f32 and f64), and the classification builtins.
#define TLC_HIP_MATH1(name)                                                    \
  extern "C" __device__ float __ocml_##name##_f32(float);                      \
  extern "C" __device__ double __ocml_##name##_f64(double);                    \
  TLC_DEVICE float name##f(float x) { return __ocml_##name##_f32(x); }         \
  TLC_DEVICE double name(double x) { return __ocml_##name##_f64(x); }
#define TLC_HIP_MATH2(name)                                                    \
  extern "C" __device__ float __ocml_##name##_f32(float, float);               \
  extern "C" __device__ double __ocml_##name##_f64(double, double);            \
  TLC_DEVICE float name##f(float x, float y) {                                 \
    return __ocml_##name##_f32(x, y);                                          \
  }                                                                            \
  TLC_DEVICE double name(double x, double y) {                                 \
    return __ocml_##name##_f64(x, y);                                          \
  }
TLC_HIP_MATH1(exp)
TLC_HIP_MATH1(exp2)
TLC_HIP_MATH1(log)
TLC_HIP_MATH1(log2)
TLC_HIP_MATH1(sqrt)
TLC_HIP_MATH1(rsqrt)
TLC_HIP_MATH1(tanh)
TLC_HIP_MATH1(fabs)
TLC_HIP_MATH1(floor)
TLC_HIP_MATH1(ceil)
TLC_HIP_MATH1(erf)
TLC_HIP_MATH1(sin)
TLC_HIP_MATH1(cos)
TLC_HIP_MATH1(tan)
TLC_HIP_MATH1(sinh)
TLC_HIP_MATH1(cosh)
TLC_HIP_MATH1(atan)
TLC_HIP_MATH1(rint)
TLC_HIP_MATH1(trunc)
TLC_HIP_MATH2(pow)
TLC_HIP_MATH2(fmod)
TLC_HIP_MATH2(fmax)
TLC_HIP_MATH2(fmin)
#undef TLC_HIP_MATH1
#undef TLC_HIP_MATH2
extern "C" __device__ float __ocml_fma_f32(float, float, float);
extern "C" __device__ double __ocml_fma_f64(double, double, double);
TLC_DEVICE float fmaf(float a, float b, float c) {
  return __ocml_fma_f32(a, b, c);
}
TLC_DEVICE double fma(double a, double b, double c) {
  return __ocml_fma_f64(a, b, c);
}
// The fast-math spellings of the printer: the native instructions.
TLC_DEVICE float __expf(float x) {
  return __builtin_amdgcn_exp2f(x * 1.4426950408889634f);
}
TLC_DEVICE float __logf(float x) {
  return __builtin_amdgcn_logf(x) * 0.6931471805599453f;
}
TLC_DEVICE float __log2f(float x) { return __builtin_amdgcn_logf(x); }
TLC_DEVICE float __sinf(float x) {
  return __builtin_amdgcn_sinf(x * 0.15915494309189535f);
}
TLC_DEVICE float __cosf(float x) {
  return __builtin_amdgcn_cosf(x * 0.15915494309189535f);
}
TLC_DEVICE float __tanf(float x) { return __sinf(x) / __cosf(x); }
TLC_DEVICE float __exp10f(float x) {
  return __builtin_amdgcn_exp2f(x * 3.321928094887362f);
}
TLC_DEVICE float __log10f(float x) {
  return __builtin_amdgcn_logf(x) * 0.3010299956639812f;
}
/// 1 / x rounded to nearest (f32 division is correctly rounded here).
TLC_DEVICE float __frcp_rn(float x) { return 1.0f / x; }
TLC_DEVICE float __powf(float a, float b) {
  return __builtin_amdgcn_exp2f(b * __builtin_amdgcn_logf(a));
}
TLC_DEVICE float __fdividef(float a, float b) {
  return a * __builtin_amdgcn_rcpf(b);
}
template <typename T> TLC_DEVICE bool isnan(T x) { return __builtin_isnan(x); }
template <typename T> TLC_DEVICE bool isinf(T x) { return __builtin_isinf(x); }
template <typename T> TLC_DEVICE bool isfinite(T x) {
  return __builtin_isfinite(x);
}
TLC_DEVICE int min(int a, int b) { return a < b ? a : b; }
TLC_DEVICE int max(int a, int b) { return a > b ? a : b; }
TLC_DEVICE unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
TLC_DEVICE unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
// int64_t and uint64_t are long and unsigned long: without their own
// overloads a 64-bit min/max is ambiguous (CUDA declares them all).
TLC_DEVICE long min(long a, long b) { return a < b ? a : b; }
TLC_DEVICE long max(long a, long b) { return a > b ? a : b; }
TLC_DEVICE unsigned long min(unsigned long a, unsigned long b) {
  return a < b ? a : b;
}
TLC_DEVICE unsigned long max(unsigned long a, unsigned long b) {
  return a > b ? a : b;
}
TLC_DEVICE long long min(long long a, long long b) { return a < b ? a : b; }
TLC_DEVICE long long max(long long a, long long b) { return a > b ? a : b; }
TLC_DEVICE unsigned long long min(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
TLC_DEVICE unsigned long long max(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}
TLC_DEVICE int abs(int a) { return a < 0 ? -a : a; }
TLC_DEVICE long long abs(long long a) { return a < 0 ? -a : a; }
TLC_DEVICE float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
TLC_DEVICE int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
TLC_DEVICE float __uint_as_float(unsigned x) {
  return __builtin_bit_cast(float, x);
}
TLC_DEVICE unsigned __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned, x);
}

namespace tlc {
namespace hip {

/// IEEE binary16 and bfloat16 storage (bfloat16 as its bits).
using half = _Float16;
struct bfloat16 {
  uint16_t bits;
};
/// gfx950's 8-value bf16 MFMA operand (the sim device's common.h holds the
/// same bits as shorts: the host has no bf16 vector registers).
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));

template <typename To, typename From> TLC_DEVICE To bitCast(const From &value) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  return __builtin_bit_cast(To, value);
}

/// 2^x on the native v_exp_f32 (fast_math; about 1 ulp, like ex2.approx).
TLC_DEVICE float fastExp2(float x) { return __builtin_amdgcn_exp2f(x); }

/// This thread's lane in its wavefront of 64.
TLC_DEVICE unsigned laneId() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

/// The 32-bit value of lane `laneId() ^ offset` of the wavefront
/// (ds_bpermute_b32 addresses lanes in bytes). Lane bit 4 alone, which no
/// GFX9 DPP control crosses (rows are 16 lanes), is ds_swizzle_b32 in
/// bit-mask mode within each 32 lanes: offset = xor_mask << 10 | or_mask
/// << 5 | and_mask (CDNA3 ISA, DS_SWIZZLE_B32; bit 15 clear), here xor 16,
/// and 31: no lane index or address to compute. Bit 5 crosses the halves,
/// which only ds_bpermute does on gfx90a/gfx942.
TLC_DEVICE uint32_t shuffleXor32(uint32_t value, unsigned offset) {
  if (offset == 16u)
    return uint32_t(__builtin_amdgcn_ds_swizzle(int(value), 0x401F));
  int src = int((laneId() ^ offset) & 63u);
  return uint32_t(__builtin_amdgcn_ds_bpermute(src << 2, int(value)));
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_COMMON_H
