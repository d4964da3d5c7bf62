//===- Scope.cpp - TileLang memory scopes ---------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Lang/Scope.h"

using namespace tlc;
using namespace tlc::lang;

namespace {
/// One row of Scope.def.
struct ScopeRow {
  llvm::StringRef str;
  llvm::StringRef display;
  llvm::StringRef doc;
};
} // namespace

static const ScopeRow kScopeRows[] = {
#define TLC_SCOPE(Id, String, Display, Doc) {String, Display, Doc},
#include "tlc/Lang/Scope.def"
};

static_assert(sizeof(kScopeRows) / sizeof(kScopeRows[0]) == kNumMemoryScopes,
              "Scope.def rows and MemoryScope disagree");

llvm::StringRef lang::getScopeString(MemoryScope scope) {
  return kScopeRows[static_cast<unsigned>(scope)].str;
}

llvm::StringRef lang::getScopeDisplayName(MemoryScope scope) {
  return kScopeRows[static_cast<unsigned>(scope)].display;
}

llvm::StringRef lang::getScopeDescription(MemoryScope scope) {
  return kScopeRows[static_cast<unsigned>(scope)].doc;
}

std::optional<MemoryScope> lang::parseScope(llvm::StringRef str) {
  for (unsigned i = 0; i < kNumMemoryScopes; ++i)
    if (kScopeRows[i].str == str)
      return static_cast<MemoryScope>(i);
  return std::nullopt;
}
