//===- CppEmitterLdmatrix.cpp - T.ptx_ldmatrix on the CPU target ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tile.intrinsic "T.ptx_ldmatrix"` in a threaded kernel: for every warp
// that reaches it (all 32 lanes must), the row addresses of the lanes that
// give them and the destinations of all 32, each checked to lie in its
// buffer, then tlc::cpu::ldmatrixRun (tlc_device/cpu/ldmatrix.h, written
// from the PTX ISA's fragment layouts) moves the bytes.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

LogicalResult Emitter::emitLdmatrix(tile::IntrinsicOp op) {
  auto fail = [&](const Twine &why) {
    op.emitError() << "T.ptx_ldmatrix: " << why;
    return failure();
  };
  Value src = intrinsicArg(op, "src"), dst = intrinsicArg(op, "dst");
  Value srcOff = intrinsicArg(op, "src_offset");
  Value dstOff = intrinsicArg(op, "dst_offset");
  DictionaryAttr options = op.getOptionsAttr();
  auto num = options ? options.getAs<IntegerAttr>("num") : IntegerAttr();
  auto trans = options ? options.getAs<BoolAttr>("trans") : BoolAttr();
  auto variant = options ? options.getAs<StringAttr>("variant") : StringAttr();
  if (!src || !dst || !num || !trans || !variant)
    return fail("needs its src and dst operands and its num, trans and "
                "variant options");
  std::string format = llvm::StringSwitch<std::string>(variant.getValue())
                           .Case("b16", "B16")
                           .Case("su4", "Su4")
                           .Case("su6", "Su6")
                           .Default("");
  if (format.empty())
    return fail("unknown variant '" + variant.getValue() + "'");
  int64_t n = num.getInt();
  std::string loc = locLiteral(op->getLoc());
  auto offset = [&](Value off) {
    return off ? "int64_t(" + laneValue(off, "tlc_t") + ")" : std::string("0");
  };
  std::string shape = variant.getValue() == "b16" ? "m8n8" : "m8n16";
  comment(op, "T.ptx_ldmatrix: ldmatrix.sync.aligned." + shape + ".x" +
                  std::to_string(n) + (trans.getValue() ? ".trans" : "") +
                  " (" + variant.getValue().str() + "), warp by warp");
  open("for (int64_t tlc_w = 0; tlc_w < " + threadCount + "; tlc_w += 32)");
  line("const int tlc_runs = tlc::cpu::ldmatrixWarp(st, " + loc + ", tlc_w, " +
       threadCount + ", " + activePtr() + ");");
  line("if (tlc_runs < 0)");
  line("  return;");
  line("if (tlc_runs == 0)");
  line("  continue;");
  line("uint8_t *tlc_rows[4][8] = {};");
  open("for (int tlc_i = 0; tlc_i < " + std::to_string(n) + "; ++tlc_i)");
  open("for (int tlc_r = 0; tlc_r < 8; ++tlc_r)");
  line("const int64_t tlc_t = tlc_w + 8 * tlc_i + tlc_r;");
  line("tlc_rows[tlc_i][tlc_r] = tlc::cpu::ldmatrixBytes(st, " + loc +
       ", \"row address\", tlc_t, " + laneValue(src, "tlc_t") + ", " +
       offset(srcOff) + ", 16, 16);");
  line("if (!tlc_rows[tlc_i][tlc_r])");
  line("  return;");
  close();
  close();
  line("uint8_t *tlc_dst[32] = {};");
  open("for (int tlc_l = 0; tlc_l < 32; ++tlc_l)");
  line("const int64_t tlc_t = tlc_w + tlc_l;");
  line("tlc_dst[tlc_l] = tlc::cpu::ldmatrixBytes(st, " + loc +
       ", \"destination registers\", tlc_t, " + laneValue(dst, "tlc_t") + ", " +
       offset(dstOff) + ", " + std::to_string(4 * n) + ", 4);");
  line("if (!tlc_dst[tlc_l])");
  line("  return;");
  close();
  line("tlc::cpu::ldmatrixRun(" + std::to_string(n) + ", " +
       (trans.getValue() ? "true" : "false") +
       ", tlc::cpu::LdmatrixFormat::" + format + ", tlc_rows, tlc_dst);");
  close();
  return success();
}
