//===- TileOpsCompute.cpp - Tile compute and element access ops -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers of the tile compute ops (copy, gemm, fill, reduce, cumsum,
// atomic_add) and of element loads and stores. Shape checks decide only what
// is known: static extents, and symbolic extents with identical text; an
// extent that cannot be decided is accepted.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tlc::tile;

/// The shape of \p type for diagnostics: `[128, M]`.
static std::string shapeOf(Value buffer) {
  return cast<BufferType>(buffer.getType()).getShapeString();
}

/// The scope string of a buffer value.
static StringRef scopeOf(Value buffer) {
  return stringifyMemoryScope(cast<BufferType>(buffer.getType()).getScope());
}

/// Rejects barrier buffers as tile operands.
static LogicalResult verifyNotBarrier(Operation *op, Value buffer,
                                      StringRef what) {
  if (isBarrierScope(cast<BufferType>(buffer.getType()).getScope()))
    return op->emitOpError() << what << " must not be a barrier buffer";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  if (failed(verifyNotBarrier(*this, getSrc(), "source")) ||
      failed(verifyNotBarrier(*this, getDst(), "destination")))
    return failure();
  std::optional<bool> agree = shapesAgreeIgnoringUnitDims(
      getBufferType(getSrc()).getDims(), getBufferType(getDst()).getDims());
  if (agree && !*agree)
    return emitOpError("source shape ")
           << shapeOf(getSrc()) << " and destination shape "
           << shapeOf(getDst()) << " do not agree";
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// The two matrix dimensions of a gemm operand: the last two dimensions, all
/// leading dimensions having extent 1. Fails with a diagnostic otherwise.
static FailureOr<std::pair<Dim, Dim>> getMatrixDims(Operation *op, Value buffer,
                                                   StringRef name) {
  auto type = cast<BufferType>(buffer.getType());
  SmallVector<Dim> dims = type.getDims();
  if (dims.size() < 2 ||
      llvm::any_of(ArrayRef<Dim>(dims).drop_back(2),
                   [](const Dim &d) { return d != Dim(1); })) {
    op->emitOpError("operand ")
        << name << " must be a 2-D tile (leading dimensions of extent 1 "
        << "are allowed), got " << type.getShapeString();
    return failure();
  }
  return std::make_pair(dims[dims.size() - 2], dims.back());
}

/// Emits "<what> differ" when \p a and \p b are known to differ.
static LogicalResult checkSameExtent(Operation *op, const Dim &a,
                                     const Dim &b, StringRef what) {
  std::optional<bool> eq = a.equals(b);
  if (eq && !*eq)
    return op->emitOpError() << what << " differ: " << a.str() << " vs " << b.str();
  return success();
}

LogicalResult GemmOp::verify() {
  MemoryScope aScope = getBufferType(getA()).getScope();
  MemoryScope bScope = getBufferType(getB()).getScope();
  MemoryScope cScope = getBufferType(getC()).getScope();
  // Ascend's cube unit (TileLang's Ascend back end): A and B in L1, L0A or
  // L0B, C in L0C. Analysed, never built (tile::checkBuildable).
  auto cubeOperand = [](MemoryScope s) {
    return s == MemoryScope::AscendL1 || s == MemoryScope::AscendL0A ||
           s == MemoryScope::AscendL0B;
  };
  bool ascend = cScope == MemoryScope::AscendL0C;
  if (ascend && (!cubeOperand(aScope) || !cubeOperand(bScope)))
    return emitOpError("with an L0C accumulator operands A and B must be in "
                       "L1, L0A or L0B");
  if (!ascend && !isSharedScope(aScope) && aScope != MemoryScope::Fragment &&
      aScope != MemoryScope::TensorMemory)
    return emitOpError("operand A must be in shared memory or a fragment, "
                       "got '")
           << scopeOf(getA()) << "'";
  if (!ascend && !isSharedScope(bScope) && bScope != MemoryScope::Fragment)
    return emitOpError("operand B must be in shared memory or a fragment, "
                       "got '")
           << scopeOf(getB()) << "'";
  if (!ascend && cScope != MemoryScope::Fragment &&
      cScope != MemoryScope::TensorMemory)
    return emitOpError("accumulator C must be a 'local.fragment' buffer, got '")
           << scopeOf(getC()) << "'";

  FailureOr<std::pair<Dim, Dim>> a = getMatrixDims(*this, getA(), "A");
  FailureOr<std::pair<Dim, Dim>> b = getMatrixDims(*this, getB(), "B");
  FailureOr<std::pair<Dim, Dim>> c = getMatrixDims(*this, getC(), "C");
  if (failed(a) || failed(b) || failed(c))
    return failure();
  auto [m, kA] = *a;
  if (getTransposeA())
    std::swap(m, kA);
  auto [kB, n] = *b;
  if (getTransposeB())
    std::swap(kB, n);
  // Blackwell's CTA pair (`use_2cta`): each CTA holds half of B's columns
  // and the pair's accumulator all of them.
  bool ctaPair = (*this)->hasAttr("tile.use_2cta");
  if (failed(checkSameExtent(*this, kA, kB, "K of A and K of B")) ||
      failed(checkSameExtent(*this, m, c->first, "M of A and rows of C")) ||
      (!ctaPair &&
       failed(checkSameExtent(*this, n, c->second, "N of B and columns of C"))))
    return failure();
  if (ctaPair && n.isStatic() && c->second.isStatic() &&
      c->second.getValue() != 2 * n.getValue())
    return emitOpError("with use_2cta the columns of C must be twice N of B: ")
           << c->second.getValue() << " vs " << n.getValue();

  Type aType = getBufferType(getA()).getElementType();
  Type bType = getBufferType(getB()).getElementType();
  Type cType = getBufferType(getC()).getElementType();
  // The MMA forms that take a type per operand: FP8/FP6/FP4 codes mix
  // (kind::f8f6f4, wgmma e4m3 x e5m2), as do signed and unsigned integers
  // of one width up to 8 bits (.s8.u8).
  bool narrowFloats = isa<FloatType>(aType) && isa<FloatType>(bType) &&
                      aType.getIntOrFloatBitWidth() <= 8 &&
                      bType.getIntOrFloatBitWidth() <= 8;
  bool narrowInts = isa<IntegerType>(aType) && isa<IntegerType>(bType) &&
                    aType.getIntOrFloatBitWidth() ==
                        bType.getIntOrFloatBitWidth() &&
                    aType.getIntOrFloatBitWidth() <= 8;
  if (aType != bType && !narrowFloats && !narrowInts)
    return emitOpError("operands A and B have different element types: ")
           << aType << " vs " << bType;
  if (isa<IntegerType>(aType) != isa<IntegerType>(cType))
    return emitOpError("accumulator element type ")
           << cType << " does not suit operand element type " << aType;
  int64_t kPack = getKPackAttr().getInt();
  int64_t wgWait = getWgWaitAttr().getInt();
  if (kPack < 1)
    return emitOpError("'k_pack' must be at least 1, got ") << kPack;
  if (wgWait < -1)
    return emitOpError("'wg_wait' must be at least -1, got ") << wgWait;
  return success();
}

//===----------------------------------------------------------------------===//
// FillOp, ReduceOp, CumSumOp
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  if (failed(verifyNotBarrier(*this, getDst(), "destination")))
    return failure();
  Type expected = getElementValueType(getBufferType(getDst()));
  if (getValue().getType() != expected)
    return emitOpError("fill value has type ")
           << getValue().getType() << ", expected " << expected;
  return success();
}

