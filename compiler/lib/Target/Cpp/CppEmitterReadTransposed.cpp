//===- CppEmitterReadTransposed.cpp - gfx950's LDS transpose reads (CPU) --===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tile.intrinsic "T.ds_read_tr16_b64"` / `"T.ds_read_tr8_b64"` (one 64-bit
// value after the vector scalarizer) in a threaded kernel: for every
// wavefront of 64 threads that reaches it (all 64 must), each lane's 8
// bytes, checked to lie in its buffer and be 8-byte aligned, then
// tlc::cpu::transposedReadLane (tlc_device/cpu/transposed_read.h) gives
// each lane its value. The CPU target keeps warps of 32 for the other warp
// operations; this one is the HIP wavefront's.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

LogicalResult Emitter::emitReadTransposed(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  auto fail = [&](const Twine &why) {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  const int bits = callee == "T.ds_read_tr16_b64" ? 16 : 8;
  Value src = intrinsicArg(op, "src");
  if (!src || !isa<tile::BufferType>(src.getType()))
    return fail("needs its src operand, an element of a shared buffer");
  if (op->getNumResults() != 1 || !op.getResult(0).getType().isInteger(64))
    return fail("its uint32x2 value is used as a whole vector; the CPU "
                "target takes its words (v[0], v[1], T.reinterpret) apart");
  Value res = op.getResult(0);
  std::string loc = locLiteral(op->getLoc());
  std::string what = "\"" + callee.str() + "\"";
  std::string arr = fresh("lanes");
  comment(op, callee.str() + ": gfx950's ds_read_b64_tr_b" +
                  std::to_string(bits) + ", wavefront by wavefront");
  line("tlc::cpu::Lanes<int64_t> " + arr + "(" + threadCount + ");");
  open("for (int64_t tlc_w = 0; tlc_w < " + threadCount + "; tlc_w += 64)");
  line("const int tlc_runs = tlc::cpu::transposedReadWave(st, " + loc + ", " +
       what + ", tlc_w, " + threadCount + ", " + activePtr() + ");");
  line("if (tlc_runs < 0)");
  line("  return;");
  line("if (tlc_runs == 0)");
  line("  continue;");
  line("const uint8_t *tlc_chunks[64] = {};");
  open("for (int tlc_l = 0; tlc_l < 64; ++tlc_l)");
  line("const int64_t tlc_t = tlc_w + tlc_l;");
  line("tlc_chunks[tlc_l] = tlc::cpu::transposedReadChunk(st, " + loc + ", " +
       what + ", tlc_t, " + laneValue(src, "tlc_t") + ");");
  line("if (!tlc_chunks[tlc_l])");
  line("  return;");
  close();
  open("for (int tlc_l = 0; tlc_l < 64; ++tlc_l)");
  line(arr + "[tlc_w + tlc_l] = int64_t(tlc::cpu::transposedReadLane(" +
       std::to_string(bits) + ", tlc_chunks, tlc_l));");
  close();
  close();
  names[res] = arr + "[tlc_t]";
  laneArrays[res] = arr;
  return success();
}
