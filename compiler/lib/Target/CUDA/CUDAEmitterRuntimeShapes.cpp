//===- CUDAEmitterRuntimeShapes.cpp - Tiles sized at launch ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared buffers whose shape has symbolic extents (`T.alloc_shared((16,
// n))`, marked `tile.dynamic_shared` by tile-plan-shared-memory) have no
// size until the kernel's arguments are known. They go after every byte
// whose place is fixed at build time (the planned buffers, the printer's
// reduction scratch and exchange area, the mbarriers), each at the offset
// the ones before it end at, rounded up to its alignment: the first offset
// is a constant, later ones are computed from the symbols in the kernel.
// The launch's dynamic shared memory is the same sum as a manifest
// expression, which every launcher evaluates from the arguments.
//
// A T.copy between such a buffer and a global tensor of the same symbolic
// shape is one loop of the block's threads over the elements (no vectors:
// neither alignment nor divisibility is known).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FailureOr<std::string> Emitter::planRuntimeSharedBuffers(KernelOp kernel) {
  SmallVector<AllocOp> allocs;
  kernel.walk([&](AllocOp alloc) {
    if (alloc->hasAttr("tile.dynamic_shared"))
      allocs.push_back(alloc);
  });
  if (allocs.empty())
    return std::string();
  // The end of the buffers placed so far, as C++ (for the kernel) and as
  // ShapeExpr text over the manifest's symbol names (for the launcher).
  std::string cppEnd = std::to_string(sharedBytes);
  std::string textEnd = cppEnd;
  bool constantEnd = true;
  for (AllocOp alloc : allocs) {
    auto type = cast<BufferType>(alloc.getType());
    int64_t align = 128;
    if (auto a = alloc->getAttrOfType<IntegerAttr>("tile.align"))
      align = std::max(align, a.getInt());
    std::string a = std::to_string(align);
    std::string cppOffset, textOffset;
    if (constantEnd) {
      cppOffset = std::to_string((sharedBytes + align - 1) / align * align);
      textOffset = cppOffset;
    } else {
      cppOffset = "(" + cppEnd + " + " + std::to_string(align - 1) + ") / " +
                  a + " * " + a;
      textOffset = "ceildiv(" + textEnd + ", " + a + ") * " + a;
    }
    std::string cppBytes =
        std::to_string(getElementStorageBytes(type.getElementType()));
    std::string textBytes = cppBytes;
    for (unsigned d = 0; d < type.getRank(); ++d) {
      FailureOr<std::string> e = extent(type, d, alloc);
      if (failed(e))
        return failure();
      cppBytes += " * " + *e;
      Dim dim = type.getDim(d);
      textBytes += " * " + (dim.isStatic()
                                ? std::to_string(dim.getValue())
                                : "(" + dim.getSymbol().getValue().str() + ")");
    }
    runtimeSharedOffsets[alloc.getResult()] = cppOffset;
    bool atZero = cppOffset == "0";
    cppEnd = "(" + (atZero ? "" : cppOffset + " + ") + cppBytes + ")";
    textEnd = (atZero ? "" : textOffset + " + ") + textBytes;
    constantEnd = false;
  }
  return textEnd;
}

LogicalResult Emitter::emitRuntimeShapeCopy(CopyOp op) {
  struct Side {
    Value buffer, root;
    BufferType type;
    SmallVector<unsigned> dims;
  };
  Side sides[2] = {
      {op.getSrc(), rootOf(op.getSrc()),
       cast<BufferType>(op.getSrc().getType()), {}},
      {op.getDst(), rootOf(op.getDst()),
       cast<BufferType>(op.getDst().getType()), {}}};
  // The non-unit dimensions of both sides, equal in order (symbolic ones
  // by their text).
  SmallVector<Dim> copyDims[2];
  for (int s = 0; s < 2; ++s) {
    if (scopeOf(sides[s].root) == MemoryScope::Fragment) {
      op.emitError() << "the " << lang.name
                     << " target copies fragments of static shape only";
      return failure();
    }
    for (unsigned d = 0; d < sides[s].type.getRank(); ++d) {
      Dim dim = sides[s].type.getDim(d);
      if (dim.isStatic() && dim.getValue() == 1)
        continue;
      sides[s].dims.push_back(d);
      copyDims[s].push_back(dim);
    }
  }
  if (copyDims[0] != copyDims[1]) {
    op.emitError("copy shapes differ");
    return failure();
  }
  SmallVector<std::string> shape;
  std::string total;
  for (unsigned d : sides[0].dims) {
    FailureOr<std::string> e = extent(sides[0].type, d, op);
    if (failed(e))
      return failure();
    shape.push_back(*e);
    total += (total.empty() ? "" : " * ") + *e;
  }
  if (total.empty())
    total = "1";
  Type srcElem = sides[0].type.getElementType();
  Type dstElem = sides[1].type.getElementType();
  std::string it = indexType();
  std::string f = fresh("f");
  open("for (" + it + " " + f + " = tid; " + f + " < " + total + "; " + f +
       " += " + Twine(numThreads) + ")");
  SmallVector<std::string> idx = unflatten(*this, f, shape, "i");
  // Coordinates in a static extent lie in it; symbolic ones are unknown.
  SmallVector<std::optional<IndexRange>> ranges;
  for (Dim dim : copyDims[0])
    ranges.push_back(dim.isStatic()
                         ? std::optional<IndexRange>(
                               IndexRange{0, dim.getValue() - 1, 1})
                         : std::nullopt);
  auto element = [&](const Side &side) {
    SmallVector<std::string> full(side.type.getRank(), "0");
    SmallVector<std::optional<IndexRange>> r(side.type.getRank(),
                                             IndexRange{0, 0, 0});
    for (auto [k, d] : llvm::enumerate(side.dims)) {
      full[d] = idx[k];
      r[d] = ranges[k];
    }
    return guardedElement(side.buffer, full, op, r);
  };
  auto s = element(sides[0]);
  auto d = element(sides[1]);
  if (failed(s) || failed(d))
    return failure();
  std::string value = fromStorage(srcElem, s->first);
  if (!s->second.empty())
    value = "((" + s->second + ") ? " + value + " : " +
            safeValueOf(op, sides[0].root, srcElem) + ")";
  std::string stmt = d->first + " = " + toStorage(dstElem, value) + ";";
  line(d->second.empty() ? stmt : "if (" + d->second + ") " + stmt);
  close();
  return success();
}
