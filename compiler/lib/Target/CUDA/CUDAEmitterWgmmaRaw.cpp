//===- CUDAEmitterWgmmaRaw.cpp - Hand-written wgmma descriptors ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The raw Hopper forms a program writes itself instead of T.gemm (PTX ISA,
// "Matrix Descriptor Format" and "wgmma.mma_async"):
//
//  * T.alloc_descriptor("wgmma") / T.alloc_wgmma_desc() is a 64-bit matrix
//    descriptor in a register (`uint64_t desc[1]`);
//  * T.initialize_wgmma_descriptor(desc, buf.access_ptr(..), layout_type,
//    lbo, sbo) writes the shared start address (bits 0-13, in 16-byte
//    units), the leading and stride byte offsets (bits 16-29, 32-45, given
//    in 16-byte units as the descriptor holds them) and the swizzle mode
//    (bits 62-63: 1 = 128B, 2 = 64B, 3 = 32B) — the fields are encoded by
//    encodeWgmmaDescriptor, the start address at run time by
//    tlc::cuda::wgmmaDescriptor, as tlc's own wgmma gemms do;
//  * T.ptx_wgmma_ss(dtype, "m64nNkK", a_k_major, b_k_major, a, b, c,
//    desc_a, a_offset, desc_b, b_offset, C, c_offset, scale_out, scale_a,
//    scale_b) is one wgmma.mma_async with both operands read through the
//    descriptors plus their offsets (added to the 64-bit descriptor, so in
//    16-byte units of the start address), D in C's registers from
//    c_offset on, through the helpers of wgmma.h.
//
// Descriptor arithmetic the program does (`desc.data`, offsets) stays the
// program's: the bits are what it computes.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Target/CUDA/WgmmaDescriptor.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The integer constant \p v holds, if it is one.
static std::optional<int64_t> constantOf(Value v) {
  IntegerAttr c;
  if (!v || !matchPattern(v, m_Constant(&c)))
    return std::nullopt;
  return c.getValue().getSExtValue();
}

/// The string options of \p op, in the order they were given.
static SmallVector<StringRef> stringOptions(IntrinsicOp op) {
  SmallVector<StringRef> out;
  if (DictionaryAttr d = op.getOptionsAttr())
    for (NamedAttribute a : d)
      if (auto s = dyn_cast<StringAttr>(a.getValue()))
        out.push_back(s.getValue());
  return out;
}

