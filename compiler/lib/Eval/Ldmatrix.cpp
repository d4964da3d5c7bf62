//===- Ldmatrix.cpp - T.ptx_ldmatrix --------------------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `T.ptx_ldmatrix(trans, num, src_access_ptr, dst_access_ptr, variant=None)`:
// TileLang's raw ldmatrix, one warp-wide instruction. The pointers are
// T.access_ptr (or T.address_of) values; the op keeps the buffer elements
// they point at (a shared row per lane, the lane's registers in a local
// buffer) so that every target can address them:
//
//   tile.intrinsic "T.ptx_ldmatrix"(%src, %dst[, %src_offset, %dst_offset])
//       {num, trans, variant}
//
// The meaning is the PTX ISA's (the CPU target runs it lane by lane; the
// CUDA target prints ldmatrix.sync):
//
//   variant None: ldmatrix.sync.aligned.m8n8.x{num}[.trans].shared.b16.
//     Lane 8i + r addresses row r (16 bytes) of matrix i; lane l receives
//     register i = bytes 4 (l % 4) .. 4 (l % 4) + 3 of row l // 4 of
//     matrix i. With trans, register i = the 16-bit elements (row
//     2 (l % 4), column l // 4) and (row 2 (l % 4) + 1, column l // 4).
//   variant 'su4' / 'su6': ldmatrix.sync.aligned.m8n16.x{num}.shared
//     .b8x16.b4x16_p64 / .b6x16_p32. A row holds 16 unsigned 4- / 6-bit
//     elements packed LSB first in its first 8 / 12 bytes (the rest is
//     padding); unpacked one per byte (zero-extended), the register layout
//     is the one above (lane l: elements 4 (l % 4) .. + 3 of row l // 4).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "mlir/IR/Matchers.h"

using namespace tlc;
using namespace tlc::eval;

namespace {
/// A buffer element a T.access_ptr / T.address_of value points at.
struct Pointee {
  /// The buffer (or region, or element) value the pointer was made from.
  mlir::Value base;
  /// Elements past it (T.access_ptr's offset), or null.
  mlir::Value offset;
};
} // namespace

/// An integer known when the kernel is traced: a Python int or bool, or an
/// IR constant (`T.bool(False)`, `T.int32(4)`).
static std::optional<int64_t> constantOf(const Value &v) {
  if (v.isIntLike())
    return v.getInt();
  if (!v.is(ValueKind::Expr))
    return std::nullopt;
  mlir::Value ir = v.as<ExprObj>()->value;
  llvm::APInt c;
  if (ir && mlir::matchPattern(ir, mlir::m_ConstantInt(&c)))
    return c.getBitWidth() == 1 ? int64_t(c.getBoolValue()) : c.getSExtValue();
  return std::nullopt;
}

/// The element \p v (a T.access_ptr or T.address_of value) points at;
/// nullopt after an error at \p at.
static std::optional<Pointee> pointee(Interpreter &in, const Value &v, Node at,
                                      llvm::StringRef param) {
  if (v.isAbrupt())
    return std::nullopt;
  mlir::Value ir;
  if (v.is(ValueKind::Expr))
    ir = v.as<ExprObj>()->value;
  auto ptr = ir ? ir.getDefiningOp<tile::IntrinsicOp>() : tile::IntrinsicOp();
  llvm::StringRef callee = ptr ? ptr.getCallee() : "";
  if (callee != "T.access_ptr" && callee != "T.address_of") {
    in.error(at, "T.ptx_ldmatrix: " + param +
                     " must be a pointer made by T.access_ptr(buffer[...], "
                     "...) (or T.address_of), not '" +
                     v.getTypeName() + "'");
    return std::nullopt;
  }
  Pointee p;
  for (auto [name, arg] : llvm::zip(ptr.getParams(), ptr.getArgs())) {
    llvm::StringRef n = mlir::cast<mlir::StringAttr>(name).getValue();
    if (n == "base" || n == "buffer_load")
      p.base = arg;
    else if (n == "offset")
      p.offset = arg;
  }
  if (!p.base || !mlir::isa<tile::BufferType>(p.base.getType())) {
    in.error(at, "T.ptx_ldmatrix: " + param +
                     " must point into a buffer (T.access_ptr(buffer[...], "
                     "...))");
    return std::nullopt;
  }
  return p;
}

