//===- IRGen.h - Building `tile` dialect IR (private) -----------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Helpers the interpreter uses to build Tile IR: locations from source
// ranges, element and buffer types from TileLang dtypes and scopes,
// constants, symbols, conversions and scalar arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_IRGEN_H
#define TLC_LIB_EVAL_IRGEN_H

#include "Interpreter.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tlc::eval {

/// A scalar IR value with its TileLang dtype. Index-typed values (block and
/// loop indices, symbols) have dtype int32 and mlir type `index`.
struct Scalar {
  mlir::Value value;
  lang::DType dtype;
  SymExpr sym;
  explicit operator bool() const { return static_cast<bool>(value); }
};

/// Builds Tile IR for one Interpreter. Not thread-safe.
class IRGen {
public:
  explicit IRGen(Interpreter &interp);
  ~IRGen();

  /// Saves the insertion point and moves it to the module's end; restores
  /// it on destruction (for meta-level code run in the middle of a trace).
  class InsertionGuard {
  public:
    explicit InsertionGuard(IRGen &gen);
    ~InsertionGuard();

  private:
    IRGen &gen;
    mlir::OpBuilder::InsertPoint saved;
  };

  /// A location covering \p r.
  mlir::Location loc(TextRange r);
  mlir::Location loc(Node n) { return loc(n.range()); }
  /// A NameLoc carrying a Python variable name.
  mlir::Location nameLoc(llvm::StringRef name, TextRange r);

  /// Storage element type of a dtype (`f16`, `ui8`, `i4`).
  mlir::Type elementType(lang::DType t);
  /// Type of a loaded element value (signless integers).
  mlir::Type valueType(lang::DType t);
  /// The buffer type of a shape/dtype/scope; null dims become `?`.
  tile::BufferType bufferType(llvm::ArrayRef<SymExpr> shape, lang::DType t,
                              lang::MemoryScope scope);

  /// Starts a tile.func at the module's end; the builder moves into it.
  tile::FuncOp beginFunc(llvm::StringRef name, mlir::Location l);
  /// Adds a parameter to the current function.
  mlir::Value addParam(mlir::Type t, mlir::Location l);
  /// Records attribute \p name = \p value of parameter \p arg of the
  /// current function (finishFunc sets it).
  void setParamAttr(mlir::Value arg, llvm::StringRef name,
                    mlir::Attribute value);
  /// `tile.strides` of a parameter: per dimension, an i64 constant or the
  /// text of a symbolic stride (as symbolic dimensions are spelled).
  mlir::ArrayAttr stridesAttr(llvm::ArrayRef<SymExpr> strides);
  /// Sets the function type, the parameters' attributes and the symbols
  /// clause.
  void finishFunc(tile::FuncOp func,
                  llvm::ArrayRef<std::pair<std::string, int>> symbols);

  mlir::Value constIndex(int64_t v, mlir::Location l);
  mlir::Value constInt(int64_t v, mlir::Type t, mlir::Location l);
  mlir::Value constFloat(double v, mlir::Type t, mlir::Location l);
  /// `tile.symbol "name"` of the current function (cached).
  mlir::Value symbolValue(llvm::StringRef name, mlir::Location l);
  /// The index value of a symbolic expression.
  mlir::Value materialize(SymExpr e, mlir::Location l);
  /// An extent as builders of `tile.parallel` take it: an index attribute
  /// when \p e is a constant, else its materialized value.
  mlir::OpFoldResult foldResult(SymExpr e, mlir::Location l);
  /// Python's `lhs % rhs` on IR values, as TileLang builds it (TVM's
  /// floormod: the result has the sign of \p rhs). Integers the IR shows to
  /// be non-negative over a positive divisor (indices, loop variables,
  /// thread indices) take plain `arith.remsi`; others get the sign fix-up.
  /// Unsigned integers use `arith.remui`; floats `lhs - floor(lhs / rhs) *
  /// rhs`.
  mlir::Value floorMod(mlir::Value lhs, mlir::Value rhs, bool isUnsigned,
                       mlir::Location l);
  /// Converts \p v to type \p to (index/int/float/bool casts).
  mlir::Value convert(mlir::Value v, mlir::Type to, mlir::Location l,
                      bool isUnsigned = false);
  /// Registers the IR value of a symbol (block and loop indices).
  void bindSymbol(SymExpr sym, mlir::Value v) { symValues[sym.getNode()] = v; }

  /// What IRGen keeps of the function it builds besides currentFunc: the
  /// IR values of its symbols and its pending parameter attributes. A
  /// nested trace (an eager @jit called from a trace) builds another
  /// function; its caller saves this and restores it after, or its own
  /// function would use the callee's values (or lose its attributes).
  struct FuncState {
    llvm::DenseMap<const SymNode *, mlir::Value> symValues;
    llvm::StringMap<mlir::Value> symbolCache;
    llvm::SmallVector<std::tuple<unsigned, mlir::StringAttr, mlir::Attribute>,
                      2>
        paramAttrs;
  };
  FuncState saveFuncState() const {
    return {symValues, symbolCache, paramAttrs};
  }
  void restoreFuncState(FuncState saved) {
    symValues = std::move(saved.symValues);
    symbolCache = std::move(saved.symbolCache);
    paramAttrs = std::move(saved.paramAttrs);
  }

  mlir::MLIRContext *ctx;
  mlir::OpBuilder b;
  mlir::ModuleOp module;
  tile::FuncOp currentFunc;

private:
  Interpreter &interp;
  llvm::DenseMap<const SymNode *, mlir::Value> symValues;
  llvm::StringMap<mlir::Value> symbolCache;
  /// setParamAttr's attributes: (parameter number, name, value).
  llvm::SmallVector<std::tuple<unsigned, mlir::StringAttr, mlir::Attribute>, 2>
      paramAttrs;
  mlir::StringAttr fileName;
};

/// Replaces the vector values of a traced function (vector `T.alloc_var`s,
/// `T.Shuffle`/`T.Broadcast`/`T.Ramp`, `T.extract_lane`, elementwise
/// arithmetic, comparisons and casts) by their scalar lanes; leaves the
/// function alone when a vector is used any other way
/// (ScalarizeVectors.cpp).
void scalarizeVectorValues(tile::FuncOp func);

/// The float32 value of the unpacked float code in the low bits of the
/// 8-bit \p code (`float4_e2m1_unpacked`, `float6_e2m3fn_unpacked`,
/// `float6_e3m2fn_unpacked` \p dtype; UnpackedFloats.cpp).
mlir::Value decodeUnpackedFloat(IRGen &ir, mlir::Value code, lang::DType dtype,
                                mlir::Location l);
/// The unpacked float code (an i8, the code in its low bits) of float32
/// \p x: rounded to nearest even, saturated to the largest finite value,
/// NaN to the positive largest code.
mlir::Value encodeUnpackedFloat(IRGen &ir, mlir::Value x, lang::DType dtype,
                                mlir::Location l);

/// TVM's rule for an operation on a vector and a scalar: the scalar (\p a
/// or \p b) becomes a `T.Broadcast` to every lane. False when both are
/// vectors of different lane counts.
bool matchLanes(IRGen &ir, Scalar &a, Scalar &b, mlir::Location l);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_IRGEN_H
