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
//   `T.Ramp` is base + i * stride (integer or float lanes);
// * `T.extract_lane` is the lane (a select over the lanes when the lane
//   number is known only at run time);
// * `T.ldg32/64/128/256(src, pred)` (one to eight 32-bit words of global
//   memory) are the words of `src`'s elements, each a load, 0 where `pred`
//   is false; `T.stg32/64/128/256(dst, value, pred)` store the words into
//   `dst`'s elements under `pred`; `arith.bitcast` between vectors is lane
//   by lane, and
//   `T.buffer_store` of a vector into a region stores every lane;
// * `T.reinterpret` between types of one width and different lane counts
//   (uint32x2 <-> float16x4 / bfloat16x4, uint64 -> int8x8, ...) is a bit
//   cast: lane 0 holds the lowest bits, as NumPy's `.view()` and memory on
//   a little-endian machine order them; the lanes are split with shifts
//   and truncations or joined with extensions, shifts and ors;
// * `T.ds_read_tr16_b64` / `T.ds_read_tr8_b64` (gfx950's transposing LDS
//   reads, an exchange between the lanes) stay one intrinsic whose value
//   is the 64 bits; the two words are its halves;
// * TileLang's packed x2 math (`T.add2`, `T.sub2`, `T.mul2`, `T.max2`,
//   `T.min2`, `T.fma2`, `T.abs2` on float32x2 / float16x2 / bfloat16x2) is
//   the float op on each lane: fma2 a fused multiply-add per lane, max2 /
//   min2 IEEE maxNum / minNum (CUDA's fmaxf, __hmax2).
//
// * arithmetic, comparisons, casts, selects and math functions of vectors
//   (the elementwise `arith` and `math` ops the evaluator builds for
//   `v + w`, `v * 2`, `v < w`, `T.Cast(T.float32x2, v)`, `T.max(v, w)`)
//   are the same op on each lane, a scalar operand in every lane; a vector
//   `arith.constant` is its elements.
//
// * a shared, fragment or local buffer of vector elements (`int8x2`,
//   `float16x2` tiles, as in TileLang's issue-2714 test) becomes a buffer
//   of its scalars with the lanes as one more innermost dimension: an
//   element load or store is one per lane, a region (`S[r, 8:40]`) covers
//   every lane, and T.copy / T.any_of / T.all_of read the same elements
//   from the new buffer. A layout annotated for such a buffer is dropped
//   (it described vector elements; the default layout of the scalars
//   takes its place, which changes no value).
//
// A vector value used any other way (a call) leaves the function as it
// is: the target then says it cannot generate that vector type, at the
// operation.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace tlc;
using namespace tlc::eval;

namespace {
using Lanes = llvm::SmallVector<mlir::Value, 4>;

/// The element width of a rank-1 buffer that `T.ldg*` / `T.stg*` read or
/// write as 32-bit words (8, 16 or 32 bits); std::nullopt for any other.
std::optional<unsigned> wordElementBits(tile::BufferType bt) {
  if (!bt || bt.getRank() != 1 || !bt.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned bits = bt.getElementType().getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32)
    return std::nullopt;
  return bits;
}

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
  /// Buffers of vector elements and their scalar buffers (lanes innermost).
  llvm::DenseMap<mlir::Value, mlir::Value> expanded;
  llvm::SmallVector<mlir::Operation *, 16> dead;

