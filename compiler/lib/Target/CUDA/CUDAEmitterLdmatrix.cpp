//===- CUDAEmitterLdmatrix.cpp - T.ptx_ldmatrix on CUDA -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tile.intrinsic "T.ptx_ldmatrix"`: the lane's row address (an element of
// a row-major shared buffer) and its registers (an element of a local
// array, reinterpreted as 32-bit words) go to one ldmatrix.sync:
//
//   b16          tlc::cuda::ldmatrix<num, trans>(regs, row) (the device
//                and sim headers' m8n8 .b16 forms; sm_75+)
//   su4 / su6    ldmatrix.sync.aligned.m8n16.x{num}.shared.b8x16
//                .b4x16_p64 / .b6x16_p32 as inline PTX. ptxas 13 assembles
//                them for the arch-specific targets of sm_100 and later
//                (sm_100a here); older targets are refused at the op.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The operand of \p op passed for \p param, or null.
static Value ldmatrixArg(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

std::optional<LogicalResult> Emitter::emitLdmatrixIntrinsic(IntrinsicOp op) {
  if (op.getCallee() != "T.ptx_ldmatrix")
    return std::nullopt;
  auto fail = [&](const Twine &why) -> LogicalResult {
    op.emitError() << "T.ptx_ldmatrix: " << why;
    return failure();
  };
  DictionaryAttr options = op.getOptionsAttr();
  auto num = options ? options.getAs<IntegerAttr>("num") : IntegerAttr();
  auto trans = options ? options.getAs<BoolAttr>("trans") : BoolAttr();
  auto variant = options ? options.getAs<StringAttr>("variant") : StringAttr();
  Value src = ldmatrixArg(op, "src"), dst = ldmatrixArg(op, "dst");
  if (!src || !dst || !num || !trans || !variant)
    return fail("needs its src and dst operands and its num, trans and "
                "variant options");
  bool subByte = variant.getValue() != "b16";
  if (lang.isHip())
    return fail("ldmatrix is an NVIDIA PTX instruction; the " +
                Twine(lang.name) +
                " target has no such load (AMD CDNA reads "
                "LDS with ds_read)");
  if (subByte && !hasBlackwell(this->options.minComputeCapability))
    return fail("the '" + variant.getValue() +
                "' variant is ldmatrix.m8n16 with .b8x16." +
                (variant.getValue() == "su4" ? "b4x16_p64" : "b6x16_p32") +
                ", which ptxas assembles only for the arch-specific targets "
                "of Blackwell (build for cuda:sm_100a or cuda:sm_120a)");
  // A pointer to each side's element, as T.access_ptr makes it: a
  // row-major root (not a fragment, not a tile stored swizzled).
  auto pointer = [&](Value base, Value offset,
                     StringRef what) -> FailureOr<std::string> {
    auto bt = dyn_cast<BufferType>(base.getType());
    if (!bt)
      return fail(what + Twine(" is not a buffer element"));
    Value root = rootOf(base);
    if (panelSwizzle.count(root) || ldsSwizzle.count(root) ||
        swizzled.count(root))
      return fail(what + Twine(" lies in a shared tile this target stores "
                               "swizzled (a gemm operand); its rows are not "
                               "where the pointer says"));
    SmallVector<std::string> zeros(bt.getRank(), "0");
    FailureOr<RootAccess> access = resolve(base, zeros, op);
    if (failed(access))
      return failure();
    FailureOr<std::string> lin = linearIndex(*access, op);
    if (failed(lin))
      return failure();
    if (offset)
      *lin = "(" + *lin + ") + (" + expr(offset) + ")";
    return "&" + expr(access->root) + "[" + *lin + "]";
  };
  FailureOr<std::string> row =
      pointer(src, ldmatrixArg(op, "src_offset"), "the row address");
  FailureOr<std::string> regs =
      pointer(dst, ldmatrixArg(op, "dst_offset"), "the destination");
  if (failed(row) || failed(regs))
    return failure();
  int64_t n = num.getInt();
  beginOp(op, "T.ptx_ldmatrix");
  std::string words = "reinterpret_cast<uint32_t *>(" + *regs + ")";
  if (!subByte) {
    line(ns + "ldmatrix<" + std::to_string(n) + ", " +
         (trans.getValue() ? "true" : "false") + ">(" + words + ", " + *row +
         ");");
    return success();
  }
  std::string w = fresh("ldm");
  line("{");
  line("  uint32_t *const " + w + " = " + words + ";");
  std::string outs, regList;
  for (int64_t i = 0; i < n; ++i) {
    outs += (i ? ", " : "") + ("\"=r\"(" + w + "[" + std::to_string(i) + "])");
    regList += (i ? ", %" : "%") + std::to_string(i);
  }
  std::string format =
      variant.getValue() == "su4" ? "b8x16.b4x16_p64" : "b8x16.b6x16_p32";
  line("  asm volatile(\"ldmatrix.sync.aligned.m8n16.x" + std::to_string(n) +
       ".shared." + format + " {" + regList + "}, [%" + std::to_string(n) +
       "];\" : " + outs + " : \"r\"(" + ns + "sharedAddress(" + *row + ")));");
  line("}");
  return success();
}