LogicalResult ReduceOp::verify() {
  BufferType src = getBufferType(getSrc());
  BufferType dst = getBufferType(getDst());
  int64_t dim = getDimAttr().getInt();
  if (dim >= src.getRank())
    return emitOpError("dim ") << dim << " is out of range for a rank-"
                               << src.getRank() << " source";
  ReduceKind kind = getKind();
  bool bitwise = kind == ReduceKind::BitAnd || kind == ReduceKind::BitOr ||
                 kind == ReduceKind::BitXor;
  if (bitwise && !isa<IntegerType>(src.getElementType()))
    return emitOpError("bitwise reduction '")
           << stringifyReduceKind(kind) << "' needs integer elements, got "
           << src.getElementType();
  SmallVector<Dim> expected = src.getDims();
  if (dst.getRank() == src.getRank())
    expected[dim] = Dim(1);
  else if (dst.getRank() == src.getRank() - 1)
    expected.erase(expected.begin() + dim);
  else
    return emitOpError("destination rank ")
           << dst.getRank() << " must be " << src.getRank() - 1 << " or "
           << src.getRank();
  for (auto [want, have] : llvm::zip_equal(expected, dst.getDims())) {
    std::optional<bool> eq = want.equals(have);
    if (eq && !*eq)
      return emitOpError("destination shape ")
             << dst.getShapeString() << " does not match source shape "
             << src.getShapeString() << " reduced over dim " << dim;
  }
  return success();
}

