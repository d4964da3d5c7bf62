//===- IndexExpr.h - Integer index expressions for layouts ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A small algebra of integer index expressions over named inputs (`i`, `j`,
// `rep`, ...) and constants, closed under `+ - *`, floor division, floor
// modulo and the bit operations `^ & | << >>`. Layouts and fragments are
// vectors of these expressions.
//
// Expressions are immutable trees shared by value (copying an IndexExpr is a
// reference-count bump). Builders fold constants; `simplify` rewrites an
// expression into a canonical sum of terms using the ranges of its inputs
// (`(8*i + j) // 8 == i` when `0 <= j < 8`). Printing uses Python syntax and
// Python precedence, so a printed formula is valid Python and means the same
// thing (`4 * (i % 8) + j // 2`).
//
// Not thread-safe to mutate; IndexExpr values themselves are immutable and may
// be shared between threads.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_INDEXEXPR_H
#define TLC_LAYOUT_INDEXEXPR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace layout {

/// The operator at the root of an expression node.
enum class IndexKind : uint8_t {
  Const,    ///< An int64 literal.
  Var,      ///< A named input, identified by its id.
  Add,      ///< lhs + rhs.
  Mul,      ///< lhs * rhs.
  FloorDiv, ///< lhs // rhs (floor division; rhs != 0).
  Mod,      ///< lhs % rhs (floor modulo: the result has the sign of rhs).
  Xor,      ///< lhs ^ rhs.
  And,      ///< lhs & rhs.
  Or,       ///< lhs | rhs.
  Shl,      ///< lhs << rhs.
  Shr,      ///< lhs >> rhs (arithmetic, i.e. floor division by 2**rhs).
};

/// A closed integer interval [lo, hi]; the range of an input or the bounds of
/// an expression.
struct IndexRange {
  /// Smallest value.
  int64_t lo = 0;
  /// Largest value (inclusive).
  int64_t hi = 0;
  /// Returns the range [0, extent - 1] of an input with \p extent values.
  static IndexRange extent(int64_t extent) { return {0, extent - 1}; }
  /// Number of values in the range.
  int64_t size() const { return hi - lo + 1; }
  /// Equality of both bounds.
  bool operator==(const IndexRange &other) const {
    return lo == other.lo && hi == other.hi;
  }
};

struct IndexNode;

/// An immutable integer expression. A default-constructed IndexExpr is null
/// (no expression); every builder returns a non-null one.
class IndexExpr {
public:
  /// Creates a null expression.
  IndexExpr() = default;

  /// Creates the constant \p value.
  static IndexExpr constant(int64_t value);
  /// Creates the input \p id printed as \p name. Two inputs are the same input
  /// when their ids are equal; the name only affects printing.
  static IndexExpr var(unsigned id, llvm::StringRef name);

  /// True for a non-null expression.
  explicit operator bool() const { return node != nullptr; }
  /// The operator at the root.
  IndexKind kind() const;
  /// True when the expression is a constant.
  bool isConstant() const { return node && kind() == IndexKind::Const; }
  /// The value of a constant expression, std::nullopt otherwise.
  std::optional<int64_t> getConstant() const;
  /// The id of a Var expression (asserts on any other kind).
  unsigned getVarId() const;
  /// The printed name of a Var expression (asserts on any other kind).
  llvm::StringRef getVarName() const;
  /// The left operand of a binary node (null for leaves).
  IndexExpr lhs() const;
  /// The right operand of a binary node (null for leaves).
  IndexExpr rhs() const;

  /// Evaluates the expression with input `id` bound to `inputs[id]`.
  /// Returns std::nullopt on division or modulo by zero, a negative shift, a
  /// result outside int64 (no wrap-around), or an input id outside \p inputs.
  std::optional<int64_t> evaluate(llvm::ArrayRef<int64_t> inputs) const;

  /// Structural equality (same tree, same constants, same input ids).
  bool operator==(const IndexExpr &other) const;
  /// Structural inequality.
  bool operator!=(const IndexExpr &other) const { return !(*this == other); }

  /// True when the expression mentions input \p id.
  bool dependsOn(unsigned id) const;
  /// Ids of every input the expression mentions, sorted, without duplicates.
  std::vector<unsigned> collectVars() const;

  /// Prints the expression in Python syntax with minimal parentheses.
  void print(llvm::raw_ostream &os) const;
  /// Returns print() as a string ("<null>" for a null expression).
  std::string str() const;

  /// The underlying node (for the implementation).
  const IndexNode *get() const { return node.get(); }

private:
  friend struct IndexNode;
  explicit IndexExpr(std::shared_ptr<const IndexNode> node)
      : node(std::move(node)) {}
  std::shared_ptr<const IndexNode> node;

  friend IndexExpr makeBinary(IndexKind kind, IndexExpr lhs, IndexExpr rhs);
};

