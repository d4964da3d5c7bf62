//===- Tcgen05Descriptor.cpp - tcgen05.mma descriptors --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/Tcgen05Descriptor.h"

#include "llvm/ADT/Twine.h"

using namespace tlc;
using namespace tlc::target;

static llvm::Error makeError(const llvm::Twine &text) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
}

const char *tlc::target::getTcgen05KindName(Tcgen05Kind kind) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return "f16";
  case Tcgen05Kind::TF32:
    return "tf32";
  case Tcgen05Kind::F8F6F4:
    return "f8f6f4";
  case Tcgen05Kind::I8:
    return "i8";
  }
  return "f16";
}

llvm::Expected<Tcgen05Kind> tlc::target::getTcgen05Kind(Tcgen05Type ab) {
  switch (ab) {
  case Tcgen05Type::F16:
  case Tcgen05Type::BF16:
    return Tcgen05Kind::F16;
  case Tcgen05Type::TF32:
    return Tcgen05Kind::TF32;
  case Tcgen05Type::E4M3:
  case Tcgen05Type::E5M2:
  case Tcgen05Type::E2M3:
  case Tcgen05Type::E3M2:
  case Tcgen05Type::E2M1:
    return Tcgen05Kind::F8F6F4;
  case Tcgen05Type::U8:
  case Tcgen05Type::S8:
    return Tcgen05Kind::I8;
  case Tcgen05Type::F32:
  case Tcgen05Type::S32:
    break;
  }
  return makeError("tcgen05.mma takes no 32-bit A or B operands");
}

int64_t tlc::target::getTcgen05InstrK(Tcgen05Kind kind) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return 16;
  case Tcgen05Kind::TF32:
    return 8;
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::I8:
    return 32;
  }
  return 16;
}

/// The A/B type field of \p t under \p kind, or -1.
static int abField(Tcgen05Kind kind, Tcgen05Type t) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return t == Tcgen05Type::F16 ? 0 : t == Tcgen05Type::BF16 ? 1 : -1;
  case Tcgen05Kind::TF32:
    return t == Tcgen05Type::TF32 ? 2 : -1;
  case Tcgen05Kind::F8F6F4:
    switch (t) {
    case Tcgen05Type::E4M3:
      return 0;
    case Tcgen05Type::E5M2:
      return 1;
    case Tcgen05Type::E2M3:
      return 3;
    case Tcgen05Type::E3M2:
      return 4;
    case Tcgen05Type::E2M1:
      return 5;
    default:
      return -1;
    }
  case Tcgen05Kind::I8:
    return t == Tcgen05Type::U8 ? 0 : t == Tcgen05Type::S8 ? 1 : -1;
  }
  return -1;
}

llvm::Expected<uint32_t>
tlc::target::encodeTcgen05InstrDescriptor(const Tcgen05Instr &instr) {
  llvm::Expected<Tcgen05Kind> kind = getTcgen05Kind(instr.a);
  if (!kind)
    return kind.takeError();
  int a = abField(*kind, instr.a), b = abField(*kind, instr.b);
  if (a < 0 || b < 0)
    return makeError(llvm::Twine("A and B of one tcgen05.mma must both be "
                                 "types of .kind::") +
                     getTcgen05KindName(*kind));
  // .kind::f16 multiplies two f16 or two bf16 matrices.
  if (*kind == Tcgen05Kind::F16 && instr.a != instr.b)
    return makeError("A and B of a .kind::f16 tcgen05.mma are both f16 or "
                     "both bf16");
  int d = -1;
  if (*kind == Tcgen05Kind::I8)
    d = instr.d == Tcgen05Type::S32 ? 2 : -1;
  else if (instr.d == Tcgen05Type::F32)
    d = 1;
  else if (instr.d == Tcgen05Type::F16 && *kind != Tcgen05Kind::TF32)
    d = 0;
  if (d < 0)
    return makeError(llvm::Twine("no .kind::") + getTcgen05KindName(*kind) +
                     " tcgen05.mma accumulates in this type");
  int64_t m = instr.m, n = instr.n;
  bool shape = false;
  if (instr.ctaGroup == 1)
    shape = (m == 64 && n % 8 == 0 && n >= 8 && n <= 256) ||
            (m == 128 && n % 16 == 0 && n >= 16 && n <= 256);
  else if (instr.ctaGroup == 2)
    shape = (m == 128 && n % 32 == 0 && n >= 32 && n <= 256) ||
            (m == 256 && n % 16 == 0 && n >= 16 && n <= 256);
  if (!shape)
    return makeError("tcgen05.mma.cta_group::" + llvm::Twine(instr.ctaGroup) +
                     " has no M = " + llvm::Twine(m) +
                     ", N = " + llvm::Twine(n) + " shape");
  uint32_t v = 0;
  v |= uint32_t(d) << 4;
  v |= uint32_t(a) << 7;
  v |= uint32_t(b) << 10;
  v |= uint32_t(instr.mnMajorA) << 15;
  v |= uint32_t(instr.mnMajorB) << 16;
  v |= uint32_t(n >> 3) << 17;
  v |= uint32_t(m >> 4) << 24;
  return v;
}