std::optional<LogicalResult> Emitter::emitRawWgmmaIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (callee != "T.initialize_wgmma_descriptor" && callee != "T.ptx_wgmma_ss")
    return std::nullopt;
  auto fail = [&](const Twine &why) {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  if (lang.isHip() || !hasWgmma(options.minComputeCapability))
    return fail(Twine("is Hopper's wgmma, which needs sm_90a; building "
                      "for ") +
                (lang.isHip() ? std::string("HIP")
                              : "sm_" + std::to_string(
                                            options.minComputeCapability)));
  SmallVector<Value> args(op.getArgs().begin(), op.getArgs().end());
  auto descriptor = [&](Value v) -> FailureOr<std::string> {
    auto type = dyn_cast<BufferType>(v.getType());
    if (!type || type.getScope() != MemoryScope::DescriptorWgmma)
      return fail("needs a wgmma descriptor (T.alloc_wgmma_desc) here");
    return expr(v) + "[0]";
  };

  if (callee == "T.initialize_wgmma_descriptor") {
    if (args.size() != 5)
      return fail("takes the descriptor, the operand's access_ptr(), the "
                  "layout type, the leading and the stride byte offset");
    FailureOr<std::string> desc = descriptor(args[0]);
    if (failed(desc))
      return failure();
    auto operand = dyn_cast<BufferType>(args[1].getType());
    if (!operand || !isSharedScope(operand.getScope()))
      return fail("the start address must be a shared buffer's "
                  "access_ptr()");
    std::optional<int64_t> mode = constantOf(args[2]),
                           lbo = constantOf(args[3]), sbo = constantOf(args[4]);
    if (!mode || *mode < 0 || *mode > 3)
      return fail("needs a constant layout type in 0..3 (0 none, 1 128B, "
                  "2 64B, 3 32B swizzle)");
    if (!lbo || !sbo || *lbo < 0 || *sbo < 0 || *lbo >= (1 << 14) ||
        *sbo >= (1 << 14))
      return fail("needs constant leading and stride byte offsets in "
                  "16-byte units below 2^14");
    llvm::Expected<uint64_t> bits = encodeWgmmaDescriptor(
        0, uint32_t(*lbo) << 4, uint32_t(*sbo) << 4,
        static_cast<WgmmaSwizzle>(*mode));
    if (!bits)
      return fail(llvm::toString(bits.takeError()));
    anyWgmma = true; // wgmma.h holds wgmmaDescriptor
    std::string hex;
    llvm::raw_string_ostream os(hex);
    os << llvm::format_hex(*bits, 18) << "ull";
    line(*desc + " = tlc::cuda::wgmmaDescriptor(" + expr(args[1]) + ", " +
         os.str() + ");  // swizzle mode " + std::to_string(*mode) +
         ", LBO " + std::to_string(*lbo * 16) + " B, SBO " +
         std::to_string(*sbo * 16) + " B");
    return success();
  }

  // T.ptx_wgmma_ss.
  if (args.size() != 11)
    return fail("takes a_is_k_major, b_is_k_major, the two descriptors and "
                "offsets, the accumulator and its offset and three scales");
  SmallVector<StringRef> opts = stringOptions(op);
  // The shape prefix, the result dtype (a TVM spelling) and the three
  // operand abbreviations; told apart by their spelling.
  StringRef prefix;
  SmallVector<StringRef> abbrevs;
  for (StringRef s : opts) {
    if (s.starts_with("m64n"))
      prefix = s;
    else if (llvm::is_contained({"fp16", "bf16", "fp32", "e4m3", "e5m2",
                                 "tf32", "s8", "u8", "fp8"},
                                s))
      abbrevs.push_back(s);
  }
  int64_t n = 0, k = 0;
  if (prefix.empty() ||
      prefix.drop_front(4).consumeInteger(10, n) ||
      !prefix.drop_front(4).drop_while([](char c) { return isdigit(c); })
           .starts_with("k") ||
      prefix.drop_front(4)
          .drop_while([](char c) { return isdigit(c); })
          .drop_front(1)
          .getAsInteger(10, k))
    return fail("needs a shape such as \"m64n64k16\"");
  if (abbrevs.size() != 3 || llvm::count(abbrevs, "fp32") != 1)
    return fail("supports f32 accumulators with fp16, bf16, e4m3 or e5m2 "
                "operands");
  StringRef in = abbrevs[0] == "fp32" ? abbrevs[1] : abbrevs[0];
  if (llvm::count(abbrevs, in) != 2)
    return fail("needs A and B of one type");
  std::string family;
  int64_t wantK = 16;
  if (in == "fp16")
    family = "F32F16";
  else if (in == "bf16")
    family = "F32BF16";
  else if (in == "e4m3" || in == "e5m2") {
    family = in == "e4m3" ? "F32E4M3" : "F32E5M2";
    wantK = 32;
  } else {
    return fail("supports fp16, bf16, e4m3 and e5m2 operands, not " + in);
  }
  if (k != wantK || n < 8 || n > 256 || n % 8)
    return fail("m64nNk" + Twine(wantK) + " with N a multiple of 8 in "
                "8..256 is what " + in + " operands take, not " + prefix);
  std::optional<int64_t> aK = constantOf(args[0]), bK = constantOf(args[1]);
  if (!aK || !bK)
    return fail("needs constant a_is_k_major and b_is_k_major");
  if (wantK == 32 && (!*aK || !*bK))
    return fail("8-bit operands are K-major only (wgmma has no transpose "
                "for them)");
  for (unsigned i : {9u, 10u}) {
    std::optional<int64_t> s = constantOf(args[i]);
    if (!s || *s != 1)
      return fail("supports scale_in_a = scale_in_b = 1 (no negation) only");
  }
  FailureOr<std::string> descA = descriptor(args[2]);
  FailureOr<std::string> descB = descriptor(args[4]);
  if (failed(descA) || failed(descB))
    return failure();
  auto acc = dyn_cast<BufferType>(args[6].getType());
  if (!acc || !acc.getElementType().isF32() ||
      (acc.getScope() != MemoryScope::Local &&
       acc.getScope() != MemoryScope::Fragment))
    return fail("needs a float32 register buffer (T.alloc_local) as C");
  if (acc.isStatic()) {
    int64_t elems = 1;
    for (int64_t e : acc.getShape())
      elems *= e;
    std::optional<int64_t> off = constantOf(args[7]);
    if (off && (*off < 0 || *off + n / 2 > elems))
      return fail("C holds " + Twine(elems) + " registers; " +
                  Twine(n / 2) + " from offset " + Twine(*off) +
                  " do not fit");
  }
  if (range.lo % 128 || range.count() % 128 || !parallelReg.empty())
    return fail("is executed by whole warpgroups (wgmma.mma_async.sync."
                "aligned): it must be in the kernel body or under T.ws / a "
                "thread range of whole warpgroups");
  anyWgmma = true;
  std::string fn = "tlc::cuda::wgmmaM64N" + std::to_string(n) + "K" +
                   std::to_string(k) + family;
  if (wantK == 16)
    fn += "<" + std::to_string(*aK ? 0 : 1) + ", " +
          std::to_string(*bK ? 0 : 1) + ">";
  line(fn + "(&" + expr(args[6]) + "[" + expr(args[7]) + "], " + *descA +
       " + (uint64_t)(" + expr(args[3]) + "), " + *descB + " + (uint64_t)(" +
       expr(args[5]) + "), (int)(" + expr(args[8]) + "));");
  return success();
}
