//===- LayoutPackedAccesses.cpp - Fragments read a group at a time --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `T.Parallel` loop may read one element of a fragment for several of its
// iterations, dividing a loop variable by a constant:
//
//   T.copy(packed_shared, packed)            # packed: [N, K // 2] uint8
//   for i, j in T.Parallel(N, K):
//       wide[i, j] = unpack(packed[i, j // 2], j % 2)
//
// The copy lets the loop choose the layout of `packed`; as TileLang does
// (it inverts the access, the unused `j % 2` becoming a replication), each
// element is given to the thread of the group's first iteration, here
// (i, 2 * x) for element (i, x), its register being that iteration's
// divided by the group size. The layout is kept only when every iteration
// of a group runs on that thread (dequantizing loops, whose layout comes
// from a gemm operand holding consecutive elements, do) and no two
// elements share a register.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"

using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

std::optional<Fragment> Solver::packedBufferFragment(const Access &a,
                                                     const Fragment &loop) {
  const BufferInfo &b = buffers[a.buffer];
  unsigned rank = loop.getInputRank();
  if (a.write || !a.index || a.index->size() != rank || b.shape.size() != rank)
    return std::nullopt;
  // Dimension d is read at `v_d` or `v_d // c_d`, the loop running c_d
  // times the buffer's extent.
  std::vector<IndexExpr> first(rank + 1);
  int64_t group = 1;
  for (unsigned d = 0; d < rank; ++d) {
    IndexExpr e = (*a.index)[d];
    int64_t c = 1;
    if (e && e.kind() == layout::IndexKind::FloorDiv && e.rhs().isConstant()) {
      c = *e.rhs().getConstant();
      e = e.lhs();
    }
    if (c < 1 || !e || e.kind() != layout::IndexKind::Var ||
        e.getVarId() != d || loop.getInputShape()[d] != c * b.shape[d])
      return std::nullopt;
    first[d] = IndexExpr::var(d, layout::inputName(d)) * c;
    group *= c;
  }
  if (group == 1 || loop.getForwardIndex().size() != 1)
    return std::nullopt;
  first[rank] = IndexExpr::var(rank, "rep");
  IndexExpr reg =
      layout::floorDiv(substitute(loop.getForwardIndex()[0], first), group);
  IndexExpr thread = substitute(loop.getForwardThread(), first);
  return fragmentFittingLoop(b.shape, {reg}, thread, loop, *a.index, threads,
                             /*write=*/false);
}
