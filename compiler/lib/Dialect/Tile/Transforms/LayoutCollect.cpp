//===- LayoutCollect.cpp - Layout inference: collection -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Layout inference's first step: the kernel's buffers (fragments and shared
// tiles, keyed by their root allocation) and the ops that constrain them
// (T.Parallel loops, reductions, gemms, copies) as the solver's nodes.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "tlc/Layout/Propagation.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"

#include <deque>
#include <vector>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using layout::Fragment;
using layout::IndexExpr;
using layout::InferLevel;
using layout::Layout;
using namespace tlc::tile::detail;

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

std::optional<unsigned> Solver::rootBuffer(Value v, bool allowRegion) {
  while (auto region = v.getDefiningOp<RegionOp>()) {
    if (!allowRegion)
      return std::nullopt;
    v = region.getSource();
  }
  auto it = bufferIds.find(v);
  if (it == bufferIds.end())
    return std::nullopt;
  return it->second;
}


void Solver::addLoop(Node node) {
  // Inference enumerates a loop's iterations: a loop larger than any tile
  // a block holds gets no layout here (one over fragments was reported at
  // their allocation; one over memory only needs none to be checked).
  if (elementCount(node.loopShape) > kMaxEnumerated)
    return;
  unsigned id = nodes.size();
  for (const Access &a : node.accesses) {
    buffers[a.buffer].users.push_back(id);
    node.elemBits = std::max(node.elemBits, buffers[a.buffer].bits);
  }
  nodes.push_back(std::move(node));
}

/// True when \p v does not change while \p loop runs: defined outside it,
/// or computed in it by side-effect-free integer arithmetic from such
/// values (not from the loop's variables).
static bool isLoopInvariant(Value v, ParallelOp loop, unsigned depth = 0) {
  if (depth > 32)
    return false;
  if (!loop.getBody().isAncestor(v.getParentRegion()))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions() != 0 ||
      def->getDialect()->getNamespace() != "arith")
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isLoopInvariant(operand, loop, depth + 1);
  });
}

void Solver::collectParallel(ParallelOp op) {
  Node node{NodeKind::Loop, op};
  node.elemBits = 0;
  for (OpFoldResult e : op.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    if (!c || *c <= 0)
      return;
    node.loopShape.push_back(*c);
  }
  if (Attribute attr = op.getLoopLayoutAttr()) {
    if (std::optional<Fragment> f = decodeFragment(attr)) {
      node.loopLayout = std::move(*f);
      node.pinnedLoop = true;
    }
  }
  tile::IndexTranslator translator(op.getBody().front());
  auto record = [&](Value buffer, ValueRange indices, bool write) {
    std::optional<unsigned> id = rootBuffer(buffer, /*allowRegion=*/false);
    if (!id || !buffers[*id].isFragment)
      return;
    Access a{*id, std::nullopt, write};
    std::vector<IndexExpr> index;
    std::vector<unsigned> held;
    for (auto [d, v] : llvm::enumerate(indices)) {
      std::optional<IndexExpr> e = translator.translate(v);
      if (!e && isLoopInvariant(v, op)) {
        held.push_back(d);
        e = IndexExpr::constant(0);
      }
      if (!e)
        break;
      index.push_back(*e);
    }
    if (index.size() == indices.size() &&
        index.size() == buffers[*id].shape.size()) {
      if (held.empty()) {
        a.index = std::move(index);
      } else {
        a.held = std::move(held);
        a.heldIndex = std::move(index);
      }
    }
    // `frag[0]` read in a loop (a condition, a scalar): every thread holds
    // the whole buffer, fixed at the strict level as TileLang does.
    if (!write && a.index &&
        llvm::all_of(*a.index, [](const IndexExpr &e) {
          return e.collectVars().empty();
        }))
      floating.push_back({*id, op});
    node.accesses.push_back(std::move(a));
  };
  op.getBody().walk([&](Operation *inner) {
    if (auto load = dyn_cast<LoadOp>(inner))
      record(load.getBuffer(), load.getIndices(), /*write=*/false);
    else if (auto store = dyn_cast<StoreOp>(inner))
      record(store.getBuffer(), store.getIndices(), /*write=*/true);
  });
  if (node.elemBits == 0)
    node.elemBits = 32;
  addLoop(std::move(node));
}

