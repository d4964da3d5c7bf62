//===- IndexExpr.cpp - Integer index expressions for layouts --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Nodes, builders with constant folding, evaluation, Python-syntax printing
// and the parser. Range-based simplification lives in IndexExprSimplify.cpp.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/IndexExpr.h"
#include "IndexNode.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cassert>

using namespace tlc::layout;

//===----------------------------------------------------------------------===//
// Integer helpers
//===----------------------------------------------------------------------===//

int64_t tlc::layout::floorDivInt(int64_t lhs, int64_t rhs) {
  int64_t q = lhs / rhs;
  if ((lhs % rhs != 0) && ((lhs < 0) != (rhs < 0)))
    --q;
  return q;
}

int64_t tlc::layout::floorModInt(int64_t lhs, int64_t rhs) {
  int64_t r = lhs % rhs;
  if (r != 0 && ((r < 0) != (rhs < 0)))
    r += rhs;
  return r;
}

/// Applies a binary operator to two constants; std::nullopt when undefined.
static std::optional<int64_t> foldBinary(IndexKind kind, int64_t a,
                                         int64_t b) {
  switch (kind) {
  case IndexKind::Add:
    if (int64_t r; !__builtin_add_overflow(a, b, &r))
      return r;
    return std::nullopt;
  case IndexKind::Mul:
    if (int64_t r; !__builtin_mul_overflow(a, b, &r))
      return r;
    return std::nullopt;
  case IndexKind::FloorDiv:
    if (b == 0)
      return std::nullopt;
    return floorDivInt(a, b);
  case IndexKind::Mod:
    if (b == 0)
      return std::nullopt;
    return floorModInt(a, b);
  case IndexKind::Xor:
    return a ^ b;
  case IndexKind::And:
    return a & b;
  case IndexKind::Or:
    return a | b;
  case IndexKind::Shl:
    if (b < 0 || b > 62)
      return std::nullopt;
    if (int64_t r; !__builtin_mul_overflow(a, int64_t(1) << b, &r))
      return r;
    return std::nullopt;
  case IndexKind::Shr:
    if (b < 0)
      return std::nullopt;
    if (b > 62)
      return a < 0 ? -1 : 0;
    return floorDivInt(a, int64_t(1) << b);
  case IndexKind::Const:
  case IndexKind::Var:
    break;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// IndexExpr
//===----------------------------------------------------------------------===//

IndexExpr IndexNode::make(IndexKind kind, int64_t value, std::string name,
                          IndexExpr lhs, IndexExpr rhs) {
  auto node = std::make_shared<IndexNode>();
  node->kind = kind;
  node->value = value;
  node->name = std::move(name);
  node->lhs = std::move(lhs);
  node->rhs = std::move(rhs);
  return IndexExpr(std::move(node));
}

IndexExpr IndexExpr::constant(int64_t value) {
  return IndexNode::make(IndexKind::Const, value, "", {}, {});
}

IndexExpr IndexExpr::var(unsigned id, llvm::StringRef name) {
  return IndexNode::make(IndexKind::Var, id, name.str(), {}, {});
}

IndexKind IndexExpr::kind() const {
  assert(node && "null IndexExpr");
  return node->kind;
}

std::optional<int64_t> IndexExpr::getConstant() const {
  if (node && node->kind == IndexKind::Const)
    return node->value;
  return std::nullopt;
}

unsigned IndexExpr::getVarId() const {
  assert(node && node->kind == IndexKind::Var && "not a Var");
  return static_cast<unsigned>(node->value);
}

llvm::StringRef IndexExpr::getVarName() const {
  assert(node && node->kind == IndexKind::Var && "not a Var");
  return node->name;
}

IndexExpr IndexExpr::lhs() const { return node ? node->lhs : IndexExpr(); }
IndexExpr IndexExpr::rhs() const { return node ? node->rhs : IndexExpr(); }

std::optional<int64_t>
IndexExpr::evaluate(llvm::ArrayRef<int64_t> inputs) const {
  if (!node)
    return std::nullopt;
  switch (node->kind) {
  case IndexKind::Const:
    return node->value;
  case IndexKind::Var:
    if (static_cast<size_t>(node->value) >= inputs.size())
      return std::nullopt;
    return inputs[node->value];
  default:
    break;
  }
  std::optional<int64_t> a = node->lhs.evaluate(inputs);
  if (!a)
    return std::nullopt;
  std::optional<int64_t> b = node->rhs.evaluate(inputs);
  if (!b)
    return std::nullopt;
  return foldBinary(node->kind, *a, *b);
}

bool IndexExpr::operator==(const IndexExpr &other) const {
  if (node == other.node)
    return true;
  if (!node || !other.node)
    return false;
  if (node->kind != other.node->kind || node->value != other.node->value)
    return false;
  if (node->kind == IndexKind::Const || node->kind == IndexKind::Var)
    return true;
  return node->lhs == other.node->lhs && node->rhs == other.node->rhs;
}

bool IndexExpr::dependsOn(unsigned id) const {
  if (!node)
    return false;
  if (node->kind == IndexKind::Var)
    return static_cast<unsigned>(node->value) == id;
  if (node->kind == IndexKind::Const)
    return false;
  return node->lhs.dependsOn(id) || node->rhs.dependsOn(id);
}

static void collectVarsImpl(const IndexExpr &expr,
                            std::vector<unsigned> &out) {
  if (!expr)
    return;
  if (expr.kind() == IndexKind::Var) {
    out.push_back(expr.getVarId());
    return;
  }
  collectVarsImpl(expr.lhs(), out);
  collectVarsImpl(expr.rhs(), out);
}

std::vector<unsigned> IndexExpr::collectVars() const {
  std::vector<unsigned> out;
  collectVarsImpl(*this, out);
  llvm::sort(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

//===----------------------------------------------------------------------===//
// CompiledIndexExpr
//===----------------------------------------------------------------------===//

/// The exponent of \p v when it is a power of two in [1, 2^62].
static std::optional<int64_t> log2Exact(int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0)
    return std::nullopt;
  return llvm::countr_zero(uint64_t(v));
}

static unsigned compileInto(const IndexExpr &e,
                            std::vector<CompiledIndexExpr::Op> &code) {
  switch (e.kind()) {
  case IndexKind::Const:
    code.push_back({IndexKind::Const, *e.getConstant()});
    return 1;
  case IndexKind::Var:
    code.push_back({IndexKind::Var, int64_t(e.getVarId())});
    return 1;
  default:
    break;
  }
  unsigned a = compileInto(e.lhs(), code);
  if (std::optional<int64_t> c = e.rhs().getConstant()) {
    // Floor division and modulo by a power of two are an arithmetic shift
    // and a mask for every int64 dividend (the layouts' usual divisors).
    std::optional<int64_t> k = log2Exact(*c);
    if (k && e.kind() == IndexKind::FloorDiv)
      code.push_back({IndexKind::Shr, *k, /*constRhs=*/true});
    else if (k && e.kind() == IndexKind::Mod)
      code.push_back({IndexKind::And, *c - 1, /*constRhs=*/true});
    else
      code.push_back({e.kind(), *c, /*constRhs=*/true});
    return a;
  }
  unsigned b = compileInto(e.rhs(), code);
  code.push_back({e.kind(), 0});
  return std::max(a, b + 1);
}

CompiledIndexExpr::CompiledIndexExpr(const IndexExpr &expr) {
  if (expr)
    maxDepth = compileInto(expr, code);
}

/// See CompiledIndexExpr::workDone().
static thread_local int64_t evaluatedOps = 0;

int64_t CompiledIndexExpr::workDone() { return evaluatedOps; }

std::optional<int64_t>
CompiledIndexExpr::evaluate(llvm::ArrayRef<int64_t> inputs) const {
  if (code.empty())
    return std::nullopt;
  evaluatedOps += int64_t(code.size());
  // Enumerating a tile calls this once per element: no allocation and no
  // initialisation of the stack for the usual shallow expressions.
  constexpr unsigned kInline = 32;
  int64_t inlineStack[kInline];
  llvm::SmallVector<int64_t, 0> heapStack;
  int64_t *top = inlineStack; // One past the top element.
  if (maxDepth >= kInline) {
    heapStack.resize(maxDepth + 1);
    top = heapStack.data();
  }
  for (const Op &op : code) {
    switch (op.kind) {
    case IndexKind::Const:
      *top++ = op.value;
      continue;
    case IndexKind::Var:
      if (static_cast<size_t>(op.value) >= inputs.size())
        return std::nullopt;
      *top++ = inputs[op.value];
      continue;
    default:
      break;
    }
    int64_t b = op.constRhs ? op.value : *--top;
    int64_t &a = top[-1];
    // The operators that cannot fail, inline; the rest through foldBinary.
    switch (op.kind) {
    case IndexKind::Add:
      if (__builtin_add_overflow(a, b, &a))
        return std::nullopt;
      continue;
    case IndexKind::Mul:
      if (__builtin_mul_overflow(a, b, &a))
        return std::nullopt;
      continue;
    case IndexKind::And:
      a &= b;
      continue;
    case IndexKind::Xor:
      a ^= b;
      continue;
    case IndexKind::Or:
      a |= b;
      continue;
    case IndexKind::Shr:
      if (b >= 0 && b <= 62) {
        a >>= b;
        continue;
      }
      break;
    default:
      break;
    }
    std::optional<int64_t> r = foldBinary(op.kind, a, b);
    if (!r)
      return std::nullopt;
    a = *r;
  }
  return top[-1];
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

IndexExpr tlc::layout::makeBinary(IndexKind kind, IndexExpr lhs,
                                  IndexExpr rhs) {
  assert(lhs && rhs && "null operand");
  std::optional<int64_t> a = lhs.getConstant(), b = rhs.getConstant();
  if (a && b)
    if (std::optional<int64_t> folded = foldBinary(kind, *a, *b))
      return IndexExpr::constant(*folded);
  switch (kind) {
  case IndexKind::Add:
    if (a && *a == 0)
      return rhs;
    if (b && *b == 0)
      return lhs;
    break;
  case IndexKind::Mul:
    if ((a && *a == 0) || (b && *b == 0))
      return IndexExpr::constant(0);
    if (a && *a == 1)
      return rhs;
    if (b && *b == 1)
      return lhs;
    // Keep constants on the left: `4 * x`.
    if (b && !a)
      std::swap(lhs, rhs);
    break;
  case IndexKind::FloorDiv:
    if (b && *b == 1)
      return lhs;
    break;
  case IndexKind::Mod:
    if (b && (*b == 1 || *b == -1))
      return IndexExpr::constant(0);
    break;
  case IndexKind::Xor:
  case IndexKind::Or:
    if (a && *a == 0)
      return rhs;
    if (b && *b == 0)
      return lhs;
    break;
  case IndexKind::And:
    if ((a && *a == 0) || (b && *b == 0))
      return IndexExpr::constant(0);
    break;
  case IndexKind::Shl:
  case IndexKind::Shr:
    if (b && *b == 0)
      return lhs;
    break;
  case IndexKind::Const:
  case IndexKind::Var:
    assert(false && "not a binary operator");
    break;
  }
  return IndexNode::make(kind, 0, "", std::move(lhs), std::move(rhs));
}

static IndexExpr c(int64_t v) { return IndexExpr::constant(v); }

IndexExpr tlc::layout::operator+(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Add, std::move(l), std::move(r));
}
IndexExpr tlc::layout::operator-(IndexExpr l, IndexExpr r) {
  if (std::optional<int64_t> v = r.getConstant())
    return makeBinary(IndexKind::Add, std::move(l), c(-*v));
  return makeBinary(IndexKind::Add, std::move(l),
                    makeBinary(IndexKind::Mul, c(-1), std::move(r)));
}
IndexExpr tlc::layout::operator*(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Mul, std::move(l), std::move(r));
}
IndexExpr tlc::layout::operator+(IndexExpr l, int64_t r) {
  return std::move(l) + c(r);
}
IndexExpr tlc::layout::operator-(IndexExpr l, int64_t r) {
  return std::move(l) + c(-r);
}
IndexExpr tlc::layout::operator*(IndexExpr l, int64_t r) {
  return std::move(l) * c(r);
}
IndexExpr tlc::layout::operator*(int64_t l, IndexExpr r) {
  return c(l) * std::move(r);
}
IndexExpr tlc::layout::floorDiv(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::FloorDiv, std::move(l), std::move(r));
}
IndexExpr tlc::layout::floorDiv(IndexExpr l, int64_t r) {
  return floorDiv(std::move(l), c(r));
}
IndexExpr tlc::layout::floorMod(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Mod, std::move(l), std::move(r));
}
IndexExpr tlc::layout::floorMod(IndexExpr l, int64_t r) {
  return floorMod(std::move(l), c(r));
}
IndexExpr tlc::layout::bitXor(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Xor, std::move(l), std::move(r));
}
IndexExpr tlc::layout::bitAnd(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::And, std::move(l), std::move(r));
}
IndexExpr tlc::layout::bitOr(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Or, std::move(l), std::move(r));
}
IndexExpr tlc::layout::shiftLeft(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Shl, std::move(l), std::move(r));
}
IndexExpr tlc::layout::shiftRight(IndexExpr l, IndexExpr r) {
  return makeBinary(IndexKind::Shr, std::move(l), std::move(r));
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Python precedence levels, lowest first.
enum Prec : int {
  PrecOr = 1,
  PrecXor,
  PrecAnd,
  PrecShift,
  PrecAdd,
  PrecMul,
  PrecUnary,
  PrecAtom,
};
} // namespace

