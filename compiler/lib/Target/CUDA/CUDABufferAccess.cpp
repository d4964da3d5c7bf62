//===- CUDABufferAccess.cpp - Addressing buffers in CUDA C++ -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the CUDA emitter names an element or a vector of a buffer: views
// resolved to their root allocation or parameter, row-major (or swizzled,
// or by a parameter's `tile.strides`) linear indices, the bounds
// conditions of global accesses that tile-legalize-bounds decided, and the
// shared-memory effects of a statement (the barriers between statements
// are tile-insert-barriers' ops).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

Value Emitter::rootOf(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

MemoryScope Emitter::scopeOf(Value root) {
  return cast<BufferType>(root.getType()).getScope();
}

bool Emitter::isPackedInMemory(Value root) {
  auto type = cast<BufferType>(root.getType());
  MemoryScope s = type.getScope();
  return isPackedNibble(type.getElementType()) &&
         (s == MemoryScope::Global || tile::isSharedScope(s));
}

FailureOr<RootAccess>
Emitter::resolve(Value buffer, ArrayRef<std::string> indices, Operation *at,
                 ArrayRef<std::optional<IndexRange>> ranges) {
  RootAccess access;
  access.indices.assign(indices.begin(), indices.end());
  if (ranges.size() == indices.size())
    access.ranges.assign(ranges.begin(), ranges.end());
  else
    access.ranges.assign(indices.size(), std::nullopt);
  while (auto region = buffer.getDefiningOp<RegionOp>()) {
    SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
    if (offsets.size() != access.indices.size()) {
      at->emitError() << "region rank mismatch in the " << lang.name
                      << " target";
      return failure();
    }
    for (auto [idx, range, off] :
         llvm::zip(access.indices, access.ranges, offsets)) {
      std::string o = foldResult(off);
      if (o != "0")
        idx = idx == "0" ? o : "(" + o + " + " + idx + ")";
      std::optional<IndexRange> offRange = rangeOf(off);
      if (range && offRange)
        range = IndexRange{range->lo + offRange->lo, range->hi + offRange->hi,
                           std::gcd(range->div, offRange->div)};
      else
        range = std::nullopt;
    }
    buffer = region.getSource();
  }
  access.root = buffer;
  return access;
}

/// The shared root a T.view \p root reinterprets when that root is stored
/// other than row-major (a swizzled gemm operand), else null.
static ViewOp
viewOfStoredShared(Value root,
                   const llvm::DenseMap<Value, SharedStorage> &storage) {
  auto view = root.getDefiningOp<ViewOp>();
  if (!view)
    return nullptr;
  auto stored = storage.find(view.getSource());
  if (stored == storage.end() ||
      stored->second.kind == SharedStorage::Kind::Linear)
    return nullptr;
  return view;
}

FailureOr<std::string> Emitter::linearIndex(const RootAccess &access,
                                            Operation *at) {
  auto type = cast<BufferType>(access.root.getType());
  if (ViewOp view = viewOfStoredShared(access.root, sharedStorage)) {
    // A view of a swizzled shared tile (T.view(KV_shared, dtype=float32)
    // after KV_shared fed a gemm): its element at row-major byte offset b
    // is the source's bytes at b, wherever the source's storage put them.
    // The swizzles move whole 16-byte chunks of a row, so an element of at
    // most 16 bytes that divides the row stays in one piece (emitView
    // checked it): the source element holding byte b, stored where the
    // source's index function puts it, plus b's offset in it.
    auto src = cast<BufferType>(view.getSource().getType());
    int64_t vb = getElementStorageBytes(type.getElementType());
    int64_t sb = getElementStorageBytes(src.getElementType());
    std::string flat;
    for (unsigned d = 0; d < access.indices.size(); ++d)
      flat = d == 0 ? access.indices[0]
                    : "(" + flat + ") * " + std::to_string(type.getShape()[d]) +
                          " + " + access.indices[d];
    if (flat.empty())
      flat = "0";
    // The source's flat element index, and the view element's place in it.
    std::string srcFlat = vb >= sb
                              ? "(" + flat + ") * " + std::to_string(vb / sb)
                              : "(" + flat + ") / " + std::to_string(sb / vb);
    RootAccess inSource;
    inSource.root = view.getSource();
    ArrayRef<int64_t> shape = src.getShape();
    int64_t inner = 1;
    for (int d = shape.size() - 1; d >= 0; --d) {
      std::string idx = "(" + srcFlat + ")";
      if (inner != 1)
        idx += " / " + std::to_string(inner);
      if (d > 0)
        idx = "(" + idx + ") % " + std::to_string(shape[d]);
      inSource.indices.insert(inSource.indices.begin(), idx);
      inner *= shape[d];
    }
    inSource.ranges.assign(inSource.indices.size(), std::nullopt);
    FailureOr<std::string> p = linearIndex(inSource, at);
    if (failed(p))
      return failure();
    if (vb >= sb)
      return "(" + *p + ") / " + std::to_string(vb / sb);
    return "(" + *p + ") * " + std::to_string(sb / vb) + " + (" + flat +
           ") % " + std::to_string(sb / vb);
  }
  auto stored = sharedStorage.find(access.root);
  if (stored != sharedStorage.end() && access.indices.size() >= 2 &&
      stored->second.kind != SharedStorage::Kind::Linear &&
      (stored->second.kind != SharedStorage::Kind::Panels || type.isStatic())) {
    // The storage planSharedStorage chose, by its index function.
    const SharedStorage &s = stored->second;
    std::string fn = s.indexNamespace(lang.isHip()) + s.indexTemplate(type);
    unsigned rank = access.indices.size();
    if (s.kind == SharedStorage::Kind::Panels) {
      // wgmma / tcgen05 operand panels: the leading dimensions select a
      // whole [rows, cols] tile.
      std::string lead = "0";
      for (unsigned d = 0; d + 2 < rank; ++d)
        lead = d == 0
                   ? access.indices[0]
                   : "(" + lead + ") * " + std::to_string(type.getShape()[d]) +
                         " + " + access.indices[d];
      return fn + "(" + lead + ", " + access.indices[rank - 2] + ", " +
             access.indices[rank - 1] + ")";
    }
    // Row-major rows (every dimension but the last folded into the row)
    // with the row's chunks or runs XOR-permuted: the row swizzle, or
    // HIP's LDS swizzle chosen for the MFMA reads.
    std::string rowIdx = access.indices[0];
    for (unsigned d = 1; d + 1 < rank; ++d)
      rowIdx = "(" + rowIdx + ") * " + std::to_string(type.getShape()[d]) +
               " + " + access.indices[d];
    return fn + "(" + rowIdx + ", " + access.indices.back() + ")";
  }
  // A parameter with `tile.strides` (a transposed or padded view) is
  // addressed with them: index times stride per dimension, in 64 bits
  // unless the strides are static and the farthest element lies within
  // 2^31 - 1.
  FailureOr<SmallVector<std::string>> strided = strides(access.root, at);
  if (failed(strided))
    return failure();
  if (!strided->empty() && strided->size() == access.indices.size()) {
    bool wide = !wideIndex;
    if (std::optional<SmallVector<int64_t>> st =
            getStaticStrides(access.root);
        st && type.isStatic()) {
      int64_t last = 0;
      bool overflow = false;
      for (unsigned d = 0; d < type.getRank(); ++d) {
        int64_t term;
        overflow |= __builtin_mul_overflow(type.getShape()[d] - 1, (*st)[d],
                                           &term) ||
                    __builtin_add_overflow(last, term, &last);
      }
      wide = !wideIndex && (overflow || last > (int64_t(1) << 31) - 1);
    }
    std::string linear;
    for (unsigned d = 0; d < access.indices.size(); ++d) {
      const std::string &i = access.indices[d], &st = (*strided)[d];
      if (st == "0" || i == "0")
        continue;
      std::string term = st == "1" ? (wide ? "(long long)" + i : i)
                                   : (wide ? "(long long)(" + i + ") * " + st
                                           : "(" + i + ") * " + st);
      linear = linear.empty() ? term : linear + " + " + term;
    }
    return linear.empty() ? std::string("0") : linear;
  }
  // A global buffer of more than 2^31 - 1 elements (or of symbolic shape)
  // is addressed with a 64-bit element offset; everything else in 32 bits.
  bool wide = false;
  if (scopeOf(access.root) == MemoryScope::Global && !wideIndex) {
    int64_t numel = 1;
    for (unsigned d = 0; d < type.getRank() && !wide; ++d) {
      Dim dim = type.getDim(d);
      wide = !dim.isStatic() ||
             __builtin_mul_overflow(numel, dim.getValue(), &numel) ||
             numel > (int64_t(1) << 31) - 1;
    }
  }
  std::string linear;
  for (unsigned d = 0; d < access.indices.size(); ++d) {
    if (d == 0) {
      linear = access.indices[0];
      if (wide && access.indices.size() > 1)
        linear = "(long long)" + linear;
      continue;
    }
    FailureOr<std::string> e = extent(type, d, at);
    if (failed(e))
      return failure();
    linear = "(" + linear + ") * " + *e + " + " + access.indices[d];
  }
  return linear.empty() ? std::string("0") : linear;
}

FailureOr<std::string> Emitter::boundsCondition(const RootAccess &access,
                                                Operation *at,
                                                int64_t lastWidth) {
  if (scopeOf(access.root) != MemoryScope::Global)
    return std::string();
  auto type = cast<BufferType>(access.root.getType());
  // The checks are tile-legalize-bounds' (`tile.bounds` on the operation);
  // an access it did not see is checked at both ends.
  std::optional<BoundsGuard> guard = getBoundsGuard(at, access.root);
  std::string cond;
  // A rank-0 tensor is addressed as element 0 (one index, no dimension):
  // nothing to check.
  unsigned rank = std::min<unsigned>(access.indices.size(), type.getRank());
  for (unsigned d = 0; d < rank; ++d) {
    FailureOr<std::string> e = extent(type, d, at);
    if (failed(e))
      return failure();
    uint8_t checks = !guard                  ? uint8_t(kCheckUpper | kCheckLower)
                     : d < guard->dims.size() ? guard->dims[d]
                                              : uint8_t(kCheckNone);
    if (checks & kCheckLower) {
      std::string c = access.indices[d] + " >= 0";
      cond += (cond.empty() ? "" : " && ") + c;
    }
    if (!(checks & kCheckUpper))
      continue;
    std::string c =
        d + 1 == rank && lastWidth > 1
            ? access.indices[d] + " + " + std::to_string(lastWidth) +
                  " <= " + *e
            : access.indices[d] + " < " + *e;
    cond += (cond.empty() ? "" : " && ") + c;
  }
  return cond;
}

FailureOr<std::string> Emitter::lvalue(const RootAccess &access,
                                       Operation *at) {
  FailureOr<std::string> linear = linearIndex(access, at);
  if (failed(linear))
    return failure();
  if (isPackedInMemory(access.root)) {
    // Two e2m1 or int4 values a byte: a reference to the nibble, written
    // atomically since another thread may own the byte's other half. A
    // tcgen05 operand's panels give each element a byte slot; its code is
    // in the slot's 16-byte chunk's packed half (tcgen05's padded form).
    auto stored = sharedStorage.find(access.root);
    if (stored != sharedStorage.end() &&
        stored->second.kind == SharedStorage::Kind::Panels)
      return "tlc::fp4::e2m1At<true>(" + expr(access.root) +
             ", tlc::fp4::paddedNibble(" + *linear + "))";
    return "tlc::fp4::e2m1At<true>(" + expr(access.root) + ", " + *linear +
           ")";
  }
  return expr(access.root) + "[" + *linear + "]";
}

BufferAccesses Emitter::sharedEffectsOf(Operation *op) {
  return getBufferAccesses(op, isSharedScope);
}

FailureOr<std::pair<std::string, std::string>>
Emitter::elementAccess(Value buffer, ValueRange indices, Operation *at) {
  SmallVector<std::string> idx;
  SmallVector<std::optional<IndexRange>> ranges;
  for (Value i : indices) {
    idx.push_back(expr(i));
    ranges.push_back(intervals.ofIndex(i));
  }
  if (idx.empty()) {
    idx.push_back("0");
    ranges.push_back(IndexRange{0, 0, 0});
  }
  return guardedElement(buffer, idx, at, ranges);
}

FailureOr<std::pair<std::string, std::string>>
Emitter::guardedElement(Value buffer, ArrayRef<std::string> indices,
                        Operation *at,
                        ArrayRef<std::optional<IndexRange>> ranges) {
  FailureOr<RootAccess> access = resolve(buffer, indices, at, ranges);
  if (failed(access))
    return failure();
  FailureOr<std::string> lv = lvalue(*access, at);
  FailureOr<std::string> cond = boundsCondition(*access, at);
  if (failed(lv) || failed(cond))
    return failure();
  return std::make_pair(*lv, *cond);
}

FailureOr<Emitter::VectorAccess>
Emitter::vectorAccess(Value buffer, ArrayRef<std::string> indices,
                      Operation *at, ArrayRef<std::optional<IndexRange>> ranges,
                      int64_t width) {
  FailureOr<RootAccess> access = resolve(buffer, indices, at, ranges);
  if (failed(access))
    return failure();
  FailureOr<std::string> lin = linearIndex(*access, at);
  FailureOr<std::string> bounds = boundsCondition(*access, at, width);
  if (failed(lin) || failed(bounds))
    return failure();
  VectorAccess v;
  v.access = *access;
  v.linear = *lin;
  v.address = "&" + expr(access->root) + "[" + *lin + "]";
  v.bounds = *bounds;
  v.aligned = provenAligned(*access, width);
  return v;
}

std::string Emitter::VectorAccess::condition(int64_t width) const {
  std::string cond = bounds;
  if (!aligned)
    cond += (cond.empty() ? "" : " && ") + std::string("(") + linear +
            ") % " + std::to_string(width) + " == 0";
  return cond;
}
