//===- SymExpr.h - Symbolic integer expressions -----------------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A small algebra of symbolic integers used for shapes, extents and index
// arithmetic whose operands are meta parameters without a known value
// (`block_M`, `M // 128`, `bx * 128 + 64`). Expressions are immutable and
// uniqued in a SymContext, so equality is pointer equality.
//
// Canonical form: a linear combination `c0 + c1*t1 + ... + cn*tn` whose terms
// are symbols, products of atoms, or opaque binary atoms (floordiv, mod,
// ceildiv, min, max). Constants fold everywhere; exact integer identities such
// as `(k*c + r) // c == k + r // c` are applied so that slice extents like
// `(bx + 1) * bM - bx * bM` simplify to `bM`.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_EVAL_SYMEXPR_H
#define TLC_EVAL_SYMEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tlc::eval {

/// The shape of a symbolic expression node.
enum class SymKind : uint8_t {
  Constant, ///< An int64 literal.
  Symbol,   ///< A named unknown (meta parameter, T.const, loop variable).
  Sum,      ///< constant + sum(coef * term), at least one term.
  Product,  ///< A product of two or more non-constant atoms.
  FloorDiv, ///< lhs // rhs (Python floor division).
  Mod,      ///< lhs % rhs (Python modulo: sign of rhs).
  CeilDiv,  ///< ceildiv(lhs, rhs).
  Min,      ///< min(lhs, rhs).
  Max,      ///< max(lhs, rhs).
};

class SymNode;

/// One `coef * term` summand of a Sum node.
struct SymTerm {
  /// Non-zero coefficient.
  int64_t coef;
  /// A node that is neither a Constant nor a Sum.
  const SymNode *term;
};

/// A uniqued, immutable node. Use SymExpr to handle nodes.
class SymNode : public llvm::FoldingSetNode {
public:
  /// The node's kind.
  SymKind kind;
  /// Creation index in its context; orders terms canonically.
  uint32_t id = 0;
  /// Constant value for Constant, the constant term for Sum, the
  /// disambiguating id for Symbol.
  int64_t value = 0;
  /// Symbol name (Symbol only).
  llvm::StringRef name;
  /// Summands (Sum only), sorted by term id.
  llvm::ArrayRef<SymTerm> terms;
  /// Factors (Product only), sorted by id, repeated for powers.
  llvm::ArrayRef<const SymNode *> factors;
  /// Operands of the binary atoms.
  const SymNode *lhs = nullptr, *rhs = nullptr;

  /// FoldingSet profile of the node's contents.
  void Profile(llvm::FoldingSetNodeID &id) const;
};

/// A cheap value handle to a uniqued symbolic expression; null when an
/// operation failed (division by zero, int64 overflow).
class SymExpr {
public:
  SymExpr() = default;
  /// Wraps \p node (may be null).
  explicit SymExpr(const SymNode *node) : node(node) {}

  /// True for the null (failed) expression.
  bool isNull() const { return node == nullptr; }
  explicit operator bool() const { return node != nullptr; }
  /// The node's kind; must not be null.
  SymKind getKind() const { return node->kind; }
  /// True when the expression is an integer literal.
  bool isConstant() const { return node && node->kind == SymKind::Constant; }
  /// The literal value when isConstant().
  std::optional<int64_t> getConstant() const {
    if (isConstant())
      return node->value;
    return std::nullopt;
  }
  /// True when the expression is a bare symbol.
  bool isSymbol() const { return node && node->kind == SymKind::Symbol; }
  /// The underlying node.
  const SymNode *getNode() const { return node; }

  /// Pointer equality is structural equality (nodes are uniqued).
  bool operator==(SymExpr other) const { return node == other.node; }
  bool operator!=(SymExpr other) const { return node != other.node; }

  /// Prints in Python syntax: `block_M`, `M // 128`, `bx * 128 + 64`.
  void print(llvm::raw_ostream &os) const;
  /// print() into a string.
  std::string str() const;

private:
  const SymNode *node = nullptr;
};

/// Owns and uniques symbolic expressions. Not thread-safe; one per evaluation
/// session. Expressions stay valid for the context's lifetime.
class SymContext {
public:
  SymContext();
  ~SymContext();
  SymContext(const SymContext &) = delete;
  SymContext &operator=(const SymContext &) = delete;

  /// The literal \p v.
  SymExpr constant(int64_t v);
  /// The symbol \p name; symbols with equal name and \p uniqueId are equal.
  /// The name is copied into the context.
  SymExpr symbol(llvm::StringRef name, int64_t uniqueId = 0);
  /// A symbol distinct from every other (for loop and thread variables).
  SymExpr freshSymbol(llvm::StringRef name);

  /// a + b. Null if an operand is null or on overflow.
  SymExpr add(SymExpr a, SymExpr b);
  /// a - b.
  SymExpr sub(SymExpr a, SymExpr b);
  /// -a.
  SymExpr neg(SymExpr a);
  /// a * b (distributes over sums).
  SymExpr mul(SymExpr a, SymExpr b);
  /// a // b (Python floor division). Null on division by the constant 0.
  SymExpr floorDiv(SymExpr a, SymExpr b);
  /// a % b (Python modulo). Null on modulo by the constant 0.
  SymExpr mod(SymExpr a, SymExpr b);
  /// ceildiv(a, b) == -((-a) // b).
  SymExpr ceilDiv(SymExpr a, SymExpr b);
  /// min(a, b).
  SymExpr min(SymExpr a, SymExpr b);
  /// max(a, b).
  SymExpr max(SymExpr a, SymExpr b);

  /// Decides a < b when a - b is a constant; nullopt otherwise.
  std::optional<bool> lessThan(SymExpr a, SymExpr b);
  /// Decides a == b: true when identical, false when a - b is a non-zero
  /// constant, nullopt otherwise.
  std::optional<bool> equal(SymExpr a, SymExpr b);

  /// Replaces symbols by the expressions \p lookup returns (null keeps the
  /// symbol) and re-simplifies.
  SymExpr substitute(SymExpr e,
                     llvm::function_ref<SymExpr(const SymNode *)> lookup);

  /// Number of nodes created (for tests and statistics).
  unsigned getNumNodes() const { return nextId; }

private:
  struct Linear;
  const SymNode *unique(SymNode &proto);
  SymExpr fromLinear(Linear &lin);
  bool toLinear(SymExpr e, Linear &lin, int64_t scale);
  SymExpr binaryAtom(SymKind kind, SymExpr a, SymExpr b);
  SymExpr productOf(llvm::ArrayRef<const SymNode *> factors);
  SymExpr mulTerms(const SymNode *a, const SymNode *b);

  llvm::BumpPtrAllocator allocator;
  llvm::FoldingSet<SymNode> nodes;
  llvm::DenseMap<int64_t, const SymNode *> smallConstants;
  uint32_t nextId = 0;
  int64_t nextFresh = 1;
};

} // namespace tlc::eval

#endif // TLC_EVAL_SYMEXPR_H
