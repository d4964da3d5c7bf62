//===- ScalarizeVectors.cpp - Vector values as their lanes ----------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TileLang programs build small vector values and take them apart again:
//
//   packed = T.alloc_var(T.float16x2)
//   packed = T.float16x2(A[0], A[1])        # tile.intrinsic "T.Shuffle"
//   B[0] = T.extract_lane(packed, 0)        # tile.intrinsic "T.extract_lane"
//
// No target has registers of `vector<N x T>` type; every such value is
// known lane by lane. After a function is traced, this rewrite replaces
// each vector value by its N scalar lanes:
//
// * a `local.var` of vector type becomes a `local` buffer of N elements
//   (stores and loads of the variable store and load every lane);
// * `T.Shuffle` (also what `T.float16x2(a, b)` builds) picks lanes of its
//   vectors and scalars at constant indices; `T.Broadcast` repeats a value;
//   `T.Ramp` is base + i * stride;
// * `T.extract_lane` is the lane (a select over the lanes when the lane
//   number is known only at run time).
//
// A vector value used any other way (an operand of arithmetic, a call)
// leaves the function as it is: the target then says it cannot generate
// that vector type, at the operation.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace tlc;
using namespace tlc::eval;

namespace {
using Lanes = llvm::SmallVector<mlir::Value, 4>;

/// The rewrite of one function.
class Scalarizer {
public:
  explicit Scalarizer(tile::FuncOp func) : func(func), b(func.getContext()) {}

  void run() {
    // Only when every use of a vector value is one this rewrite knows.
    bool known = true;
    func.walk([&](mlir::Operation *op) {
      if (!known || !touchesVectors(op))
        return;
      known = isKnown(op);
    });
    if (!known)
      return;
    bool failed = false;
    func.walk([&](mlir::Operation *op) {
      if (!failed && touchesVectors(op))
        failed = !rewrite(op);
    });
    if (failed)
      return;
    for (mlir::Operation *op : llvm::reverse(dead)) {
      op->dropAllUses();
      op->erase();
    }
  }

private:
  tile::FuncOp func;
  mlir::OpBuilder b;
  llvm::DenseMap<mlir::Value, Lanes> lanes;
  llvm::DenseMap<mlir::Value, mlir::Value> buffers;
  llvm::SmallVector<mlir::Operation *, 16> dead;

  static mlir::VectorType vectorOf(mlir::Type t) {
    if (auto bt = mlir::dyn_cast<tile::BufferType>(t))
      return mlir::dyn_cast<mlir::VectorType>(bt.getElementType());
    return mlir::dyn_cast<mlir::VectorType>(t);
  }
  static bool touchesVectors(mlir::Operation *op) {
    for (mlir::Type t : op->getOperandTypes())
      if (vectorOf(t))
        return true;
    for (mlir::Type t : op->getResultTypes())
      if (vectorOf(t))
        return true;
    return false;
  }
  static bool isVarBuffer(mlir::Value v) {
    auto bt = mlir::dyn_cast<tile::BufferType>(v.getType());
    return bt && bt.getScope() == tile::MemoryScope::LocalVar &&
           v.getDefiningOp<tile::AllocOp>();
  }
  /// The callee of an intrinsic this rewrite handles, or "".
  static llvm::StringRef knownCallee(mlir::Operation *op) {
    auto in = mlir::dyn_cast<tile::IntrinsicOp>(op);
    if (!in)
      return "";
    llvm::StringRef c = in.getCallee();
    return c == "T.Shuffle" || c == "T.Broadcast" || c == "T.Ramp" ||
                   c == "T.extract_lane"
               ? c
               : "";
  }
  static bool isKnown(mlir::Operation *op) {
    if (auto a = mlir::dyn_cast<tile::AllocOp>(op)) {
      auto t = mlir::cast<tile::BufferType>(a.getResult().getType());
      return t.getScope() == tile::MemoryScope::LocalVar && !a.getInit() &&
             t.getRank() == 1 && t.getDimSize(0) == 1;
    }
    if (auto l = mlir::dyn_cast<tile::LoadOp>(op))
      return isVarBuffer(l.getBuffer());
    if (auto s = mlir::dyn_cast<tile::StoreOp>(op))
      return isVarBuffer(s.getBuffer());
    return !knownCallee(op).empty();
  }

  mlir::Value index(int64_t i, mlir::Location l) {
    return mlir::arith::ConstantIndexOp::create(b, l, i);
  }
  static std::optional<int64_t> constant(mlir::Value v) {
    llvm::APInt c;
    if (mlir::matchPattern(v, mlir::m_ConstantInt(&c)))
      return c.getSExtValue();
    return std::nullopt;
  }
  /// The lanes of \p v: its own for a vector, itself for a scalar.
  std::optional<Lanes> lanesOf(mlir::Value v) {
    if (!vectorOf(v.getType()))
      return Lanes{v};
    auto it = lanes.find(v);
    if (it == lanes.end())
      return std::nullopt;
    return it->second;
  }

