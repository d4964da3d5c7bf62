//===- SymExpr.cpp - Symbolic integer expressions -------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tlc/Eval/SymExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace tlc::eval;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Integer helpers with Python semantics
//===----------------------------------------------------------------------===//

static int64_t pyFloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

static int64_t pyMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

//===----------------------------------------------------------------------===//
// SymNode
//===----------------------------------------------------------------------===//

void SymNode::Profile(llvm::FoldingSetNodeID &id) const {
  id.AddInteger(static_cast<unsigned>(kind));
  id.AddInteger(value);
  id.AddString(name);
  id.AddInteger(terms.size());
  for (const SymTerm &t : terms) {
    id.AddInteger(t.coef);
    id.AddPointer(t.term);
  }
  id.AddInteger(factors.size());
  for (const SymNode *f : factors)
    id.AddPointer(f);
  id.AddPointer(lhs);
  id.AddPointer(rhs);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Python precedence levels used by the printer.
enum Prec { PrecSum = 1, PrecMul = 2, PrecAtom = 3 };
} // namespace

static void printNode(const SymNode *n, llvm::raw_ostream &os, int minPrec);

static int precOf(const SymNode *n) {
  switch (n->kind) {
  case SymKind::Constant:
    return n->value < 0 ? PrecSum : PrecAtom;
  case SymKind::Sum:
    // `x * 64` alone binds like a product.
    if (n->value == 0 && n->terms.size() == 1 && n->terms[0].coef > 0)
      return PrecMul;
    return PrecSum;
  case SymKind::Product:
  case SymKind::FloorDiv:
  case SymKind::Mod:
    return PrecMul;
  default:
    return PrecAtom;
  }
}

static void printTerm(int64_t coef, const SymNode *term,
                      llvm::raw_ostream &os) {
  printNode(term, os, PrecMul);
  if (coef != 1)
    os << " * " << coef;
}

static void printNode(const SymNode *n, llvm::raw_ostream &os, int minPrec) {
  bool paren = precOf(n) < minPrec;
  if (paren)
    os << '(';
  switch (n->kind) {
  case SymKind::Constant:
    os << n->value;
    break;
  case SymKind::Symbol:
    os << n->name;
    break;
  case SymKind::Sum: {
    bool first = true;
    for (const SymTerm &t : n->terms) {
      if (first) {
        if (t.coef < 0) {
          // `-(i // 2) * 2`: a unary minus binds tighter than `//` and
          // `%`, so a term that is not atomic is parenthesised (`-i // 2`
          // would be (-i) // 2, another value).
          os << '-';
          printNode(t.term, os, PrecAtom);
          if (t.coef != -1)
            os << " * " << -t.coef;
        } else {
          printTerm(t.coef, t.term, os);
        }
      } else if (t.coef < 0) {
        os << " - ";
        printTerm(-t.coef, t.term, os);
      } else {
        os << " + ";
        printTerm(t.coef, t.term, os);
      }
      first = false;
    }
    if (n->value > 0)
      os << " + " << n->value;
    else if (n->value < 0)
      os << " - " << -n->value;
    break;
  }
  case SymKind::Product:
    llvm::interleave(
        n->factors, os, [&](const SymNode *f) { printNode(f, os, PrecAtom); },
        " * ");
    break;
  case SymKind::FloorDiv:
  case SymKind::Mod:
    printNode(n->lhs, os, PrecMul);
    os << (n->kind == SymKind::FloorDiv ? " // " : " % ");
    printNode(n->rhs, os, PrecAtom);
    break;
  case SymKind::CeilDiv:
  case SymKind::Min:
  case SymKind::Max:
    os << (n->kind == SymKind::CeilDiv ? "ceildiv("
           : n->kind == SymKind::Min   ? "min("
                                       : "max(");
    printNode(n->lhs, os, 0);
    os << ", ";
    printNode(n->rhs, os, 0);
    os << ')';
    break;
  }
  if (paren)
    os << ')';
}

