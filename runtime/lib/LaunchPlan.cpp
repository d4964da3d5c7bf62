//===- LaunchPlan.cpp - One manifest launch, checked ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"

using namespace tlc;

llvm::Expected<runtime::LaunchPlan>
runtime::planLaunch(const artifact::Manifest &m, const artifact::Launch &l) {
  LaunchPlan plan;
  plan.entry = l.entry.empty() ? m.entry : l.entry;
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel '" + m.name + "': " + what);
  };
  if (l.grid.empty() || l.grid.size() > 3 || l.block.empty() ||
      l.block.size() > 3)
    return fail("a launch needs 1 to 3 grid and block extents");
  for (const artifact::Extent &g : l.grid) {
    if (g.isStatic) {
      plan.grid.push_back(artifact::ShapeExpr::constant(g.value));
      continue;
    }
    auto expr = artifact::ShapeExpr::parse(g.expr);
    if (!expr)
      return expr.takeError();
    plan.grid.push_back(*expr);
  }
  for (size_t d = 0; d < l.block.size(); ++d) {
    if (!l.block[d].isStatic)
      return fail("symbolic block extents are not supported");
    plan.block[d] = static_cast<unsigned>(l.block[d].value);
  }
  if (uint64_t(plan.block[0]) * plan.block[1] * plan.block[2] > 1024)
    return fail("a block of more than 1024 threads");
  plan.dynamicSharedMemory = static_cast<unsigned>(l.dynamicSharedMemory);
  plan.cooperative = l.cooperative;
  for (const std::string &name : l.workspaces) {
    auto it = llvm::find_if(m.workspaces, [&](const artifact::Workspace &w) {
      return w.name == name;
    });
    if (it == m.workspaces.end())
      return fail("launch '" + plan.entry + "' takes workspace '" + name +
                  "', which the manifest does not declare");
    plan.workspaces.push_back(it - m.workspaces.begin());
  }
  return plan;
}