llvm::Expected<uint32_t> tlc::target::encodeTcgen05BlockScaledInstrDescriptor(
    const Tcgen05Instr &instr) {
  auto fp8 = [](Tcgen05Type t) {
    return t == Tcgen05Type::E4M3 || t == Tcgen05Type::E5M2;
  };
  if (!fp8(instr.a) || !fp8(instr.b))
    return makeError("A and B of a .kind::mxf8f6f4 block-scaled tcgen05.mma "
                     "are e4m3 or e5m2 here (MXFP8)");
  if (instr.d != Tcgen05Type::F32)
    return makeError("a block-scaled tcgen05.mma accumulates in f32");
  // cta_group::1: M = 128; cta_group::2 (the CTA pair): M = 256, 128 rows
  // a CTA. N a multiple of 16 in [16, 256] for both (the PTX ISA's shapes
  // of .kind::mxf8f6f4.block_scale).
  int64_t pairM = instr.ctaGroup == 2 ? 256 : 128;
  if ((instr.ctaGroup != 1 && instr.ctaGroup != 2) || instr.m != pairM ||
      instr.n % 16 || instr.n < 16 || instr.n > 256)
    return makeError("tlc's block-scaled tcgen05.mma is cta_group::1 with M "
                     "= 128 or cta_group::2 with M = 256, N a multiple of 16 "
                     "in [16, 256], not cta_group::" +
                     llvm::Twine(instr.ctaGroup) + " with M = " +
                     llvm::Twine(instr.m) + ", N = " + llvm::Twine(instr.n));
  uint32_t v = 0;
  v |= uint32_t(abField(Tcgen05Kind::F8F6F4, instr.a)) << 7;
  v |= uint32_t(abField(Tcgen05Kind::F8F6F4, instr.b)) << 10;
  v |= uint32_t(instr.mnMajorA) << 15;
  v |= uint32_t(instr.mnMajorB) << 16;
  v |= uint32_t(instr.n >> 3) << 17;
  v |= uint32_t(1) << 23; // UE8M0 scale factors
  v |= uint32_t(instr.m >> 4) << 24;
  return v;
}

llvm::Expected<uint64_t> tlc::target::encodeTcgen05SmemDescriptor(
    uint32_t startAddress, uint32_t leadingByteOffset,
    uint32_t strideByteOffset, WgmmaSwizzle mode) {
  llvm::Expected<uint64_t> addresses = packDescriptorAddresses(
      startAddress, leadingByteOffset, strideByteOffset);
  if (!addresses)
    return addresses.takeError();
  uint64_t swizzle = 0;
  switch (mode) {
  case WgmmaSwizzle::None:
    swizzle = 0;
    break;
  case WgmmaSwizzle::B128:
    swizzle = 2;
    break;
  case WgmmaSwizzle::B64:
    swizzle = 4;
    break;
  case WgmmaSwizzle::B32:
    swizzle = 6;
    break;
  }
  return *addresses | uint64_t(1) << 46 | swizzle << 61;
}
