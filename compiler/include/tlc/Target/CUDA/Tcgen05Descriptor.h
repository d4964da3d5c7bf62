//===- Tcgen05Descriptor.h - tcgen05.mma descriptors ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The two descriptors Blackwell's `tcgen05.mma` reads (PTX ISA, "Tensor
// Memory / tcgen05 Matrix Descriptors"):
//
// The 64-bit shared memory descriptor ("Shared Memory Descriptor"):
//
//   bits  0-13  start address >> 4
//   bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4
//   bits 46-48  the fixed value 0b001
//   bits 49-51  matrix base offset (0: atoms aligned to their pattern)
//   bit  52     leading dimension mode (0: relative byte offset)
//   bits 61-63  swizzle: 0 none, 1 128-byte with 32-byte atomicity,
//               2 128-byte, 4 64-byte, 6 32-byte
//
// The operand layouts it describes are wgmma's ("Shared Memory Matrix
// Layout"), so tlc's swizzled panels (WgmmaDescriptor.h) serve both.
//
// The 32-bit instruction descriptor of .kind::f16 / ::tf32 / ::f8f6f4 /
// ::i8 ("Instruction descriptor format"):
//
//   bits  0-1   sparsity selector        bit  2  sparsity (0 dense)
//   bit   3     saturate (i8 only)        bits 4-5 D type: F16 0, F32 1, S32 2
//   bits  7-9   A type, bits 10-12 B type: f16 F16 0, BF16 1; tf32 TF32 2;
//               f8f6f4 E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5; i8 U8 0, S8 1
//   bit  13/14  negate A / B              bit 15/16 transpose A / B
//               (1: MN-major, 0: K-major)
//   bits 17-22  N >> 3                    bits 24-28 M >> 4
//   bits 30-31  maximum B-reuse shift (.ws only; 0)
//
// The instruction descriptor of the block-scaled .kind::mxf8f6f4 (its own
// table): no D type (f32); bits 4-5 B scale factor id, bits 7-12 and
// 13-22 as above, bit 23 scale type (UE4M3 0, UE8M0 1), bits 24-28
// M >> 4, bits 29-30 A scale factor id, bit 31 K (0: K = 32).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CUDA_TCGEN05DESCRIPTOR_H
#define TLC_TARGET_CUDA_TCGEN05DESCRIPTOR_H

#include "tlc/Target/CUDA/WgmmaDescriptor.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace tlc {
namespace target {

/// The `.kind` of a tcgen05.mma (which element types it multiplies).
enum class Tcgen05Kind : uint8_t { F16, TF32, F8F6F4, I8 };

/// Element types of the instruction descriptor's type fields.
enum class Tcgen05Type : uint8_t {
  F16,
  BF16,
  TF32,
  E4M3,
  E5M2,
  E2M3,
  E3M2,
  E2M1,
  U8,
  S8,
  F32,
  S32,
};

/// The spelling of \p kind in the instruction (`f16`, `tf32`, ...).
const char *getTcgen05KindName(Tcgen05Kind kind);

/// The kind that multiplies \p ab (an error for types no kind takes).
llvm::Expected<Tcgen05Kind> getTcgen05Kind(Tcgen05Type ab);

/// The K extent of one instruction of \p kind: 32 bytes of operand (16
/// for 16-bit types, 8 for tf32, 32 for 8-bit ones).
int64_t getTcgen05InstrK(Tcgen05Kind kind);

/// What one tcgen05.mma computes (dense, no negation, no saturation).
struct Tcgen05Instr {
  Tcgen05Type a = Tcgen05Type::BF16, b = Tcgen05Type::BF16;
  Tcgen05Type d = Tcgen05Type::F32;
  int64_t m = 128, n = 256;
  /// The operand is MN-major (the descriptor's "transpose" bit).
  bool mnMajorA = false, mnMajorB = false;
  /// Blocks of the CTA pair computing it (cta_group::1 or ::2).
  int ctaGroup = 1;
};

/// Encodes the instruction descriptor of \p instr, or an error naming the
/// field that does not fit (types the kind lacks, an M or N the
/// instruction has no shape for: cta_group::1 M = 64 with N a multiple of
/// 8 in [8, 256] or M = 128 with N a multiple of 16 in [16, 256];
/// cta_group::2 M = 128 with N a multiple of 32 in [32, 256] or M = 256
/// with N a multiple of 16 in [16, 256]).
llvm::Expected<uint32_t>
encodeTcgen05InstrDescriptor(const Tcgen05Instr &instr);

/// Encodes the instruction descriptor of a block-scaled .kind::mxf8f6f4
/// tcgen05.mma.cta_group::1 of \p instr (A and B e4m3 / e5m2, D f32, M =
/// 128, N a multiple of 16 in [16, 256]) with UE8M0 scale factors and
/// scale factor ids 0 (the caller or-s the ids in: A's << 29, B's << 4),
/// or an error naming what does not fit.
llvm::Expected<uint32_t>
encodeTcgen05BlockScaledInstrDescriptor(const Tcgen05Instr &instr);

/// Encodes a shared memory descriptor: byte values, multiples of 16 below
/// 2^18 (an error otherwise); base offset 0, relative leading offset.
llvm::Expected<uint64_t> encodeTcgen05SmemDescriptor(uint32_t startAddress,
                                                     uint32_t leadingByteOffset,
                                                     uint32_t strideByteOffset,
                                                     WgmmaSwizzle mode);

} // namespace target
} // namespace tlc

#endif // TLC_TARGET_CUDA_TCGEN05DESCRIPTOR_H