void SymExpr::print(llvm::raw_ostream &os) const {
  if (!node) {
    os << "<invalid>";
    return;
  }
  printNode(node, os, 0);
}

std::string SymExpr::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// SymContext
//===----------------------------------------------------------------------===//

/// A mutable linear combination used while simplifying.
struct SymContext::Linear {
  int64_t constant = 0;
  SmallVector<SymTerm, 4> terms;
  bool overflow = false;
};

SymContext::SymContext() = default;
SymContext::~SymContext() = default;

const SymNode *SymContext::unique(SymNode &proto) {
  llvm::FoldingSetNodeID id;
  proto.Profile(id);
  void *insertPos = nullptr;
  if (SymNode *existing = nodes.FindNodeOrInsertPos(id, insertPos))
    return existing;
  auto *n = new (allocator.Allocate<SymNode>()) SymNode();
  n->kind = proto.kind;
  n->value = proto.value;
  n->lhs = proto.lhs;
  n->rhs = proto.rhs;
  if (!proto.name.empty()) {
    char *buf = allocator.Allocate<char>(proto.name.size());
    llvm::copy(proto.name, buf);
    n->name = llvm::StringRef(buf, proto.name.size());
  }
  if (!proto.terms.empty()) {
    auto *buf = allocator.Allocate<SymTerm>(proto.terms.size());
    llvm::copy(proto.terms, buf);
    n->terms = llvm::ArrayRef<SymTerm>(buf, proto.terms.size());
  }
  if (!proto.factors.empty()) {
    auto *buf = allocator.Allocate<const SymNode *>(proto.factors.size());
    llvm::copy(proto.factors, buf);
    n->factors = llvm::ArrayRef<const SymNode *>(buf, proto.factors.size());
  }
  n->id = nextId++;
  nodes.InsertNode(n, insertPos);
  return n;
}

SymExpr SymContext::constant(int64_t v) {
  bool small = v >= -64 && v <= 4096;
  if (small) {
    auto it = smallConstants.find(v);
    if (it != smallConstants.end())
      return SymExpr(it->second);
  }
  SymNode proto;
  proto.kind = SymKind::Constant;
  proto.value = v;
  const SymNode *n = unique(proto);
  if (small)
    smallConstants[v] = n;
  return SymExpr(n);
}

SymExpr SymContext::symbol(llvm::StringRef name, int64_t uniqueId) {
  SymNode proto;
  proto.kind = SymKind::Symbol;
  proto.name = name;
  proto.value = uniqueId;
  return SymExpr(unique(proto));
}

SymExpr SymContext::freshSymbol(llvm::StringRef name) {
  return symbol(name, nextFresh++);
}

/// Adds scale * e to lin. Returns false if e is null.
bool SymContext::toLinear(SymExpr e, Linear &lin, int64_t scale) {
  if (!e)
    return false;
  const SymNode *n = e.getNode();
  auto addConst = [&](int64_t c) {
    int64_t prod, sum;
    if (llvm::MulOverflow(c, scale, prod) ||
        llvm::AddOverflow(lin.constant, prod, sum))
      lin.overflow = true;
    else
      lin.constant = sum;
  };
  auto addTerm = [&](int64_t coef, const SymNode *t) {
    int64_t prod;
    if (llvm::MulOverflow(coef, scale, prod))
      lin.overflow = true;
    else
      lin.terms.push_back({prod, t});
  };
  switch (n->kind) {
  case SymKind::Constant:
    addConst(n->value);
    break;
  case SymKind::Sum:
    addConst(n->value);
    for (const SymTerm &t : n->terms)
      addTerm(t.coef, t.term);
    break;
  default:
    addTerm(1, n);
    break;
  }
  return true;
}