LogicalResult CumSumOp::verify() {
  BufferType src = getBufferType(getSrc());
  BufferType dst = getBufferType(getDst());
  int64_t dim = getDimAttr().getInt();
  if (dim >= src.getRank())
    return emitOpError("dim ") << dim << " is out of range for a rank-"
                               << src.getRank() << " source";
  bool mismatch = src.getRank() != dst.getRank();
  for (unsigned i = 0; !mismatch && i < src.getRank(); ++i) {
    std::optional<bool> eq = src.getDim(i).equals(dst.getDim(i));
    mismatch = eq && !*eq;
  }
  if (mismatch)
    return emitOpError("destination shape ")
           << dst.getShapeString() << " differs from source shape "
           << src.getShapeString();
  return success();
}

//===----------------------------------------------------------------------===//
// AtomicAddOp
//===----------------------------------------------------------------------===//

LogicalResult AtomicAddOp::verify() {
  BufferType dst = getBufferType(getDst());
  if (dst.getScope() != MemoryScope::Global && !isSharedScope(dst.getScope()))
    return emitOpError("destination must be in global or shared memory, "
                       "got '")
           << stringifyMemoryScope(dst.getScope()) << "'";
  if (!getIndices().empty()) {
    if (getIndices().size() != static_cast<size_t>(dst.getRank()))
      return emitOpError("expects ")
             << dst.getRank() << " indices, got " << getIndices().size();
    Type expected = getElementValueType(dst);
    if (getValue().getType() != expected)
      return emitOpError("value has type ")
             << getValue().getType() << ", expected " << expected;
    if (getPrev() && getPrev().getType() != expected)
      return emitOpError("result has type ")
             << getPrev().getType() << ", expected " << expected;
    return success();
  }
  auto value = dyn_cast<BufferType>(getValue().getType());
  if (!value)
    return emitOpError("without indices the value must be a buffer, got ")
           << getValue().getType();
  if (getPrev())
    return emitOpError("the tile form returns no previous value");
  std::optional<bool> agree =
      shapesAgreeIgnoringUnitDims(dst.getDims(), value.getDims());
  if (agree && !*agree)
    return emitOpError("destination shape ")
           << dst.getShapeString() << " and value shape "
           << value.getShapeString() << " do not agree";
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp, StoreOp
//===----------------------------------------------------------------------===//

/// Checks the index count of an element access: one per dimension, or none
/// for a `local.var` buffer.
static LogicalResult verifyIndexCount(Operation *op, BufferType type,
                                      ValueRange indices) {
  if (indices.empty() && type.getScope() == MemoryScope::LocalVar)
    return success();
  if (indices.size() != static_cast<size_t>(type.getRank()))
    return op->emitOpError("expects ")
           << type.getRank() << " indices for a rank-" << type.getRank()
           << " buffer, got " << indices.size();
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyIndexCount(*this, getBufferType(getBuffer()), getIndices());
}

LogicalResult StoreOp::verify() {
  return verifyIndexCount(*this, getBufferType(getBuffer()), getIndices());
}