  static mlir::VectorType vectorOf(mlir::Type t) {
    if (auto bt = mlir::dyn_cast<tile::BufferType>(t))
      return mlir::dyn_cast<mlir::VectorType>(bt.getElementType());
    return mlir::dyn_cast<mlir::VectorType>(t);
  }
  static bool isLdg(llvm::StringRef c) {
    return c == "T.ldg32" || c == "T.ldg64" || c == "T.ldg128" ||
           c == "T.ldg256";
  }
  static bool isStg(llvm::StringRef c) {
    return c == "T.stg32" || c == "T.stg64" || c == "T.stg128" ||
           c == "T.stg256";
  }
  static bool touchesVectors(mlir::Operation *op) {
    if (auto in = mlir::dyn_cast<tile::IntrinsicOp>(op))
      if (isLdg(in.getCallee()) || isStg(in.getCallee()))
        return true;
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
  /// A shared, fragment or local buffer of vector elements, or a region
  /// of one: its elements become lanes of one more dimension.
  static bool isExpandable(mlir::Value v) {
    auto bt = mlir::dyn_cast<tile::BufferType>(v.getType());
    auto vt = bt ? mlir::dyn_cast<mlir::VectorType>(bt.getElementType())
                 : mlir::VectorType();
    if (!vt || vt.getRank() != 1 || vt.isScalable())
      return false;
    if (auto r = v.getDefiningOp<tile::RegionOp>())
      return isExpandable(r.getSource());
    auto a = v.getDefiningOp<tile::AllocOp>();
    tile::MemoryScope scope = bt.getScope();
    return a && !a.getInit() &&
           (tile::isSharedScope(scope) ||
            scope == tile::MemoryScope::Fragment ||
            scope == tile::MemoryScope::Local);
  }
  /// An op that reads or writes whole regions of buffers and works on the
  /// expanded buffer unchanged (every lane of each element).
  static bool takesExpandedBuffers(mlir::Operation *op) {
    bool buffersOnly = llvm::all_of(op->getOperands(), [](mlir::Value v) {
      return !vectorOf(v.getType()) || isExpandable(v);
    });
    if (!buffersOnly || llvm::any_of(op->getResultTypes(), [](mlir::Type t) {
          return vectorOf(t) != nullptr;
        }))
      return false;
    if (mlir::isa<tile::CopyOp>(op))
      return true;
    auto in = mlir::dyn_cast<tile::IntrinsicOp>(op);
    return in && (in.getCallee() == "T.any_of" || in.getCallee() == "T.all_of");
  }
  /// The callee of an intrinsic this rewrite handles, or "".
  static llvm::StringRef knownCallee(mlir::Operation *op) {
    auto in = mlir::dyn_cast<tile::IntrinsicOp>(op);
    if (!in)
      return "";
    llvm::StringRef c = in.getCallee();
    return c == "T.Shuffle" || c == "T.Broadcast" || c == "T.Ramp" ||
                   c == "T.extract_lane" || isLdg(c) || isStg(c) ||
                   c == "T.buffer_store" || isPacked(c) || isReadTr(c) ||
                   c == "T.reinterpret"
               ? c
               : "";
  }
  /// gfx950's transposing LDS reads, whose uint32x2 is one 64-bit read.
  static bool isReadTr(llvm::StringRef c) {
    return c == "T.ds_read_tr16_b64" || c == "T.ds_read_tr8_b64";
  }
  /// TileLang's packed two-lane float math (`tl.add2` ... `tl.abs2`).
  static bool isPacked(llvm::StringRef c) {
    return c == "T.add2" || c == "T.sub2" || c == "T.mul2" ||
           c == "T.max2" || c == "T.min2" || c == "T.fma2" || c == "T.abs2";
  }
  /// Lane \p i of a packed op \p callee on scalar operands \p x: the same
  /// arithmetic on that lane (fma2 one fused multiply-add, max2 / min2
  /// IEEE maxNum / minNum as CUDA's fmaxf / __hmax2 are); null for a
  /// non-float lane or a wrong operand count.
  mlir::Value packedLane(llvm::StringRef callee, llvm::ArrayRef<mlir::Value> x,
                         mlir::Location l) {
    if (x.empty() || !mlir::isa<mlir::FloatType>(x[0].getType()) ||
        llvm::any_of(x, [&](mlir::Value v) {
          return v.getType() != x[0].getType();
        }))
      return {};
    size_t arity = callee == "T.abs2" ? 1 : callee == "T.fma2" ? 3 : 2;
    if (x.size() != arity)
      return {};
    if (callee == "T.add2")
      return mlir::arith::AddFOp::create(b, l, x[0], x[1]);
    if (callee == "T.sub2")
      return mlir::arith::SubFOp::create(b, l, x[0], x[1]);
    if (callee == "T.mul2")
      return mlir::arith::MulFOp::create(b, l, x[0], x[1]);
    if (callee == "T.max2")
      return mlir::arith::MaxNumFOp::create(b, l, x[0], x[1]);
    if (callee == "T.min2")
      return mlir::arith::MinNumFOp::create(b, l, x[0], x[1]);
    if (callee == "T.fma2")
      return mlir::math::FmaOp::create(b, l, x[0], x[1], x[2]);
    return mlir::math::AbsFOp::create(b, l, x[0]);
  }
  /// An elementwise `arith` / `math` op whose vector operands and results
  /// all have one lane count (a scalar operand is in every lane).
  static bool isLaneWise(mlir::Operation *op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    if ((dialect != "arith" && dialect != "math") ||
        !op->hasTrait<mlir::OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        !vectorOf(op->getResult(0).getType()))
      return false;
    int64_t n = vectorOf(op->getResult(0).getType()).getNumElements();
    return llvm::all_of(op->getOperandTypes(), [&](mlir::Type t) {
      mlir::VectorType vt = vectorOf(t);
      return vt ? vt.getNumElements() == n && vt.getRank() == 1 : t.isIntOrFloat();
    });
  }
  /// A vector `arith.constant` of scalar elements.
  static bool isVectorConstant(mlir::Operation *op) {
    auto c = mlir::dyn_cast<mlir::arith::ConstantOp>(op);
    mlir::VectorType vt = c ? vectorOf(c.getType()) : mlir::VectorType();
    return vt && vt.getRank() == 1 &&
           mlir::isa<mlir::DenseElementsAttr>(c.getValue());
  }
  static bool isKnown(mlir::Operation *op) {
    if (isLaneWise(op) || isVectorConstant(op))
      return true;
    if (auto a = mlir::dyn_cast<tile::AllocOp>(op)) {
      auto t = mlir::cast<tile::BufferType>(a.getResult().getType());
      return (t.getScope() == tile::MemoryScope::LocalVar && !a.getInit() &&
              t.getRank() == 1 && t.getDimSize(0) == 1) ||
             isExpandable(a.getResult());
    }
    if (auto l = mlir::dyn_cast<tile::LoadOp>(op))
      return isVarBuffer(l.getBuffer()) || isExpandable(l.getBuffer());
    if (auto s = mlir::dyn_cast<tile::StoreOp>(op))
      return isVarBuffer(s.getBuffer()) || isExpandable(s.getBuffer());
    if (auto r = mlir::dyn_cast<tile::RegionOp>(op))
      return isExpandable(r.getResult());
    if (auto a = mlir::dyn_cast<tile::AnnotateLayoutOp>(op))
      return isExpandable(a.getBuffer());
    if (takesExpandedBuffers(op))
      return true;
    if (auto c = mlir::dyn_cast<mlir::arith::BitcastOp>(op))
      return vectorOf(c.getIn().getType()) && vectorOf(c.getType());
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

  /// T.ldgN(src[, pred]): the N / 32 words of src's elements (1-D, 8, 16
  /// or 32 bits each, little-endian in a word as in memory).
  bool rewriteLdg(tile::IntrinsicOp in) {
    mlir::Location l = in.getLoc();
    llvm::SmallVector<mlir::Value, 2> args(in.getArgs());
    if (args.empty() || args.size() > 2)
      return false;
    auto bt = mlir::dyn_cast<tile::BufferType>(args[0].getType());
    mlir::Type result = in->getResult(0).getType();
    mlir::VectorType vt = vectorOf(result);
    int64_t words = vt ? vt.getNumElements() : 1;
    mlir::Type i32 = b.getI32Type();
    std::optional<unsigned> wordBits = wordElementBits(bt);
    if (!wordBits)
      return false;
    mlir::Type elem = bt.getElementType();
    unsigned bits = *wordBits;
    int64_t per = 32 / bits;
    if (bt.getDimSize(0) != mlir::ShapedType::kDynamic &&
        bt.getDimSize(0) < words * per)
      return false;
    mlir::Type value = tile::getElementValueType(elem);
    mlir::Type raw = b.getIntegerType(bits);
    Lanes out;
    for (int64_t w = 0; w < words; ++w) {
      mlir::Value word;
      for (int64_t k = 0; k < per; ++k) {
        mlir::Value x = tile::LoadOp::create(
            b, l, value, args[0], mlir::ValueRange{index(w * per + k, l)});
        if (!mlir::isa<mlir::IntegerType>(x.getType()))
          x = mlir::arith::BitcastOp::create(b, l, raw, x);
        if (bits < 32)
          x = mlir::arith::ExtUIOp::create(b, l, i32, x);
        if (k) {
          mlir::Value sh = mlir::arith::ConstantOp::create(
              b, l, i32, b.getI32IntegerAttr(k * bits));
          x = mlir::arith::ShLIOp::create(b, l, x, sh);
          x = mlir::arith::OrIOp::create(b, l, word, x);
        }
        word = x;
      }
      if (args.size() == 2) {
        mlir::Value zero = mlir::arith::ConstantOp::create(
            b, l, i32, b.getI32IntegerAttr(0));
        mlir::Value p = args[1];
        if (!p.getType().isInteger(1))
          return false;
        word = mlir::arith::SelectOp::create(b, l, p, word, zero);
      }
      out.push_back(word);
    }
    if (vt)
      lanes[in->getResult(0)] = out;
    else
      in->getResult(0).replaceAllUsesWith(out[0]);
    dead.push_back(in);
    return true;
  }

  /// T.ds_read_tr16_b64 / T.ds_read_tr8_b64 (src): one read of the lane's
  /// 8 bytes and the wavefront's exchange, kept as one intrinsic whose
  /// value is the 64 bits (an instruction that exchanges between lanes
  /// must not be split in two); the words are its low and high halves.
  bool rewriteReadTr(tile::IntrinsicOp in) {
    mlir::Location l = in.getLoc();
    mlir::VectorType vt = vectorOf(in->getResult(0).getType());
    mlir::Type i32 = b.getI32Type(), i64 = b.getI64Type();
    if (!vt || vt.getNumElements() != 2 || vt.getElementType() != i32)
      return false;
    llvm::SmallVector<mlir::Type, 1> types{i64};
    auto whole =
        tile::IntrinsicOp::create(b, l, types, in.getCalleeAttr(), in.getArgs(),
                                  in.getParams(), in.getOptionsAttr());
    mlir::Value high = mlir::arith::ShRUIOp::create(
        b, l, whole->getResult(0),
        mlir::arith::ConstantOp::create(b, l, i64, b.getI64IntegerAttr(32)));
    lanes[in->getResult(0)] = {
        mlir::arith::TruncIOp::create(b, l, i32, whole->getResult(0)),
        mlir::arith::TruncIOp::create(b, l, i32, high)};
    dead.push_back(in);
    return true;
  }

  /// T.reinterpret(value) to a type of the same width and another lane
  /// count: the bits of value's lanes (lane 0 lowest) cut into, or joined
  /// into, the result's lanes. A scalar is one lane; a scalar result takes
  /// the place of the intrinsic's value.
  bool rewriteReinterpret(tile::IntrinsicOp in) {
    mlir::Location l = in.getLoc();
    if (in.getArgs().size() != 1 || in->getNumResults() != 1)
      return false;
    std::optional<Lanes> v = lanesOf(in.getArgs()[0]);
    mlir::Type result = in->getResult(0).getType();
    mlir::VectorType vt = vectorOf(result);
    mlir::Type outElem = vt ? vt.getElementType() : result;
    int64_t outLanes = vt ? vt.getNumElements() : 1;
    if (!v || v->empty() || !outElem.isIntOrFloat())
      return false;
    mlir::Type inElem = (*v)[0].getType();
    if (!inElem.isIntOrFloat() ||
        llvm::any_of(*v, [&](mlir::Value x) { return x.getType() != inElem; }))
      return false;
    unsigned inBits = inElem.getIntOrFloatBitWidth();
    unsigned outBits = outElem.getIntOrFloatBitWidth();
    if (inBits < 8 || outBits < 8 ||
        int64_t(inBits) * int64_t(v->size()) != int64_t(outBits) * outLanes ||
        (inBits % outBits != 0 && outBits % inBits != 0))
      return false;
    // A lane as an integer of its width, and back.
    auto toInt = [&](mlir::Value x) -> mlir::Value {
      if (mlir::isa<mlir::IntegerType>(x.getType()))
        return x;
      return mlir::arith::BitcastOp::create(
          b, l, b.getIntegerType(x.getType().getIntOrFloatBitWidth()), x);
    };
    auto fromInt = [&](mlir::Value x) -> mlir::Value {
      if (x.getType() == outElem)
        return x;
      return mlir::arith::BitcastOp::create(b, l, outElem, x);
    };
    mlir::Type inInt = b.getIntegerType(inBits);
    mlir::Type outInt = b.getIntegerType(outBits);
    Lanes out;
    if (inBits >= outBits) {
      // Each input lane holds inBits / outBits result lanes.
      for (mlir::Value x : *v) {
        mlir::Value word = toInt(x);
        for (unsigned k = 0; k < inBits / outBits; ++k) {
          mlir::Value part = word;
          if (k)
            part = mlir::arith::ShRUIOp::create(
                b, l, word,
                mlir::arith::ConstantOp::create(
                    b, l, inInt, b.getIntegerAttr(inInt, k * outBits)));
          if (outBits < inBits)
            part = mlir::arith::TruncIOp::create(b, l, outInt, part);
          out.push_back(fromInt(part));
        }
      }
    } else {
      // Each result lane joins outBits / inBits input lanes.
      unsigned per = outBits / inBits;
      for (int64_t o = 0; o < outLanes; ++o) {
        mlir::Value word;
        for (unsigned k = 0; k < per; ++k) {
          mlir::Value part = mlir::arith::ExtUIOp::create(
              b, l, outInt, toInt((*v)[o * per + k]));
          if (k) {
            part = mlir::arith::ShLIOp::create(
                b, l, part,
                mlir::arith::ConstantOp::create(
                    b, l, outInt, b.getIntegerAttr(outInt, k * inBits)));
            part = mlir::arith::OrIOp::create(b, l, word, part);
          }
          word = part;
        }
        out.push_back(fromInt(word));
      }
    }
    if (int64_t(out.size()) != outLanes)
      return false;
    if (vt)
      lanes[in->getResult(0)] = out;
    else
      in->getResult(0).replaceAllUsesWith(out[0]);
    dead.push_back(in);
    return true;
  }

  /// T.stgN(dst, value[, pred]): the 32-bit words of value (a word or a
  /// vector of them) into dst's elements, only where pred holds.
  bool rewriteStg(tile::IntrinsicOp in) {
    mlir::Location l = in.getLoc();
    llvm::SmallVector<mlir::Value, 3> args(in.getArgs());
    if (args.size() < 2 || args.size() > 3)
      return false;
    auto bt = mlir::dyn_cast<tile::BufferType>(args[0].getType());
    std::optional<Lanes> v = lanesOf(args[1]);
    std::optional<unsigned> wordBits = wordElementBits(bt);
    if (!v || !wordBits)
      return false;
    mlir::Type elem = bt.getElementType();
    unsigned bits = *wordBits;
    int64_t per = 32 / bits;
    mlir::Type i32 = b.getI32Type(), raw = b.getIntegerType(bits);
    mlir::Type value = tile::getElementValueType(elem);
    for (mlir::Value w : *v)
      if (!w.getType().isIntOrFloat() || w.getType().getIntOrFloatBitWidth() != 32)
        return false;
    std::optional<mlir::OpBuilder::InsertionGuard> guard;
    if (args.size() == 3) {
      if (!args[2].getType().isInteger(1))
        return false;
      auto ifOp = tile::IfOp::create(b, l, args[2], /*withElse=*/false);
      guard.emplace(b);
      b.setInsertionPointToEnd(ifOp.thenBlock());
    }
    for (auto [w, word] : llvm::enumerate(*v)) {
      mlir::Value bitsOf = word;
      if (!mlir::isa<mlir::IntegerType>(bitsOf.getType()))
        bitsOf = mlir::arith::BitcastOp::create(b, l, i32, bitsOf);
      for (int64_t k = 0; k < per; ++k) {
        mlir::Value x = bitsOf;
        if (k) {
          mlir::Value sh = mlir::arith::ConstantOp::create(
              b, l, i32, b.getI32IntegerAttr(k * bits));
          x = mlir::arith::ShRUIOp::create(b, l, x, sh);
        }
        if (bits < 32)
          x = mlir::arith::TruncIOp::create(b, l, raw, x);
        if (x.getType() != value)
          x = mlir::arith::BitcastOp::create(b, l, value, x);
        tile::StoreOp::create(b, l, x, args[0],
                              mlir::ValueRange{index(w * per + k, l)});
      }
    }
    dead.push_back(in);
    return true;
  }

  /// The scalar buffer type of an expandable buffer type: the lanes one
  /// more innermost dimension.
  static tile::BufferType expandedType(mlir::Type t) {
    auto bt = mlir::cast<tile::BufferType>(t);
    auto vt = mlir::cast<mlir::VectorType>(bt.getElementType());
    llvm::SmallVector<tile::Dim, 4> dims = bt.getDims();
    dims.push_back(tile::Dim(vt.getNumElements()));
    return tile::BufferType::get(bt.getContext(), dims, vt.getElementType(),
                                 bt.getScope());
  }
  /// The indices of lane \p i of the element at \p idx.
  llvm::SmallVector<mlir::Value, 4> laneIndices(mlir::ValueRange idx, int64_t i,
                                                mlir::Location l) {
    llvm::SmallVector<mlir::Value, 4> out(idx);
    out.push_back(index(i, l));
    return out;
  }

  /// Rewrites an op on buffers of vector elements (isExpandable).
  bool rewriteExpanded(mlir::Operation *op) {
    mlir::Location l = op->getLoc();
    if (auto a = mlir::dyn_cast<tile::AllocOp>(op)) {
      expanded[a.getResult()] = tile::AllocOp::create(
          b, l, expandedType(a.getResult().getType()), mlir::Value());
      dead.push_back(op);
      return true;
    }
    if (auto r = mlir::dyn_cast<tile::RegionOp>(op)) {
      mlir::Value src = expanded.lookup(r.getSource());
      if (!src)
        return false;
      llvm::SmallVector<mlir::OpFoldResult, 4> offsets = r.getMixedOffsets();
      offsets.push_back(b.getIndexAttr(0));
      expanded[r.getResult()] = tile::RegionOp::create(
          b, l, expandedType(r.getResult().getType()), src, offsets);
      dead.push_back(op);
      return true;
    }
    if (mlir::isa<tile::AnnotateLayoutOp>(op)) {
      dead.push_back(op);
      return true;
    }
    if (auto ld = mlir::dyn_cast<tile::LoadOp>(op)) {
      mlir::Value buf = expanded.lookup(ld.getBuffer());
      mlir::VectorType vt = vectorOf(ld.getType());
      if (!buf || !vt)
        return false;
      Lanes v;
      for (int64_t i = 0; i < vt.getNumElements(); ++i)
        v.push_back(tile::LoadOp::create(b, l, buf,
                                         laneIndices(ld.getIndices(), i, l)));
      lanes[ld.getResult()] = v;
      dead.push_back(op);
      return true;
    }
    if (auto st = mlir::dyn_cast<tile::StoreOp>(op)) {
      mlir::Value buf = expanded.lookup(st.getBuffer());
      std::optional<Lanes> v = lanesOf(st.getValue());
      if (!buf || !v ||
          int64_t(v->size()) !=
              vectorOf(st.getBuffer().getType()).getNumElements())
        return false;
      for (auto [i, x] : llvm::enumerate(*v))
        tile::StoreOp::create(b, l, x, buf,
                              laneIndices(st.getIndices(), int64_t(i), l));
      dead.push_back(op);
      return true;
    }
    // T.copy, T.any_of, T.all_of: the same op on the scalar buffers.
    for (mlir::OpOperand &use : op->getOpOperands())
      if (vectorOf(use.get().getType())) {
        mlir::Value buf = expanded.lookup(use.get());
        if (!buf)
          return false;
        use.set(buf);
      }
    return true;
  }

  bool rewrite(mlir::Operation *op) {
    b.setInsertionPoint(op);
    mlir::Location l = op->getLoc();
    if (auto a = mlir::dyn_cast<tile::AllocOp>(op);
        a && isExpandable(a.getResult()))
      return rewriteExpanded(op);
    if (mlir::isa<tile::RegionOp, tile::AnnotateLayoutOp>(op) ||
        takesExpandedBuffers(op))
      return rewriteExpanded(op);
    if (auto ld = mlir::dyn_cast<tile::LoadOp>(op);
        ld && isExpandable(ld.getBuffer()))
      return rewriteExpanded(op);
    if (auto st = mlir::dyn_cast<tile::StoreOp>(op);
        st && isExpandable(st.getBuffer()))
      return rewriteExpanded(op);
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
    if (isVectorConstant(op)) {
      auto c = mlir::cast<mlir::arith::ConstantOp>(op);
      auto elements = mlir::cast<mlir::DenseElementsAttr>(c.getValue());
      mlir::Type elem = vectorOf(c.getType()).getElementType();
      Lanes out;
      for (mlir::Attribute x : elements.getValues<mlir::Attribute>())
        out.push_back(mlir::arith::ConstantOp::create(
            b, l, elem, mlir::cast<mlir::TypedAttr>(x)));
      lanes[c.getResult()] = out;
      dead.push_back(op);
      return true;
    }
    if (isLaneWise(op)) {
      int64_t n = vectorOf(op->getResult(0).getType()).getNumElements();
      mlir::Type elem = vectorOf(op->getResult(0).getType()).getElementType();
      llvm::SmallVector<Lanes, 3> operands;
      for (mlir::Value x : op->getOperands()) {
        std::optional<Lanes> v = lanesOf(x);
        if (!v)
          return false;
        operands.push_back(*v);
      }
      Lanes out;
      for (int64_t i = 0; i < n; ++i) {
        mlir::IRMapping map;
        for (auto [x, v] : llvm::zip(op->getOperands(), operands))
          map.map(x, v.size() == 1 ? v[0] : v[i]);
        mlir::Operation *lane = b.clone(*op, map);
        lane->getResult(0).setType(elem);
        out.push_back(lane->getResult(0));
      }
      lanes[op->getResult(0)] = out;
      dead.push_back(op);
      return true;
    }
    if (auto c = mlir::dyn_cast<mlir::arith::BitcastOp>(op)) {
      std::optional<Lanes> v = lanesOf(c.getIn());
      mlir::VectorType to = vectorOf(c.getType());
      if (!v || !to || int64_t(v->size()) != to.getNumElements())
        return false;
      Lanes out;
      for (mlir::Value x : *v) {
        if (x.getType().getIntOrFloatBitWidth() !=
            to.getElementType().getIntOrFloatBitWidth())
          return false;
        out.push_back(
            mlir::arith::BitcastOp::create(b, l, to.getElementType(), x));
      }
      lanes[c.getResult()] = out;
      dead.push_back(op);
      return true;
    }
    auto in = mlir::cast<tile::IntrinsicOp>(op);
    llvm::StringRef callee = knownCallee(op);
    if (isLdg(callee))
      return rewriteLdg(in);
    if (isStg(callee))
      return rewriteStg(in);
    if (isReadTr(callee))
      return rewriteReadTr(in);
    if (callee == "T.reinterpret")
      return rewriteReinterpret(in);
    if (callee == "T.buffer_store") {
      if (in.getArgs().size() != 2)
        return false;
      mlir::Value buf = in.getArgs()[0];
      auto bt = mlir::dyn_cast<tile::BufferType>(buf.getType());
      std::optional<Lanes> v = lanesOf(in.getArgs()[1]);
      if (!bt || !v || !bt.hasStaticShape() || bt.getRank() != 1 ||
          bt.getNumElements() != int64_t(v->size()) ||
          (*v)[0].getType() != tile::getElementValueType(bt.getElementType()))
        return false;
      for (auto [i, x] : llvm::enumerate(*v))
        tile::StoreOp::create(b, l, x, buf, mlir::ValueRange{index(i, l)});
      dead.push_back(op);
      return true;
    }
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
    } else if (isPacked(callee)) {
      llvm::SmallVector<Lanes, 3> operands;
      for (mlir::Value a : args) {
        std::optional<Lanes> v = lanesOf(a);
        if (!v || (v->size() != 1 && int64_t(v->size()) != n))
          return false;
        operands.push_back(*v);
      }
      for (int64_t i = 0; i < n; ++i) {
        llvm::SmallVector<mlir::Value, 3> x;
        for (const Lanes &v : operands)
          x.push_back(v.size() == 1 ? v[0] : v[i]);
        mlir::Value r = packedLane(callee, x, l);
        if (!r)
          return false;
        out.push_back(r);
      }
    } else if (mlir::isa<mlir::FloatType>(vt.getElementType())) { // T.Ramp
      // A float ramp (`T.Ramp(0.0, 1.0, 4)`): base + i * stride in the
      // lanes' float type, as TVM's Simplify expands it (a multiply and an
      // add per lane, i exact).
      mlir::Type elem = vt.getElementType();
      if (args.size() != 2 || args[0].getType() != elem ||
          args[1].getType() != elem)
        return false;
      for (int64_t i = 0; i < n; ++i) {
        mlir::Value c = mlir::arith::ConstantOp::create(
            b, l, elem, b.getFloatAttr(elem, double(i)));
        mlir::Value step = mlir::arith::MulFOp::create(b, l, args[1], c);
        out.push_back(mlir::arith::AddFOp::create(b, l, args[0], step));
      }
    } else { // T.Ramp
      // base + i * stride in the lanes' integer type (an `index` base, a
      // kernel's loop or thread variable, is converted first).
      mlir::Type elem = vt.getElementType();
      if (args.size() != 2 || !mlir::isa<mlir::IntegerType>(elem))
        return false;
      auto toElem = [&](mlir::Value x) -> mlir::Value {
        if (x.getType() == elem)
          return x;
        if (x.getType().isIndex())
          return mlir::arith::IndexCastOp::create(b, l, elem, x);
        auto it = mlir::dyn_cast<mlir::IntegerType>(x.getType());
        if (!it)
          return {};
        if (it.getWidth() < elem.getIntOrFloatBitWidth())
          return mlir::arith::ExtSIOp::create(b, l, elem, x);
        if (it.getWidth() > elem.getIntOrFloatBitWidth())
          return mlir::arith::TruncIOp::create(b, l, elem, x);
        return x;
      };
      mlir::Value base = toElem(args[0]), stride = toElem(args[1]);
      if (!base || !stride)
        return false;
      for (int64_t i = 0; i < n; ++i) {
        mlir::Value c = mlir::arith::ConstantOp::create(
            b, l, elem, b.getIntegerAttr(elem, i));
        mlir::Value step = mlir::arith::MulIOp::create(b, l, stride, c);
        out.push_back(mlir::arith::AddIOp::create(b, l, base, step));
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
