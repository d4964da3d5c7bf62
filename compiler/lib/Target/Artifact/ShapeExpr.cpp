//===- ShapeExpr.cpp - Symbolic extents of kernel artifacts ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/ShapeExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tlc::artifact;

struct ShapeExpr::Node {
  Kind kind;
  int64_t value = 0;
  std::string name;
  std::shared_ptr<const Node> lhs, rhs;
};

namespace tlc::artifact {

/// Recursive-descent parser over the expression text.
class ShapeExprParser {
public:
  explicit ShapeExprParser(llvm::StringRef text) : text(text) {}

  llvm::Expected<ShapeExpr> run() {
    auto e = parseSum();
    if (!e)
      return e.takeError();
    skipSpace();
    if (pos != text.size())
      return error("unexpected character");
    return ShapeExpr(*e);
  }

private:
  using NodePtr = std::shared_ptr<const ShapeExpr::Node>;
  using Kind = ShapeExpr::Kind;

  llvm::StringRef text;
  size_t pos = 0;

  llvm::Error error(const llvm::Twine &what) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "invalid extent '" + text + "' at column " + llvm::Twine(pos + 1) +
            ": " + what);
  }
  void skipSpace() {
    while (pos < text.size() && text[pos] == ' ')
      ++pos;
  }
  bool eat(llvm::StringRef token) {
    skipSpace();
    if (!text.substr(pos).starts_with(token))
      return false;
    pos += token.size();
    return true;
  }
  static NodePtr make(Kind k, NodePtr l, NodePtr r) {
    auto n = std::make_shared<ShapeExpr::Node>();
    n->kind = k;
    n->lhs = std::move(l);
    n->rhs = std::move(r);
    return n;
  }

  llvm::Expected<NodePtr> parseSum() {
    auto lhs = parseProduct();
    if (!lhs)
      return lhs;
    while (true) {
      Kind k;
      if (eat("+"))
        k = Kind::Add;
      else if (eat("-"))
        k = Kind::Sub;
      else
        return lhs;
      auto rhs = parseProduct();
      if (!rhs)
        return rhs;
      *lhs = make(k, *lhs, *rhs);
    }
  }

  llvm::Expected<NodePtr> parseProduct() {
    auto lhs = parseUnary();
    if (!lhs)
      return lhs;
    while (true) {
      Kind k;
      if (eat("//"))
        k = Kind::FloorDiv;
      else if (eat("*"))
        k = Kind::Mul;
      else if (eat("%"))
        k = Kind::Mod;
      else
        return lhs;
      auto rhs = parseUnary();
      if (!rhs)
        return rhs;
      *lhs = make(k, *lhs, *rhs);
    }
  }

  llvm::Expected<NodePtr> parseUnary() {
    if (eat("-")) {
      auto e = parseUnary();
      if (!e)
        return e;
      return make(Kind::Neg, *e, nullptr);
    }
    if (eat("+"))
      return parseUnary();
    return parseAtom();
  }

  llvm::Expected<NodePtr> parseAtom() {
    skipSpace();
    if (pos >= text.size())
      return error("expected a value");
    if (eat("(")) {
      auto e = parseSum();
      if (!e)
        return e;
      if (!eat(")"))
        return error("expected ')'");
      return e;
    }
    char c = text[pos];
    if (llvm::isDigit(c)) {
      size_t start = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      auto n = std::make_shared<ShapeExpr::Node>();
      n->kind = Kind::Constant;
      if (text.substr(start, pos - start).getAsInteger(10, n->value))
        return error("integer too large");
      return NodePtr(n);
    }
    if (llvm::isAlpha(c) || c == '_') {
      size_t start = pos;
      while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
        ++pos;
      llvm::StringRef name = text.substr(start, pos - start);
      Kind call;
      bool isCall = true;
      if (name == "ceildiv")
        call = Kind::CeilDiv;
      else if (name == "min")
        call = Kind::Min;
      else if (name == "max")
        call = Kind::Max;
      else
        isCall = false;
      skipSpace();
      if (isCall && pos < text.size() && text[pos] == '(') {
        ++pos;
        auto a = parseSum();
        if (!a)
          return a;
        if (!eat(","))
          return error("expected ','");
        auto b = parseSum();
        if (!b)
          return b;
        if (!eat(")"))
          return error("expected ')'");
        return make(call, *a, *b);
      }
      auto n = std::make_shared<ShapeExpr::Node>();
      n->kind = Kind::Symbol;
      n->name = name.str();
      return NodePtr(n);
    }
    return error("unexpected character");
  }
};

} // namespace tlc::artifact

llvm::Expected<ShapeExpr> ShapeExpr::parse(llvm::StringRef text) {
  return ShapeExprParser(text).run();
}

ShapeExpr ShapeExpr::constant(int64_t value) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Constant;
  n->value = value;
  return ShapeExpr(n);
}

std::optional<int64_t> ShapeExpr::getConstant() const {
  if (node && node->kind == Kind::Constant)
    return node->value;
  return std::nullopt;
}

