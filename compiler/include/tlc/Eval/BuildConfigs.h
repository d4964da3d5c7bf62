//===- BuildConfigs.h - pass_configs and compile_flags ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a kernel asks of its build beyond its code, as the evaluator reads
// it from `pass_configs=` / `compile_flags=` (of `@tilelang.jit` and
// `tilelang.compile`), `T.annotate_pass_configs` / `T.annotate_compile_flags`
// in the body, and tlc-build's `--pass-config` / `--compile-flag`. Each
// instance's merged set is recorded on its `tile.func`
// (tlc/Dialect/Tile/IR/PassConfigs.h).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_EVAL_BUILDCONFIGS_H
#define TLC_EVAL_BUILDCONFIGS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace tlc::eval {

struct BuildConfigs {
  /// Pass-config key as TileLang spells it ("tl.disable_wgmma") and its
  /// value as Python prints it ("True", "64"), in the order first given.
  std::vector<std::pair<std::string, std::string>> passConfigs;
  /// Device-compiler flags, in order.
  std::vector<std::string> compileFlags;

  /// Sets \p key to \p value; a later setting of a key wins.
  void set(llvm::StringRef key, llvm::StringRef value) {
    for (auto &[k, v] : passConfigs)
      if (k == key) {
        v = value.str();
        return;
      }
    passConfigs.emplace_back(key.str(), value.str());
  }
  /// Merges \p over into this: its keys win, its flags come after.
  void merge(const BuildConfigs &over) {
    for (const auto &[k, v] : over.passConfigs)
      set(k, v);
    compileFlags.insert(compileFlags.end(), over.compileFlags.begin(),
                        over.compileFlags.end());
  }
  /// The value of \p key, or empty when not given.
  llvm::StringRef get(llvm::StringRef key) const {
    for (const auto &[k, v] : passConfigs)
      if (k == key)
        return v;
    return {};
  }
  /// TL_ENABLE_FAST_MATH given a true value and TL_DISABLE_FAST_MATH not.
  bool fastMath() const {
    auto on = [&](llvm::StringRef key) {
      llvm::StringRef v = get(key);
      long long n;
      return v == "True" || (!v.getAsInteger(0, n) && n != 0);
    };
    return on("tl.enable_fast_math") && !on("tl.disable_fast_math");
  }
  bool empty() const { return passConfigs.empty() && compileFlags.empty(); }
};

} // namespace tlc::eval

#endif // TLC_EVAL_BUILDCONFIGS_H