SymExpr SymContext::fromLinear(Linear &lin) {
  if (lin.overflow)
    return SymExpr();
  llvm::stable_sort(lin.terms, [](const SymTerm &a, const SymTerm &b) {
    return a.term->id < b.term->id;
  });
  SmallVector<SymTerm, 4> merged;
  for (const SymTerm &t : lin.terms) {
    if (!merged.empty() && merged.back().term == t.term) {
      int64_t sum;
      if (llvm::AddOverflow(merged.back().coef, t.coef, sum))
        return SymExpr();
      merged.back().coef = sum;
    } else {
      merged.push_back(t);
    }
  }
  llvm::erase_if(merged, [](const SymTerm &t) { return t.coef == 0; });
  if (merged.empty())
    return constant(lin.constant);
  if (merged.size() == 1 && merged[0].coef == 1 && lin.constant == 0)
    return SymExpr(merged[0].term);
  SymNode proto;
  proto.kind = SymKind::Sum;
  proto.value = lin.constant;
  proto.terms = merged;
  return SymExpr(unique(proto));
}

SymExpr SymContext::add(SymExpr a, SymExpr b) {
  if (a.isConstant() && b.isConstant()) {
    int64_t r;
    if (llvm::AddOverflow(*a.getConstant(), *b.getConstant(), r))
      return SymExpr();
    return constant(r);
  }
  Linear lin;
  if (!toLinear(a, lin, 1) || !toLinear(b, lin, 1))
    return SymExpr();
  return fromLinear(lin);
}

SymExpr SymContext::sub(SymExpr a, SymExpr b) {
  if (a.isConstant() && b.isConstant()) {
    int64_t r;
    if (llvm::SubOverflow(*a.getConstant(), *b.getConstant(), r))
      return SymExpr();
    return constant(r);
  }
  Linear lin;
  if (!toLinear(a, lin, 1) || !toLinear(b, lin, -1))
    return SymExpr();
  return fromLinear(lin);
}

SymExpr SymContext::neg(SymExpr a) { return sub(constant(0), a); }

SymExpr SymContext::productOf(llvm::ArrayRef<const SymNode *> factors) {
  if (factors.size() == 1)
    return SymExpr(factors[0]);
  SmallVector<const SymNode *, 4> sorted(factors.begin(), factors.end());
  llvm::stable_sort(sorted, [](const SymNode *a, const SymNode *b) {
    return a->id < b->id;
  });
  SymNode proto;
  proto.kind = SymKind::Product;
  proto.factors = sorted;
  return SymExpr(unique(proto));
}

SymExpr SymContext::mulTerms(const SymNode *a, const SymNode *b) {
  SmallVector<const SymNode *, 4> factors;
  for (const SymNode *t : {a, b}) {
    if (t->kind == SymKind::Product)
      factors.append(t->factors.begin(), t->factors.end());
    else
      factors.push_back(t);
  }
  return productOf(factors);
}

SymExpr SymContext::mul(SymExpr a, SymExpr b) {
  if (!a || !b)
    return SymExpr();
  if (b.isConstant())
    std::swap(a, b);
  if (a.isConstant()) {
    int64_t c = *a.getConstant();
    if (b.isConstant()) {
      int64_t r;
      if (llvm::MulOverflow(c, *b.getConstant(), r))
        return SymExpr();
      return constant(r);
    }
    if (c == 0)
      return constant(0);
    Linear lin;
    toLinear(b, lin, c);
    return fromLinear(lin);
  }
  Linear la, lb, out;
  toLinear(a, la, 1);
  toLinear(b, lb, 1);
  auto mulC = [&](int64_t x, int64_t y) {
    int64_t r = 0;
    if (llvm::MulOverflow(x, y, r))
      out.overflow = true;
    return r;
  };
  out.constant = mulC(la.constant, lb.constant);
  for (const SymTerm &t : lb.terms)
    if (la.constant != 0)
      out.terms.push_back({mulC(la.constant, t.coef), t.term});
  for (const SymTerm &t : la.terms)
    if (lb.constant != 0)
      out.terms.push_back({mulC(lb.constant, t.coef), t.term});
  for (const SymTerm &ta : la.terms)
    for (const SymTerm &tb : lb.terms)
      out.terms.push_back(
          {mulC(ta.coef, tb.coef), mulTerms(ta.term, tb.term).getNode()});
  return fromLinear(out);
}

