//===- mma.h - Warp-level tensor core products (mma.sync) -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `mma.sync.aligned` D = A * B + C for one warp, A row-major (M x K), B
// column-major (K x N), the sm_80 shapes tlc's T.gemm lowering uses. With
// lane l, g = l / 4 and t = l % 4, the fragments are (PTX ISA):
//
//   A  16 x K   a[0]: row g,   k 0..K/2-1 part;  a[1]: row g+8, same k;
//               a[2]: row g,   k K/2.. part;     a[3]: row g+8, k K/2..
//               (16-bit: a[r] holds k = 2t, 2t+1 (+8 for r >= 2);
//                 8-bit: a[r] holds k = 4t .. 4t+3 (+16 for r >= 2))
//   B  K x 8    b[0]: column g, k 2t,2t+1 (16-bit) / 4t..4t+3 (8-bit);
//               b[1]: the same + K/2
//   C  16 x 8   c[0], c[1]: row g, columns 2t, 2t+1; c[2], c[3]: row g+8
//
// ldmatrix (ldmatrix.h) produces the A and B fragments from shared memory.
//
// 32- and 64-bit operands hold one element per register:
//
//   m16n8k8 .tf32  A 16 x 8: a[0] (g, t), a[1] (g+8, t), a[2] (g, t+4),
//                  a[3] (g+8, t+4); B 8 x 8: b[0] (t, g), b[1] (t+4, g);
//                  C as above. The registers hold f32 bit patterns; the
//                  tensor cores read them as tf32 (the 13 low mantissa bits
//                  do not take part).
//   m8n8k4 .f64    A 8 x 4: a (g, t); B 4 x 8: b (t, g); C 8 x 8: c[0],
//                  c[1] (g, 2t), (g, 2t+1). Two of them, one per 8 rows,
//                  make the 16 x 8 x 4 step tlc's T.gemm uses, whose C
//                  registers are those of the 16 x 8 shapes above.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_MMA_H
#define TLC_DEVICE_CUDA_MMA_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// m16n8k16, f16 inputs, f32 accumulator: d = a * b + c (d may alias c).
TLC_DEVICE void mmaM16N8K16F16F32(float *d, const uint32_t *a,
                                  const uint32_t *b, const float *c) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

/// m16n8k16, bf16 inputs, f32 accumulator.
TLC_DEVICE void mmaM16N8K16BF16F32(float *d, const uint32_t *a,
                                   const uint32_t *b, const float *c) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

/// m16n8k16, f16 inputs, f16 accumulator: c/d are 2 registers of half2
/// (d[0]: row g, columns 2t, 2t+1; d[1]: row g+8).
TLC_DEVICE void mmaM16N8K16F16F16(uint32_t *d, const uint32_t *a,
                                  const uint32_t *b, const uint32_t *c) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
               "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
               : "=r"(d[0]), "=r"(d[1])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "r"(c[0]), "r"(c[1]));
}

/// m16n8k16, f16 inputs, f16 accumulator held as four halves in place
/// (c[0], c[1]: row g; c[2], c[3]: row g+8).
TLC_DEVICE void mmaM16N8K16F16Acc(half *c, const uint32_t *a,
                                  const uint32_t *b) {
  uint32_t acc[2];
  memcpy(acc, c, sizeof(acc));
  mmaM16N8K16F16F16(acc, a, b, acc);
  memcpy(c, acc, sizeof(acc));
}

/// m16n8k8, tf32 inputs (f32 bit patterns), f32 accumulator.
TLC_DEVICE void mmaM16N8K8TF32F32(float *d, const uint32_t *a,
                                  const uint32_t *b, const float *c) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

/// m8n8k4, f64 inputs and accumulator (sm_80+).
TLC_DEVICE void mmaM8N8K4F64(double *d, double a, double b, const double *c) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
               "{%0, %1}, {%2}, {%3}, {%4, %5};"
               : "=d"(d[0]), "=d"(d[1])
               : "d"(a), "d"(b), "d"(c[0]), "d"(c[1]));
}

/// The 16 x 8 x 4 f64 step in place: rows g (c[0], c[1]) with a[0], rows
/// g+8 (c[2], c[3]) with a[1], both times with b[0].
TLC_DEVICE void mmaM16N8K4F64(double *c, const double *a, const double *b) {
  mmaM8N8K4F64(c, a[0], b[0], c);
  mmaM8N8K4F64(c + 2, a[1], b[0], c + 2);
}

/// m16n8k32, unsigned 8-bit inputs, s32 accumulator.
TLC_DEVICE void mmaM16N8K32U8S32(int *d, const uint32_t *a, const uint32_t *b,
                                 const int *c) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
}

/// m16n8k32, signed 8-bit inputs, s32 accumulator.
TLC_DEVICE void mmaM16N8K32S8S32(int *d, const uint32_t *a, const uint32_t *b,
                                 const int *c) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
}

#if TLC_CUDA_ARCH >= 890 || TLC_CUDA_ARCH == 0
/// m16n8k32, fp8 e4m3 inputs, f32 accumulator (sm_89+).
TLC_DEVICE void mmaM16N8K32E4M3F32(float *d, const uint32_t *a,
                                   const uint32_t *b, const float *c) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

/// m16n8k32, fp8 e5m2 inputs, f32 accumulator (sm_89+).
TLC_DEVICE void mmaM16N8K32E5M2F32(float *d, const uint32_t *a,
                                   const uint32_t *b, const float *c) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}
#endif

/// m16n8k16 with f32 accumulation in place (c += a * b), selected by the
/// 16-bit input type: `half` or `bfloat16`.
template <typename AB>
TLC_DEVICE void mmaM16N8K16(float *c, const uint32_t *a, const uint32_t *b);
template <>
TLC_DEVICE void mmaM16N8K16<half>(float *c, const uint32_t *a,
                                  const uint32_t *b) {
  mmaM16N8K16F16F32(c, a, b, c);
}
template <>
TLC_DEVICE void mmaM16N8K16<bfloat16>(float *c, const uint32_t *a,
                                      const uint32_t *b) {
  mmaM16N8K16BF16F32(c, a, b, c);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_MMA_H
