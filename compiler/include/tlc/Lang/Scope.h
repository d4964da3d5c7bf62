//===- Scope.h - TileLang memory scopes -------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The memory scopes of TileLang buffers with their exact strings
// (`"local.fragment"`) and short display names (`fragment`).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LANG_SCOPE_H
#define TLC_LANG_SCOPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tlc {
namespace lang {

/// A buffer memory scope, one per row of Scope.def.
enum class MemoryScope : uint8_t {
#define TLC_SCOPE(Id, ...) Id,
#include "tlc/Lang/Scope.def"
};

/// Number of MemoryScope enumerators.
constexpr unsigned kNumMemoryScopes = 0
#define TLC_SCOPE(Id, ...) +1
#include "tlc/Lang/Scope.def"
    ;

/// The exact TileLang scope string (`"shared.dyn"`).
llvm::StringRef getScopeString(MemoryScope scope);

/// The short display name for hints (`shared` for both shared scopes,
/// `fragment` for `local.fragment`, `var` for `local.var`).
llvm::StringRef getScopeDisplayName(MemoryScope scope);

/// A one-line description of the scope, for hover.
llvm::StringRef getScopeDescription(MemoryScope scope);

/// Parses an exact scope string; std::nullopt when it is not one.
std::optional<MemoryScope> parseScope(llvm::StringRef str);

/// `global`.
inline bool isGlobalScope(MemoryScope s) { return s == MemoryScope::Global; }

/// `shared` or `shared.dyn` (TileLang's `is_shared`).
inline bool isSharedScope(MemoryScope s) {
  return s == MemoryScope::Shared || s == MemoryScope::SharedDyn;
}

/// `local.fragment`.
inline bool isFragmentScope(MemoryScope s) {
  return s == MemoryScope::Fragment;
}

/// `local` (per-thread array; TileLang's `is_local`).
inline bool isLocalScope(MemoryScope s) { return s == MemoryScope::Local; }

/// `local.var`.
inline bool isLocalVarScope(MemoryScope s) {
  return s == MemoryScope::LocalVar;
}

/// `shared.barrier` or `shared.cluster_barrier`.
inline bool isBarrierScope(MemoryScope s) {
  return s == MemoryScope::Barrier || s == MemoryScope::ClusterBarrier;
}

/// One of the `local.descriptor.*` scopes.
inline bool isDescriptorScope(MemoryScope s) {
  return s == MemoryScope::DescriptorWgmma ||
         s == MemoryScope::DescriptorTcgen05Smem ||
         s == MemoryScope::DescriptorTcgen05Instr;
}

/// True when the scope occupies the block's shared memory budget (shared
/// tiles and barriers; not tensor memory).
inline bool usesSharedMemory(MemoryScope s) {
  return isSharedScope(s) || isBarrierScope(s);
}

/// True when a buffer of this scope may only exist inside a `T.Kernel`
/// region (everything except `global`).
inline bool requiresKernelScope(MemoryScope s) { return !isGlobalScope(s); }

} // namespace lang
} // namespace tlc

#endif // TLC_LANG_SCOPE_H