SymExpr SymContext::binaryAtom(SymKind kind, SymExpr a, SymExpr b) {
  SymNode proto;
  proto.kind = kind;
  proto.lhs = a.getNode();
  proto.rhs = b.getNode();
  return SymExpr(unique(proto));
}

SymExpr SymContext::floorDiv(SymExpr a, SymExpr b) {
  if (!a || !b)
    return SymExpr();
  if (b.isConstant()) {
    int64_t c = *b.getConstant();
    if (c == 0)
      return SymExpr();
    if (c == 1)
      return a;
    if (a.isConstant()) {
      if (*a.getConstant() == INT64_MIN && c == -1)
        return SymExpr();
      return constant(pyFloorDiv(*a.getConstant(), c));
    }
    if (c > 0) {
      // (k*c + q*c + rest + r) // c == k + q + (rest + r) // c.
      Linear lin, quot, rest;
      toLinear(a, lin, 1);
      // (g*x) // (g*d) == x // d.
      int64_t g = c;
      for (const SymTerm &t : lin.terms)
        g = std::gcd(g, std::abs(t.coef));
      g = std::gcd(g, std::abs(lin.constant));
      if (g > 1) {
        Linear scaled;
        scaled.constant = lin.constant / g;
        for (const SymTerm &t : lin.terms)
          scaled.terms.push_back({t.coef / g, t.term});
        return floorDiv(fromLinear(scaled), constant(c / g));
      }
      for (const SymTerm &t : lin.terms) {
        if (t.coef % c == 0)
          quot.terms.push_back({t.coef / c, t.term});
        else
          rest.terms.push_back(t);
      }
      quot.constant = pyFloorDiv(lin.constant, c);
      rest.constant = pyMod(lin.constant, c);
      SymExpr q = fromLinear(quot);
      if (rest.terms.empty())
        return q;
      SymExpr r = fromLinear(rest);
      SymExpr atom;
      // (x // c1) // c == x // (c1 * c) for positive divisors.
      int64_t prod;
      if (r.getKind() == SymKind::FloorDiv && r.getNode()->rhs &&
          r.getNode()->rhs->kind == SymKind::Constant &&
          r.getNode()->rhs->value > 0 &&
          !llvm::MulOverflow(r.getNode()->rhs->value, c, prod))
        atom = binaryAtom(SymKind::FloorDiv, SymExpr(r.getNode()->lhs),
                          constant(prod));
      else
        atom = binaryAtom(SymKind::FloorDiv, r, b);
      return add(q, atom);
    }
  }
  if (a == b)
    return constant(1);
  return binaryAtom(SymKind::FloorDiv, a, b);
}

SymExpr SymContext::mod(SymExpr a, SymExpr b) {
  if (!a || !b)
    return SymExpr();
  if (b.isConstant()) {
    int64_t c = *b.getConstant();
    if (c == 0)
      return SymExpr();
    if (c == 1 || c == -1)
      return constant(0);
    if (a.isConstant())
      return constant(pyMod(*a.getConstant(), c));
    if (c > 0) {
      // (k*c + rest + r) % c == (rest + r) % c.
      Linear lin, rest;
      toLinear(a, lin, 1);
      for (const SymTerm &t : lin.terms)
        if (t.coef % c != 0)
          rest.terms.push_back(t);
      rest.constant = pyMod(lin.constant, c);
      if (rest.terms.empty())
        return constant(rest.constant);
      SymExpr r = fromLinear(rest);
      if (r.getKind() == SymKind::Mod && r.getNode()->rhs == b.getNode())
        return r;
      return binaryAtom(SymKind::Mod, r, b);
    }
  }
  if (a == b)
    return constant(0);
  return binaryAtom(SymKind::Mod, a, b);
}

