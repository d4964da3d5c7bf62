//===- ShapeExpr.h - Symbolic extents of kernel artifacts -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The small integer expression language of symbolic extents in Tile IR
// buffer types and in manifests: integer literals, symbol names, `+`, `-`,
// `*`, `//` (floor division), `%` (Python modulo), unary `-`, parentheses
// and the calls `ceildiv(a, b)`, `min(a, b)`, `max(a, b)`. This is the
// syntax tlc's evaluator prints (`M // 128`, `ceildiv(N, 64) * 64`).
//
// The runtime evaluates these with symbol values from the command line; the
// emitters print them as C++.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_ARTIFACT_SHAPEEXPR_H
#define TLC_TARGET_ARTIFACT_SHAPEEXPR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlc::artifact {

/// A parsed symbolic extent. Cheap to copy (shares its immutable tree).
class ShapeExpr {
public:
  /// Node kinds.
  enum class Kind { Constant, Symbol, Neg, Add, Sub, Mul, FloorDiv, Mod,
                    CeilDiv, Min, Max };

  /// Parses \p text; an error names the offending column.
  static llvm::Expected<ShapeExpr> parse(llvm::StringRef text);
  /// The literal \p value.
  static ShapeExpr constant(int64_t value);

  /// Evaluates with \p lookup giving each symbol's value (nullopt: unbound,
  /// which is an error naming the symbol). Division by zero is an error.
  llvm::Expected<int64_t> evaluate(
      const std::function<std::optional<int64_t>(llvm::StringRef)> &lookup) const;

  /// Appends the names of the symbols used, each once, in first-use order.
  void collectSymbols(std::vector<std::string> &names) const;

  /// Prints as a C++ expression of type int64_t; \p symbol prints a symbol
  /// reference. Floor division, modulo and ceildiv use the helpers of
  /// tlc_device/cpu.h (`tlc::cpu::floorDiv` ...).
  void printCpp(llvm::raw_ostream &os,
                const std::function<void(llvm::raw_ostream &, llvm::StringRef)>
                    &symbol) const;
  /// As printCpp, with floor division, modulo, ceildiv, min and max
  /// written out as C expressions (device code has no helper library).
  void printInline(llvm::raw_ostream &os,
                   const std::function<void(llvm::raw_ostream &,
                                            llvm::StringRef)> &symbol) const;

  /// The constant value when the expression is a literal.
  std::optional<int64_t> getConstant() const;

  /// The tree node type (defined in ShapeExpr.cpp).
  struct Node;

private:
  explicit ShapeExpr(std::shared_ptr<const Node> node) : node(std::move(node)) {}
  std::shared_ptr<const Node> node;
  friend class ShapeExprParser;
};

} // namespace tlc::artifact

#endif // TLC_TARGET_ARTIFACT_SHAPEEXPR_H
