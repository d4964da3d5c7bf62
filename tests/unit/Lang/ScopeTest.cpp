//===- ScopeTest.cpp - Tests for TileLang memory scopes -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Lang/Scope.h"

#include <doctest/doctest.h>

#include <string>

using namespace tlc::lang;

namespace {
/// Parses \p str and checks the display name; "" expects a parse failure.
void checkScope(const std::string &str, const std::string &display) {
  CAPTURE(str);
  std::optional<MemoryScope> scope = parseScope(str);
  if (display.empty()) {
    CHECK(!scope);
    return;
  }
  REQUIRE(scope);
  CHECK(getScopeString(*scope).str() == str);
  CHECK(getScopeDisplayName(*scope).str() == display);
  CHECK(!getScopeDescription(*scope).empty());
}
} // namespace

TEST_CASE("scope strings and display names") {
  checkScope("global", "global");
  checkScope("shared", "shared");
  checkScope("shared.dyn", "shared");
  checkScope("local.fragment", "fragment");
  checkScope("local", "local");
  checkScope("local.var", "var");
  checkScope("shared.barrier", "barrier");
  checkScope("shared.cluster_barrier", "cluster_barrier");
  checkScope("shared.tmem", "tmem");
  checkScope("local.reducer", "reducer");
  checkScope("local.descriptor.wgmma", "wgmma_desc");
  checkScope("local.descriptor.tcgen05_smem", "tcgen05_smem_desc");
  checkScope("local.descriptor.tcgen05_instr", "tcgen05_instr_desc");
  checkScope("fragment", "");
  checkScope("Global", "");
  checkScope("shared.dyn ", "");
  checkScope("", "");
}

TEST_CASE("scope predicates") {
  CHECK(isSharedScope(MemoryScope::Shared));
  CHECK(isSharedScope(MemoryScope::SharedDyn));
  CHECK(!isSharedScope(MemoryScope::Fragment));
  CHECK(isFragmentScope(MemoryScope::Fragment));
  CHECK(isLocalScope(MemoryScope::Local));
  CHECK(!isLocalScope(MemoryScope::LocalVar));
  CHECK(isLocalVarScope(MemoryScope::LocalVar));
  CHECK(isBarrierScope(MemoryScope::ClusterBarrier));
  CHECK(isDescriptorScope(MemoryScope::DescriptorTcgen05Instr));
  CHECK(usesSharedMemory(MemoryScope::Barrier));
  CHECK(!usesSharedMemory(MemoryScope::TensorMemory));
  CHECK(!requiresKernelScope(MemoryScope::Global));
  CHECK(requiresKernelScope(MemoryScope::Fragment));
}