SymExpr SymContext::ceilDiv(SymExpr a, SymExpr b) {
  if (!a || !b)
    return SymExpr();
  if (b.isConstant()) {
    int64_t c = *b.getConstant();
    if (c == 0)
      return SymExpr();
    if (c == 1)
      return a;
    if (a.isConstant()) {
      int64_t v = *a.getConstant();
      if (v == INT64_MIN)
        return SymExpr();
      return constant(-pyFloorDiv(-v, c));
    }
    if (c > 0) {
      // ceildiv(k*c + rest, c) == k + ceildiv(rest, c).
      Linear lin, quot, rest;
      toLinear(a, lin, 1);
      for (const SymTerm &t : lin.terms) {
        if (t.coef % c == 0)
          quot.terms.push_back({t.coef / c, t.term});
        else
          rest.terms.push_back(t);
      }
      if (lin.constant % c == 0)
        quot.constant = lin.constant / c;
      else
        rest.constant = lin.constant;
      SymExpr q = fromLinear(quot);
      if (rest.terms.empty())
        return add(q, constant(-pyFloorDiv(-rest.constant, c)));
      return add(q, binaryAtom(SymKind::CeilDiv, fromLinear(rest), b));
    }
  }
  if (a == b)
    return constant(1);
  return binaryAtom(SymKind::CeilDiv, a, b);
}

SymExpr SymContext::min(SymExpr a, SymExpr b) {
  if (!a || !b)
    return SymExpr();
  if (a == b)
    return a;
  if (std::optional<bool> lt = lessThan(a, b))
    return *lt ? a : b;
  if (b.getNode()->id < a.getNode()->id)
    std::swap(a, b);
  return binaryAtom(SymKind::Min, a, b);
}

SymExpr SymContext::max(SymExpr a, SymExpr b) {
  if (!a || !b)
    return SymExpr();
  if (a == b)
    return a;
  if (std::optional<bool> lt = lessThan(a, b))
    return *lt ? b : a;
  if (b.getNode()->id < a.getNode()->id)
    std::swap(a, b);
  return binaryAtom(SymKind::Max, a, b);
}

std::optional<bool> SymContext::lessThan(SymExpr a, SymExpr b) {
  SymExpr d = sub(a, b);
  if (d.isConstant())
    return *d.getConstant() < 0;
  return std::nullopt;
}

std::optional<bool> SymContext::equal(SymExpr a, SymExpr b) {
  if (a == b)
    return true;
  SymExpr d = sub(a, b);
  if (d.isConstant())
    return *d.getConstant() == 0;
  return std::nullopt;
}

SymExpr
SymContext::substitute(SymExpr e,
                       llvm::function_ref<SymExpr(const SymNode *)> lookup) {
  if (!e)
    return e;
  const SymNode *n = e.getNode();
  switch (n->kind) {
  case SymKind::Constant:
    return e;
  case SymKind::Symbol: {
    SymExpr r = lookup(n);
    return r ? r : e;
  }
  case SymKind::Sum: {
    SymExpr acc = constant(n->value);
    for (const SymTerm &t : n->terms)
      acc = add(acc, mul(constant(t.coef),
                         substitute(SymExpr(t.term), lookup)));
    return acc;
  }
  case SymKind::Product: {
    SymExpr acc = constant(1);
    for (const SymNode *f : n->factors)
      acc = mul(acc, substitute(SymExpr(f), lookup));
    return acc;
  }
  case SymKind::FloorDiv:
    return floorDiv(substitute(SymExpr(n->lhs), lookup),
                    substitute(SymExpr(n->rhs), lookup));
  case SymKind::Mod:
    return mod(substitute(SymExpr(n->lhs), lookup),
               substitute(SymExpr(n->rhs), lookup));
  case SymKind::CeilDiv:
    return ceilDiv(substitute(SymExpr(n->lhs), lookup),
                   substitute(SymExpr(n->rhs), lookup));
  case SymKind::Min:
    return min(substitute(SymExpr(n->lhs), lookup),
               substitute(SymExpr(n->rhs), lookup));
  case SymKind::Max:
    return max(substitute(SymExpr(n->lhs), lookup),
               substitute(SymExpr(n->rhs), lookup));
  }
  return e;
}
