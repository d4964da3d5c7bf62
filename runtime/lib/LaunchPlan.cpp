//===- LaunchPlan.cpp - One manifest launch, checked ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <climits>

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
  if (l.dynamicSharedMemory.isStatic) {
    if (l.dynamicSharedMemory.value < 0)
      return fail("negative dynamic shared memory");
    plan.dynamicSharedMemory =
        artifact::ShapeExpr::constant(l.dynamicSharedMemory.value);
  } else {
    auto expr = artifact::ShapeExpr::parse(l.dynamicSharedMemory.expr);
    if (!expr)
      return fail("dynamic shared memory '" + l.dynamicSharedMemory.expr +
                  "': " + llvm::toString(expr.takeError()));
    plan.dynamicSharedMemory = *expr;
  }
  plan.cooperative = l.cooperative;
  if (l.cluster.size() > 3)
    return fail("a cluster of more than 3 extents");
  for (size_t d = 0; d < l.cluster.size(); ++d) {
    if (l.cluster[d] <= 0 || l.cluster[d] > 1024)
      return fail("cluster extent " + llvm::Twine(d) + " is " +
                  llvm::Twine(l.cluster[d]));
    plan.cluster[d] = static_cast<unsigned>(l.cluster[d]);
  }
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

llvm::Expected<runtime::LaunchSize> runtime::sizeLaunch(
    const artifact::Manifest &m, const LaunchPlan &plan,
    const std::function<std::optional<int64_t>(llvm::StringRef)> &lookup,
    std::optional<int64_t> sharedLimit, llvm::StringRef device) {
  auto fail = [&](const llvm::Twine &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "kernel '" + m.name + "': launch '" +
                                       plan.entry + "': " + what);
  };
  LaunchSize size;
  for (size_t d = 0; d < plan.grid.size() && d < 3; ++d) {
    llvm::Expected<int64_t> v = plan.grid[d].evaluate(lookup);
    if (!v)
      return v.takeError();
    if (*v < 0 || *v > INT32_MAX)
      return fail("grid extent " + llvm::Twine(d) + " is " + llvm::Twine(*v));
    size.grid[d] = static_cast<unsigned>(*v);
  }
  // A cluster launch tiles the grid with clusters (the driver refuses
  // other grids; the sim device would leave blocks without a cluster).
  for (int d = 0; d < 3; ++d)
    if (plan.cluster[d] > 1 && size.grid[d] % plan.cluster[d])
      return fail("the grid's extent " + llvm::Twine(size.grid[d]) + " along " +
                  llvm::Twine("xyz"[d]) +
                  " is not a multiple of the cluster's extent " +
                  llvm::Twine(plan.cluster[d]) +
                  " at these sizes (a cluster launch tiles the grid with "
                  "clusters)");
  llvm::Expected<int64_t> bytes = plan.dynamicSharedMemory.evaluate(lookup);
  if (!bytes)
    return fail("its dynamic shared memory: " +
                llvm::toString(bytes.takeError()));
  if (*bytes < 0 || *bytes > INT32_MAX)
    return fail("its dynamic shared memory would be " + llvm::Twine(*bytes) +
                " bytes");
  if (sharedLimit && *bytes > *sharedLimit)
    return fail("needs " + llvm::Twine(*bytes) +
                " bytes of dynamic shared memory per block at these sizes; " +
                device + " allows at most " + llvm::Twine(*sharedLimit));
  size.dynamicSharedMemory = static_cast<unsigned>(*bytes);
  return size;
}