static int precedenceOf(IndexKind kind) {
  switch (kind) {
  case IndexKind::Or:
    return PrecOr;
  case IndexKind::Xor:
    return PrecXor;
  case IndexKind::And:
    return PrecAnd;
  case IndexKind::Shl:
  case IndexKind::Shr:
    return PrecShift;
  case IndexKind::Add:
    return PrecAdd;
  case IndexKind::Mul:
  case IndexKind::FloorDiv:
  case IndexKind::Mod:
    return PrecMul;
  case IndexKind::Const:
  case IndexKind::Var:
    return PrecAtom;
  }
  return PrecAtom;
}

static const char *spellingOf(IndexKind kind) {
  switch (kind) {
  case IndexKind::Add:
    return " + ";
  case IndexKind::Mul:
    return " * ";
  case IndexKind::FloorDiv:
    return " // ";
  case IndexKind::Mod:
    return " % ";
  case IndexKind::Xor:
    return " ^ ";
  case IndexKind::And:
    return " & ";
  case IndexKind::Or:
    return " | ";
  case IndexKind::Shl:
    return " << ";
  case IndexKind::Shr:
    return " >> ";
  case IndexKind::Const:
  case IndexKind::Var:
    break;
  }
  return " ? ";
}

/// When \p expr is `-c * x` (c > 0) or a negative constant, returns the
/// negated expression so that a sum can print `a - ...`.
static IndexExpr negatedTerm(const IndexExpr &expr) {
  if (std::optional<int64_t> v = expr.getConstant())
    return *v < 0 ? IndexExpr::constant(-*v) : IndexExpr();
  if (expr.kind() == IndexKind::Mul)
    if (std::optional<int64_t> k = expr.lhs().getConstant())
      if (*k < 0)
        return *k == -1 ? expr.rhs()
                        : IndexNode::make(IndexKind::Mul, 0, "",
                                          IndexExpr::constant(-*k),
                                          expr.rhs());
  return IndexExpr();
}