  bool rewrite(mlir::Operation *op) {
    b.setInsertionPoint(op);
    mlir::Location l = op->getLoc();
    if (auto a = mlir::dyn_cast<tile::AllocOp>(op)) {
      mlir::VectorType vt = vectorOf(a.getResult().getType());
      auto t = tile::BufferType::get({vt.getNumElements()}, vt.getElementType(),
                                     tile::MemoryScope::Local);
      mlir::Value buf = tile::AllocOp::create(b, l, t, mlir::Value());
      buffers[a.getResult()] = buf;
      dead.push_back(op);
      return true;
    }
    if (auto s = mlir::dyn_cast<tile::StoreOp>(op)) {
      std::optional<Lanes> v = lanesOf(s.getValue());
      mlir::Value buf = buffers.lookup(s.getBuffer());
      if (!v || !buf)
        return false;
      for (auto [i, x] : llvm::enumerate(*v))
        tile::StoreOp::create(b, l, x, buf, mlir::ValueRange{index(i, l)});
      dead.push_back(op);
      return true;
    }
    if (auto ld = mlir::dyn_cast<tile::LoadOp>(op)) {
      mlir::Value buf = buffers.lookup(ld.getBuffer());
      mlir::VectorType vt = vectorOf(ld.getType());
      if (!buf || !vt)
        return false;
      Lanes v;
      for (int64_t i = 0; i < vt.getNumElements(); ++i)
        v.push_back(tile::LoadOp::create(b, l, buf,
                                         mlir::ValueRange{index(i, l)}));
      lanes[ld.getResult()] = v;
      dead.push_back(op);
      return true;
    }
    auto in = mlir::cast<tile::IntrinsicOp>(op);
    llvm::StringRef callee = knownCallee(op);
    llvm::SmallVector<mlir::Value, 8> args(in.getArgs());
    llvm::ArrayRef<mlir::Attribute> params = in.getParams().getValue();
    auto param = [&](size_t i) {
      return i < params.size()
                 ? mlir::cast<mlir::StringAttr>(params[i]).getValue()
                 : llvm::StringRef();
    };
    Lanes out;
    if (callee == "T.extract_lane") {
      std::optional<Lanes> v = args.empty() ? std::nullopt : lanesOf(args[0]);
      if (!v || args.size() != 2)
        return false;
      if (std::optional<int64_t> k = constant(args[1])) {
        if (*k < 0 || *k >= int64_t(v->size()))
          return false;
        in->getResult(0).replaceAllUsesWith((*v)[*k]);
      } else {
        mlir::Value r = (*v)[0];
        for (size_t k = 1; k < v->size(); ++k) {
          mlir::Value c = mlir::arith::ConstantOp::create(
              b, l, args[1].getType(),
              b.getIntegerAttr(args[1].getType(), k));
          mlir::Value eq = mlir::arith::CmpIOp::create(
              b, l, mlir::arith::CmpIPredicate::eq, args[1], c);
          r = mlir::arith::SelectOp::create(b, l, eq, (*v)[k], r);
        }
        in->getResult(0).replaceAllUsesWith(r);
      }
      dead.push_back(op);
      return true;
    }
    mlir::VectorType vt = vectorOf(in->getResult(0).getType());
    if (!vt)
      return false;
    int64_t n = vt.getNumElements();
    if (callee == "T.Shuffle") {
      Lanes pool;
      llvm::SmallVector<int64_t, 8> picks;
      for (auto [i, a] : llvm::enumerate(args)) {
        if (param(i) == "vectors") {
          std::optional<Lanes> v = lanesOf(a);
          if (!v)
            return false;
          pool.append(v->begin(), v->end());
        } else if (std::optional<int64_t> k = constant(a)) {
          picks.push_back(*k);
        } else {
          return false;
        }
      }
      for (int64_t k : picks) {
        if (k < 0 || k >= int64_t(pool.size()))
          return false;
        out.push_back(pool[k]);
      }
    } else if (callee == "T.Broadcast") {
      if (args.size() != 1)
        return false;
      out.assign(n, args[0]);
    } else { // T.Ramp
      if (args.size() != 2 || !mlir::isa<mlir::IntegerType>(args[0].getType()))
        return false;
      for (int64_t i = 0; i < n; ++i) {
        mlir::Value c = mlir::arith::ConstantOp::create(
            b, l, args[1].getType(), b.getIntegerAttr(args[1].getType(), i));
        mlir::Value step = mlir::arith::MulIOp::create(b, l, args[1], c);
        out.push_back(mlir::arith::AddIOp::create(b, l, args[0], step));
      }
    }
    if (int64_t(out.size()) != n ||
        llvm::any_of(out, [&](mlir::Value x) {
          return x.getType() != vt.getElementType();
        }))
      return false;
    lanes[in->getResult(0)] = out;
    dead.push_back(op);
    return true;
  }
};
} // namespace

void eval::scalarizeVectorValues(tile::FuncOp func) { Scalarizer(func).run(); }
