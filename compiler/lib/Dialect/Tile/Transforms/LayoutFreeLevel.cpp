//===- LayoutFreeLevel.cpp - The free level of layout inference -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the strict and common levels leave open is chosen here, as TileLang
// does: the loops still without a layout are grouped into components by the
// fragments they share; each member of a component is tried as the root
// (free choice, then propagation to the rest), attempts that conflict are
// dropped and the one with the fewest registers per thread is kept. Then
// fragments nothing constrains get the default, and shared buffers a linear
// (or, on sm_90, a TMA-store) layout.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"

#include "tlc/Layout/SharedLayouts.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

//===----------------------------------------------------------------------===//
// Free level
//===----------------------------------------------------------------------===//

/// The loops without a layout connected to loop \p id through the
/// fragments they share (TileLang's connected components).
std::vector<unsigned> Solver::unresolvedComponent(unsigned id) {
  std::vector<unsigned> comp = {id};
  std::vector<bool> inComp(nodes.size(), false), seenBuf(buffers.size(), false);
  inComp[id] = true;
  for (size_t i = 0; i < comp.size(); ++i)
    for (const Access &a : nodes[comp[i]].accesses) {
      if (seenBuf[a.buffer])
        continue;
      seenBuf[a.buffer] = true;
      for (unsigned user : buffers[a.buffer].users)
        if (!inComp[user] && nodes[user].kind == NodeKind::Loop &&
            !nodes[user].loopLayout) {
          inComp[user] = true;
          comp.push_back(user);
        }
    }
  return comp;
}

/// Lays out every loop of \p comp starting from \p root at the free level.
LogicalResult Solver::resolveFrom(unsigned root,
                                  llvm::ArrayRef<unsigned> comp) {
  for (unsigned id : llvm::concat<const unsigned>(
           llvm::ArrayRef<unsigned>(root), comp)) {
    if (nodes[id].loopLayout)
      continue;
    if (failed(visit(id, InferLevel::Free)) || !nodes[id].loopLayout)
      return failure();
    for (const Access &a : nodes[id].accesses)
      enqueueUsers(a.buffer, id);
    if (failed(propagate()))
      return failure();
  }
  return success();
}

/// Registers per thread of the fragments \p comp touches (TileLang's
/// default cost model).
int64_t Solver::registerCost(llvm::ArrayRef<unsigned> comp) {
  std::vector<bool> seen(buffers.size(), false);
  int64_t cost = 0;
  for (unsigned id : comp)
    for (const Access &a : nodes[id].accesses)
      if (!seen[a.buffer] && buffers[a.buffer].fragment) {
        seen[a.buffer] = true;
        cost += buffers[a.buffer].fragment->getRegsPerThread();
      }
  return cost;
}

LogicalResult Solver::freeLevel() {
  while (true) {
    // The first loop still without a layout, and the loops it shares
    // fragments with: as TileLang does, every one of them is tried as the
    // root, attempts that conflict are dropped, the cheapest wins.
    auto loop = llvm::find_if(nodes, [](const Node &n) {
      return n.kind == NodeKind::Loop && !n.loopLayout;
    });
    if (loop != nodes.end()) {
      unsigned id = loop - nodes.begin();
      std::vector<unsigned> comp = unresolvedComponent(id);
      constexpr size_t kMaxRoots = 16;
      if (comp.size() > 1) {
        struct State {
          std::vector<BufferInfo> buffers;
          std::vector<Node> nodes;
        };
        auto save = [&] { return State{buffers, nodes}; };
        auto load = [&](const State &s) {
          buffers = s.buffers;
          nodes = s.nodes;
          queue.clear();
          queued.assign(nodes.size(), false);
        };
        State before = save();
        std::optional<State> best;
        int64_t bestCost = 0;
        for (size_t r = 0; r < comp.size() && r < kMaxRoots; ++r) {
          bool ok;
          {
            // Conflicts of an attempt are not the program's errors.
            mlir::ScopedDiagnosticHandler quiet(
                kernel->getContext(), [](mlir::Diagnostic &) {
                  return mlir::success();
                });
            ok = succeeded(resolveFrom(comp[r], comp));
          }
          if (ok) {
            int64_t cost = registerCost(comp);
            if (!best || cost < bestCost) {
              best = save();
              bestCost = cost;
            }
          }
          load(before);
        }
        if (best) {
          load(*best);
          continue;
        }
      }
      if (failed(visit(id, InferLevel::Free)))
        return failure();
      if (!nodes[id].loopLayout)
        return nodes[id].op->emitError()
               << "cannot partition this loop over " << threads << " threads";
      for (const Access &a : nodes[id].accesses)
        enqueueUsers(a.buffer, id);
      if (failed(propagate()))
        return failure();
      continue;
    }
    // Then the first fragment nothing constrains gets the default.
    auto buf = llvm::find_if(buffers, [](const BufferInfo &b) {
      return b.isFragment && !b.fragment;
    });
    if (buf == buffers.end())
      break;
    unsigned id = buf - buffers.begin();
    std::optional<Fragment> f = layout::defaultFragmentWithin(
        buf->shape, buf->bits ? buf->bits : 32, threads,
        layout::kMaxReplicatedSlots);
    if (!f) {
      std::string why = "does not divide among " + std::to_string(threads) +
                        " threads";
      (void)replicateWhole(id, buf->root.getDefiningOp(), why);
      return failure();
    }
    if (failed(setFragment(id, std::move(*f), buf->root.getDefiningOp(),
                           InferLevel::Free)))
      return failure();
    enqueueUsers(id, ~0u);
    if (failed(propagate()))
      return failure();
  }
  // Shared buffers no gemm or annotation constrained.
  for (auto [id, b] : llvm::enumerate(buffers)) {
    if (b.isFragment || b.shared)
      continue;
    Layout l = Layout::linear(b.shape);
    if (target.arch == layout::GemmArch::SM90 && b.tmaStoreSource &&
        b.shape.size() >= 2 && b.bits)
      l = layout::makeGemmABLayoutHopper(b.shape, b.bits);
    if (b.bits)
      l.setElementBits(b.bits);
    b.shared = std::move(l);
    b.setter = b.root.getDefiningOp();
    b.level = InferLevel::Free;
  }
  return success();
}