/// The precedence \p expr prints at (a negative constant or `-x` is unary).
static int printedPrecedence(const IndexExpr &expr) {
  if (std::optional<int64_t> v = expr.getConstant())
    return *v < 0 ? PrecUnary : PrecAtom;
  if (expr.kind() == IndexKind::Mul)
    if (std::optional<int64_t> k = expr.lhs().getConstant())
      if (*k == -1)
        return PrecUnary;
  return precedenceOf(expr.kind());
}

static void printImpl(const IndexExpr &expr, llvm::raw_ostream &os);

static void printOperand(const IndexExpr &expr, llvm::raw_ostream &os,
                         bool parens) {
  if (parens)
    os << '(';
  printImpl(expr, os);
  if (parens)
    os << ')';
}

static void printImpl(const IndexExpr &expr, llvm::raw_ostream &os) {
  IndexKind kind = expr.kind();
  if (kind == IndexKind::Const) {
    os << *expr.getConstant();
    return;
  }
  if (kind == IndexKind::Var) {
    os << expr.getVarName();
    return;
  }
  IndexExpr l = expr.lhs(), r = expr.rhs();
  int prec = precedenceOf(kind);
  if (kind == IndexKind::Mul) {
    if (std::optional<int64_t> k = l.getConstant(); k && *k == -1) {
      os << '-';
      printOperand(r, os, printedPrecedence(r) < PrecUnary);
      return;
    }
  }
  if (kind == IndexKind::Add) {
    printOperand(l, os, printedPrecedence(l) < PrecAdd);
    if (IndexExpr neg = negatedTerm(r)) {
      os << " - ";
      printOperand(neg, os, printedPrecedence(neg) <= PrecAdd);
      return;
    }
    os << " + ";
    printOperand(r, os, printedPrecedence(r) <= PrecAdd);
    return;
  }
  int lp = printedPrecedence(l), rp = printedPrecedence(r);
  bool lParens = lp < prec;
  // For readability, `(i // 8) % 2` rather than `i // 8 % 2`.
  if (prec == PrecMul && lp == PrecMul && l.kind() != kind)
    lParens = true;
  if (prec == PrecMul && lp == PrecUnary)
    lParens = false;
  printOperand(l, os, lParens);
  os << spellingOf(kind);
  printOperand(r, os, rp <= prec);
}