Value eval::ptxLdmatrix(Interpreter &in, const PArgs &p) {
  const char *what = "T.ptx_ldmatrix";
  if (!in.tracing())
    return in.fail(p.call, "T.ptx_ldmatrix can only be used while a kernel "
                           "is traced");
  if (in.checkInKernel(what, p.call) || in.checkNotInParallel(what, p.call))
    return Value::poison();
  Value transV = p.getOr("trans", Value::poison());
  Value numV = p.getOr("num", Value::poison());
  for (const Value &v : {transV, numV})
    if (v.isAbrupt())
      return v;
  std::optional<int64_t> trans = constantOf(transV);
  if (!trans || *trans < 0 || *trans > 1)
    return in.fail(p.node("trans"),
                   "T.ptx_ldmatrix: trans must be a constant bool (whether "
                   "each 8x8 matrix is loaded transposed), not " +
                       in.toString(transV, true));
  std::optional<int64_t> num = constantOf(numV);
  if (!num || (*num != 1 && *num != 2 && *num != 4))
    return in.fail(p.node("num"),
                   "T.ptx_ldmatrix: num is the number of matrices, 1, 2 or 4 "
                   "(.x1, .x2, .x4), not " +
                       in.toString(numV, true));
  std::string variant;
  Value variantV = p.getOr("variant", Value::none());
  if (variantV.isAbrupt())
    return variantV;
  if (variantV.isStr())
    variant = getStr(variantV).str();
  else if (!variantV.isNone())
    return in.fail(p.node("variant"),
                   "T.ptx_ldmatrix: variant must be None, 'su4' or 'su6', "
                   "not " +
                       in.toString(variantV, true));
  if (!variant.empty() && variant != "su4" && variant != "su6")
    return in.fail(p.node("variant"),
                   "T.ptx_ldmatrix: unknown variant '" + variant +
                       "' (None: the 16-bit m8n8 form; 'su4' / 'su6': "
                       "sm_100a's m8n16 loads of packed 4- / 6-bit elements)");
  bool subByte = !variant.empty();
  if (subByte && *trans)
    return in.fail(p.node("trans"),
                   "T.ptx_ldmatrix: the '" + variant +
                       "' variant (ldmatrix .m8n16) has no transposed form");

  std::optional<Pointee> src =
      pointee(in, p.getOr("src_access_ptr", Value::poison()),
              p.node("src_access_ptr"), "src_access_ptr");
  std::optional<Pointee> dst =
      pointee(in, p.getOr("dst_access_ptr", Value::poison()),
              p.node("dst_access_ptr"), "dst_access_ptr");
  if (!src || !dst)
    return Value::poison();

  // Where each side must lie, and what its elements may be: the rows are
  // read as bytes of shared memory, the registers written as bytes of the
  // lane's own memory.
  auto check = [&](const Pointee &ptr, llvm::StringRef param,
                   bool shared) -> bool {
    auto type = mlir::cast<tile::BufferType>(ptr.base.getType());
    tile::MemoryScope scope = tile::getScopeOf(ptr.base);
    Node at = p.node(param);
    bool ok = shared ? tile::isSharedScope(scope)
                     : scope == tile::MemoryScope::Local ||
                           scope == tile::MemoryScope::LocalVar;
    if (!ok) {
      in.error(at, "T.ptx_ldmatrix: " + param + " must point into " +
                       (shared ? "shared memory (T.alloc_shared)"
                               : "the thread's registers (T.alloc_local)") +
                       ", not " + tile::getScopeDisplayName(scope).str() +
                       (scope == tile::MemoryScope::Fragment
                            ? " (a fragment's elements are registers spread "
                              "over the block's threads)"
                            : ""));
      return false;
    }
    mlir::Type elem = type.getElementType();
    unsigned bits = tile::getElementBitWidth(elem);
    bool bytes = bits == 8 || bits == 16 || bits == 32 || bits == 64;
    if (!bytes || elem.isInteger(1)) {
      in.error(at, "T.ptx_ldmatrix: " + param + " points at " +
                       tile::getDTypeName(elem) +
                       " elements; ldmatrix moves whole bytes (8-, 16-, 32- "
                       "or 64-bit elements)");
      return false;
    }
    if (subByte && bits != 8) {
      in.error(at, "T.ptx_ldmatrix: the '" + variant + "' variant moves " +
                       (shared ? "packed bytes" : "one byte per element") +
                       ", so " + param +
                       " must point at 8-bit elements "
                       "(uint8), not " +
                       tile::getDTypeName(elem));
      return false;
    }
    return true;
  };
  if (!check(*src, "src_access_ptr", true) ||
      !check(*dst, "dst_access_ptr", false))
    return Value::poison();

  auto &B = in.ir->b;
  llvm::SmallVector<mlir::Value, 4> operands{src->base, dst->base};
  llvm::SmallVector<mlir::Attribute, 4> params{B.getStringAttr("src"),
                                               B.getStringAttr("dst")};
  for (auto [ptr, name] :
       {std::pair(&*src, "src_offset"), std::pair(&*dst, "dst_offset")})
    if (ptr->offset) {
      operands.push_back(ptr->offset);
      params.push_back(B.getStringAttr(name));
    }
  mlir::NamedAttribute options[] = {
      B.getNamedAttr("num", B.getI64IntegerAttr(*num)),
      B.getNamedAttr("trans", B.getBoolAttr(*trans != 0)),
      B.getNamedAttr("variant",
                     B.getStringAttr(subByte ? variant : std::string("b16")))};
  tile::IntrinsicOp::create(
      B, in.ir->loc(p.call), mlir::TypeRange(), B.getStringAttr(p.info.name),
      operands, B.getArrayAttr(params), B.getDictionaryAttr(options));
  return Value::none();
}