void Solver::collect() {
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      BufferType type = getBufferType(alloc.getResult());
      if (!type || !type.isStatic() || type.getShape().empty())
        return WalkResult::advance();
      MemoryScope scope = type.getScope();
      bool isFragment = scope == MemoryScope::Fragment;
      if (!isFragment && scope != MemoryScope::Shared &&
          scope != MemoryScope::SharedDyn)
        return WalkResult::advance();
      int64_t elements = elementCount(type.getShape());
      if (llvm::any_of(type.getShape(), [](int64_t e) { return e <= 0; })) {
        // No layout maps an empty tile (found by tlc-fuzz-eval: such a
        // buffer crashed the default-fragment and swizzle planners).
        alloc.emitError() << "buffer '" << bufferDisplayName(alloc.getResult())
                          << "' has an extent of "
                          << *llvm::find_if(type.getShape(),
                                            [](int64_t e) { return e <= 0; })
                          << "; every extent of a tile must be positive";
        return WalkResult::advance();
      }
      if (elements > kMaxEnumerated) {
        // Bounded analysis: answered without enumerating the tile.
        if (isFragment) {
          // elementCount saturates at INT64_MAX (a (128, 2^62) fragment):
          // no rounding up that could wrap, and no exact count printed.
          int64_t regs = elements / threads + (elements % threads != 0);
          bool saturated = elements == std::numeric_limits<int64_t>::max();
          alloc.emitError()
              << "fragment '" << bufferDisplayName(alloc.getResult()) << "' of "
              << (saturated ? "more than 2^63" : std::to_string(elements))
              << " elements needs " << (saturated ? "more than " : "") << regs
              << " registers per thread over " << threads
              << " threads; the limit is 255";
        }
        return WalkResult::advance();
      }
      BufferInfo info;
      info.root = alloc.getResult();
      info.isFragment = isFragment;
      info.shape = type.getShape().vec();
      info.bits = elementBitWidth(type.getElementType());
      if (Attribute attr = alloc.getLayoutAttr()) {
        if (isFragment)
          info.fragment = decodeFragment(attr);
        else
          info.shared = decodeLayout(attr);
        if (info.fragment || info.shared) {
          info.pinned = true;
          info.setter = alloc;
          info.level = InferLevel::Strict;
        }
      }
      bufferIds[info.root] = buffers.size();
      buffers.push_back(std::move(info));
      return WalkResult::advance();
    }
    if (auto parallel = dyn_cast<ParallelOp>(op)) {
      collectParallel(parallel);
      return WalkResult::skip();
    }
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      gemms.push_back(gemm);
      return WalkResult::advance();
    }
    if (auto annotate = dyn_cast<AnnotateLayoutOp>(op)) {
      annotations.push_back(annotate);
      return WalkResult::advance();
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      std::optional<unsigned> src = rootBuffer(reduce.getSrc(), false);
      std::optional<unsigned> dst = rootBuffer(reduce.getDst(), false);
      if (src && dst && buffers[*src].isFragment && buffers[*dst].isFragment) {
        Node node{NodeKind::Reduce, op};
        node.src = *src, node.dst = *dst, node.dim = reduce.getDim();
        buffers[*src].users.push_back(nodes.size());
        buffers[*dst].users.push_back(nodes.size());
        nodes.push_back(std::move(node));
      }
      return WalkResult::advance();
    }
    if (auto copy = dyn_cast<CopyOp>(op)) {
      if (target.tensorMemory && isTensorMemoryCopy(copy))
        tmemCopies.push_back(copy);
      std::optional<unsigned> src = rootBuffer(copy.getSrc(), false);
      std::optional<unsigned> dst = rootBuffer(copy.getDst(), false);
      BufferType dstType = getBufferType(copy.getDst());
      if (src && !buffers[*src].isFragment && dstType &&
          dstType.getScope() == MemoryScope::Global)
        buffers[*src].tmaStoreSource = true;
      bool srcFrag = src && buffers[*src].isFragment;
      bool dstFrag = dst && buffers[*dst].isFragment;
      if (srcFrag && dstFrag && buffers[*src].shape != buffers[*dst].shape)
        srcFrag = false;
      if (!srcFrag && !dstFrag)
        return WalkResult::advance();
      // The SIMT loop of the copy runs over the fragment's shape and reads
      // and writes it at the loop variables.
      Node node{NodeKind::Loop, op};
      node.loopShape = buffers[dstFrag ? *dst : *src].shape;
      std::vector<IndexExpr> identity;
      for (unsigned d = 0; d < node.loopShape.size(); ++d)
        identity.push_back(IndexExpr::var(d, layout::inputName(d)));
      if (dstFrag)
        node.accesses.push_back({*dst, identity, /*write=*/true});
      if (srcFrag)
        node.accesses.push_back({*src, identity, /*write=*/false});
      addLoop(std::move(node));
      return WalkResult::advance();
    }
    auto recordFloating = [&](Value buffer) {
      if (std::optional<unsigned> id = rootBuffer(buffer, true))
        if (buffers[*id].isFragment)
          floating.push_back({*id, op});
    };
    if (auto load = dyn_cast<LoadOp>(op))
      recordFloating(load.getBuffer());
    else if (auto store = dyn_cast<StoreOp>(op))
      recordFloating(store.getBuffer());
    return WalkResult::advance();
  });
  queued.assign(nodes.size(), false);
}