void IndexExpr::print(llvm::raw_ostream &os) const {
  if (!node) {
    os << "<null>";
    return;
  }
  printImpl(*this, os);
}

std::string IndexExpr::str() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  print(os);
  return out;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// A precedence-climbing parser over the Python operator subset.
class Parser {
public:
  Parser(llvm::StringRef text, llvm::ArrayRef<std::string> names)
      : text(text), names(names) {}

  llvm::Expected<IndexExpr> parseAll() {
    llvm::Expected<IndexExpr> e = parseBinary(PrecOr);
    if (!e)
      return e.takeError();
    skipSpace();
    if (pos != text.size())
      return error("unexpected '" + text.substr(pos, 1).str() + "'");
    return e;
  }

private:
  llvm::StringRef text;
  llvm::ArrayRef<std::string> names;
  size_t pos = 0;

  llvm::Error error(const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::Twine(pos) + ": " + msg);
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n'))
      ++pos;
  }

  /// Peeks the binary operator at the cursor; returns its kind and length.
  std::optional<std::pair<IndexKind, size_t>> peekOperator() {
    skipSpace();
    llvm::StringRef rest = text.substr(pos);
    auto word = [&](llvm::StringRef w) {
      return rest.starts_with(w) &&
             (rest.size() == w.size() ||
              !(llvm::isAlnum(rest[w.size()]) || rest[w.size()] == '_'));
    };
    if (rest.starts_with("//"))
      return std::make_pair(IndexKind::FloorDiv, size_t(2));
    if (rest.starts_with("<<"))
      return std::make_pair(IndexKind::Shl, size_t(2));
    if (rest.starts_with(">>"))
      return std::make_pair(IndexKind::Shr, size_t(2));
    if (word("floordiv"))
      return std::make_pair(IndexKind::FloorDiv, size_t(8));
    if (word("mod"))
      return std::make_pair(IndexKind::Mod, size_t(3));
    if (word("xor"))
      return std::make_pair(IndexKind::Xor, size_t(3));
    if (rest.empty())
      return std::nullopt;
    switch (rest[0]) {
    case '+':
    case '-':
      return std::make_pair(IndexKind::Add, size_t(1));
    case '*':
      return std::make_pair(IndexKind::Mul, size_t(1));
    case '%':
      return std::make_pair(IndexKind::Mod, size_t(1));
    case '^':
      return std::make_pair(IndexKind::Xor, size_t(1));
    case '&':
      return std::make_pair(IndexKind::And, size_t(1));
    case '|':
      return std::make_pair(IndexKind::Or, size_t(1));
    default:
      return std::nullopt;
    }
  }

  llvm::Expected<IndexExpr> parseBinary(int minPrec) {
    llvm::Expected<IndexExpr> lhs = parseUnary();
    if (!lhs)
      return lhs.takeError();
    IndexExpr result = *lhs;
    while (true) {
      auto op = peekOperator();
      if (!op || precedenceOf(op->first) < minPrec)
        break;
      bool minus = text[pos] == '-';
      pos += op->second;
      llvm::Expected<IndexExpr> rhs =
          parseBinary(precedenceOf(op->first) + 1);
      if (!rhs)
        return rhs.takeError();
      if (minus)
        result = result - *rhs;
      else
        result = makeBinary(op->first, result, *rhs);
    }
    return result;
  }

  llvm::Expected<IndexExpr> parseUnary() {
    skipSpace();
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
      bool neg = text[pos] == '-';
      ++pos;
      llvm::Expected<IndexExpr> e = parseUnary();
      if (!e)
        return e.takeError();
      return neg ? IndexExpr::constant(-1) * *e : *e;
    }
    return parsePrimary();
  }

  llvm::Expected<IndexExpr> parsePrimary() {
    skipSpace();
    if (pos >= text.size())
      return error("expected an expression");
    char ch = text[pos];
    if (ch == '(') {
      ++pos;
      llvm::Expected<IndexExpr> e = parseBinary(PrecOr);
      if (!e)
        return e.takeError();
      skipSpace();
      if (pos >= text.size() || text[pos] != ')')
        return error("expected ')'");
      ++pos;
      return e;
    }
    if (llvm::isDigit(ch)) {
      size_t start = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      int64_t value = 0;
      if (text.substr(start, pos - start).getAsInteger(10, value)) {
        pos = start;
        return error("integer literal out of range");
      }
      return IndexExpr::constant(value);
    }
    if (llvm::isAlpha(ch) || ch == '_') {
      size_t start = pos;
      while (pos < text.size() &&
             (llvm::isAlnum(text[pos]) || text[pos] == '_'))
        ++pos;
      llvm::StringRef name = text.substr(start, pos - start);
      for (auto [id, candidate] : llvm::enumerate(names))
        if (candidate == name)
          return IndexExpr::var(id, name);
      pos = start;
      return error("unknown name '" + name + "'");
    }
    return error("unexpected '" + text.substr(pos, 1).str() + "'");
  }
};
} // namespace

llvm::Expected<IndexExpr>
tlc::layout::parseIndexExpr(llvm::StringRef text,
                            llvm::ArrayRef<std::string> varNames) {
  return Parser(text, varNames).parseAll();
}