/// An expression flattened to postfix code for fast repeated evaluation
/// (enumerating a tile). Cheap to copy; immutable.
class CompiledIndexExpr {
public:
  /// Creates a program that evaluates to std::nullopt.
  CompiledIndexExpr() = default;
  /// Compiles \p expr.
  explicit CompiledIndexExpr(const IndexExpr &expr);
  /// Same result as IndexExpr::evaluate on the compiled expression.
  std::optional<int64_t> evaluate(llvm::ArrayRef<int64_t> inputs) const;
  /// Operations evaluate() has run on this thread so far: the work of the
  /// layout enumerations, which callers budget (layout inference measures
  /// one kernel's by the difference before and after).
  static int64_t workDone();

  /// One postfix instruction (for the implementation). A binary operator
  /// with `constRhs` takes its right operand from `value` instead of the
  /// stack.
  struct Op {
    IndexKind kind;
    int64_t value;
    bool constRhs = false;
  };

private:
  std::vector<Op> code;
  unsigned maxDepth = 0;
};

/// Builds `kind(lhs, rhs)` with constant folding and the trivial identities
/// (`x + 0`, `x * 1`, `x * 0`, `x // 1`, `x % 1`, `x ^ 0`). No range-based
/// rewriting happens here; see simplify().
IndexExpr makeBinary(IndexKind kind, IndexExpr lhs, IndexExpr rhs);

/// Arithmetic builders; see makeBinary().
IndexExpr operator+(IndexExpr lhs, IndexExpr rhs);
IndexExpr operator-(IndexExpr lhs, IndexExpr rhs);
IndexExpr operator*(IndexExpr lhs, IndexExpr rhs);
IndexExpr operator+(IndexExpr lhs, int64_t rhs);
IndexExpr operator-(IndexExpr lhs, int64_t rhs);
IndexExpr operator*(IndexExpr lhs, int64_t rhs);
IndexExpr operator*(int64_t lhs, IndexExpr rhs);
IndexExpr floorDiv(IndexExpr lhs, IndexExpr rhs);
IndexExpr floorDiv(IndexExpr lhs, int64_t rhs);
IndexExpr floorMod(IndexExpr lhs, IndexExpr rhs);
IndexExpr floorMod(IndexExpr lhs, int64_t rhs);
IndexExpr bitXor(IndexExpr lhs, IndexExpr rhs);
IndexExpr bitAnd(IndexExpr lhs, IndexExpr rhs);
IndexExpr bitOr(IndexExpr lhs, IndexExpr rhs);
IndexExpr shiftLeft(IndexExpr lhs, IndexExpr rhs);
IndexExpr shiftRight(IndexExpr lhs, IndexExpr rhs);

/// Floor division of int64 values (rhs != 0).
int64_t floorDivInt(int64_t lhs, int64_t rhs);
/// Floor modulo of int64 values (rhs != 0); the result has the sign of rhs.
int64_t floorModInt(int64_t lhs, int64_t rhs);

/// Ranges of inputs by id, for simplify() and bounds(). Inputs without an
/// entry (id beyond the vector, or std::nullopt) are unbounded.
using VarRanges = std::vector<std::optional<IndexRange>>;

/// Computes conservative bounds of \p expr given \p ranges, or std::nullopt
/// when some input is unbounded or a divisor is not a positive constant.
std::optional<IndexRange> bounds(const IndexExpr &expr,
                                 const VarRanges &ranges);

/// Rewrites \p expr into canonical form: a sum `c1*t1 + ... + c0` of atoms
/// ordered by decreasing coefficient, where floor division and modulo by
/// constants are split using the input ranges (`(8*i + j) // 8 -> i` when
/// `0 <= j < 8`, `(i % 64) // 8 -> (i // 8) % 8`, `i % 16 -> i` when
/// `i < 16`). The result is equal to \p expr for every input in \p ranges.
IndexExpr simplify(const IndexExpr &expr, const VarRanges &ranges = {});

/// Replaces every input `id` with `replacements[id]` when that entry exists
/// and is non-null. No simplification is done.
IndexExpr substitute(const IndexExpr &expr,
                     llvm::ArrayRef<IndexExpr> replacements);

/// Parses \p text in the syntax print() produces (Python operators; the words
/// `floordiv`, `mod` and `xor` are accepted as well). Names are resolved
/// against \p varNames: the name `varNames[k]` becomes input k. Unknown names
/// and malformed text give an error whose message starts with the byte offset
/// (`"3: unknown name 'q'"`).
llvm::Expected<IndexExpr> parseIndexExpr(llvm::StringRef text,
                                         llvm::ArrayRef<std::string> varNames);

/// Prints \p expr (see IndexExpr::print).
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const IndexExpr &expr) {
  expr.print(os);
  return os;
}

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_INDEXEXPR_H