static int64_t floorDivI(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

static llvm::Expected<int64_t>
evalNode(const ShapeExpr::Node *n,
         const std::function<std::optional<int64_t>(llvm::StringRef)> &lookup) {
  using Kind = ShapeExpr::Kind;
  switch (n->kind) {
  case Kind::Constant:
    return n->value;
  case Kind::Symbol:
    if (std::optional<int64_t> v = lookup(n->name))
      return *v;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unbound symbol '" + n->name +
                                       "' (bind it with -D " + n->name +
                                       "=VALUE)");
  default:
    break;
  }
  auto l = evalNode(n->lhs.get(), lookup);
  if (!l)
    return l;
  if (n->kind == Kind::Neg)
    return -*l;
  auto r = evalNode(n->rhs.get(), lookup);
  if (!r)
    return r;
  int64_t a = *l, b = *r;
  switch (n->kind) {
  case Kind::Add:
    return a + b;
  case Kind::Sub:
    return a - b;
  case Kind::Mul:
    return a * b;
  case Kind::Min:
    return std::min(a, b);
  case Kind::Max:
    return std::max(a, b);
  default:
    break;
  }
  if (b == 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "division by zero in an extent");
  switch (n->kind) {
  case Kind::FloorDiv:
    return floorDivI(a, b);
  case Kind::Mod:
    return a - floorDivI(a, b) * b;
  case Kind::CeilDiv:
    return -floorDivI(-a, b);
  default:
    llvm_unreachable("all kinds handled");
  }
}

llvm::Expected<int64_t> ShapeExpr::evaluate(
    const std::function<std::optional<int64_t>(llvm::StringRef)> &lookup) const {
  return evalNode(node.get(), lookup);
}

static void collect(const ShapeExpr::Node *n, std::vector<std::string> &names) {
  if (!n)
    return;
  if (n->kind == ShapeExpr::Kind::Symbol) {
    if (!llvm::is_contained(names, n->name))
      names.push_back(n->name);
    return;
  }
  collect(n->lhs.get(), names);
  collect(n->rhs.get(), names);
}

void ShapeExpr::collectSymbols(std::vector<std::string> &names) const {
  collect(node.get(), names);
}

/// Prints \p n as C++; with \p inlineHelpers the divisions and min/max are
/// written out (printInline), else they call the CPU runtime's helpers.
static void
printNode(const ShapeExpr::Node *n, llvm::raw_ostream &os,
          const std::function<void(llvm::raw_ostream &, llvm::StringRef)> &sym,
          bool inlineHelpers) {
  using Kind = ShapeExpr::Kind;
  auto print = [&](const ShapeExpr::Node *m) {
    printNode(m, os, sym, inlineHelpers);
  };
  auto call = [&](const char *fn) {
    os << fn << "(";
    print(n->lhs.get());
    os << ", ";
    print(n->rhs.get());
    os << ")";
  };
  auto binary = [&](const char *op) {
    os << "(";
    print(n->lhs.get());
    os << ' ' << op << ' ';
    print(n->rhs.get());
    os << ")";
  };
  // Floor division of a by b as C's truncating one, corrected when the
  // remainder is non-zero and the signs differ.
  auto floorDiv = [&](const std::function<void()> &a,
                      const std::function<void()> &b) {
    os << "((";
    a();
    os << " / ";
    b();
    os << ") - ((";
    a();
    os << " % ";
    b();
    os << " != 0) && ((";
    a();
    os << " < 0) != (";
    b();
    os << " < 0))))";
  };
  auto lhs = [&] { print(n->lhs.get()); };
  auto rhs = [&] { print(n->rhs.get()); };
  switch (n->kind) {
  case Kind::Constant:
    os << n->value;
    return;
  case Kind::Symbol:
    sym(os, n->name);
    return;
  case Kind::Neg:
    os << "(-";
    print(n->lhs.get());
    os << ")";
    return;
  case Kind::Add:
    return binary("+");
  case Kind::Sub:
    return binary("-");
  case Kind::Mul:
    return binary("*");
  case Kind::FloorDiv:
    if (inlineHelpers)
      return floorDiv(lhs, rhs);
    return call("tlc::cpu::floorDiv<int64_t>");
  case Kind::Mod:
    if (!inlineHelpers)
      return call("tlc::cpu::floorMod<int64_t>");
    // a - b * floor(a / b)
    os << "(";
    lhs();
    os << " - ";
    rhs();
    os << " * ";
    floorDiv(lhs, rhs);
    os << ")";
    return;
  case Kind::CeilDiv:
    if (!inlineHelpers)
      return call("tlc::cpu::ceilDiv<int64_t>");
    // -floor(-a / b)
    os << "(-";
    floorDiv(
        [&] {
          os << "(-";
          lhs();
          os << ")";
        },
        rhs);
    os << ")";
    return;
  case Kind::Min:
  case Kind::Max:
    if (!inlineHelpers)
      return call(n->kind == Kind::Min ? "std::min<int64_t>"
                                       : "std::max<int64_t>");
    os << "((";
    lhs();
    os << (n->kind == Kind::Min ? " < " : " > ");
    rhs();
    os << ") ? ";
    lhs();
    os << " : ";
    rhs();
    os << ")";
    return;
  }
}

void ShapeExpr::printCpp(
    llvm::raw_ostream &os,
    const std::function<void(llvm::raw_ostream &, llvm::StringRef)> &symbol)
    const {
  printNode(node.get(), os, symbol, /*inlineHelpers=*/false);
}

void ShapeExpr::printInline(
    llvm::raw_ostream &os,
    const std::function<void(llvm::raw_ostream &, llvm::StringRef)> &symbol)
    const {
  printNode(node.get(), os, symbol, /*inlineHelpers=*/true);
}
