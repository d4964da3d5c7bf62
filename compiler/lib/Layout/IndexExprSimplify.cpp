//===- IndexExprSimplify.cpp - Range-aware index simplification -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bounds analysis and canonicalisation. An expression is flattened into a
// linear form `sum(coef * atom) + constant`; floor division and modulo by a
// positive constant k are distributed over it with the exact identities
//
//   (k*Q + R) // k == Q + R // k        (k*Q + R) % k == R % k
//
// and `R // k` / `R % k` vanish or shrink when the bounds of R are known.
// Terms that are digits of the same value are merged back
// (`8 * (x // 8) + x % 8 -> x`).
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/IndexExpr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <numeric>

using namespace tlc::layout;

//===----------------------------------------------------------------------===//
// Bounds
//===----------------------------------------------------------------------===//

/// Smallest 2**n - 1 that is >= v (v >= 0).
static int64_t bitMask(int64_t v) {
  int64_t m = 0;
  while (m < v)
    m = m * 2 + 1;
  return m;
}

std::optional<IndexRange> tlc::layout::bounds(const IndexExpr &expr,
                                              const VarRanges &ranges) {
  if (!expr)
    return std::nullopt;
  switch (expr.kind()) {
  case IndexKind::Const:
    return IndexRange{*expr.getConstant(), *expr.getConstant()};
  case IndexKind::Var: {
    unsigned id = expr.getVarId();
    if (id >= ranges.size() || !ranges[id])
      return std::nullopt;
    return *ranges[id];
  }
  default:
    break;
  }
  std::optional<IndexRange> a = bounds(expr.lhs(), ranges);
  std::optional<int64_t> k = expr.rhs().getConstant();
  switch (expr.kind()) {
  case IndexKind::FloorDiv:
    if (!a || !k || *k <= 0)
      return std::nullopt;
    return IndexRange{floorDivInt(a->lo, *k), floorDivInt(a->hi, *k)};
  case IndexKind::Mod:
    if (!k || *k <= 0)
      return std::nullopt;
    if (a && floorDivInt(a->lo, *k) == floorDivInt(a->hi, *k))
      return IndexRange{floorModInt(a->lo, *k), floorModInt(a->hi, *k)};
    return IndexRange{0, *k - 1};
  case IndexKind::Shl: {
    if (!a || !k || *k < 0 || *k > 40)
      return std::nullopt;
    int64_t lo, hi;
    if (llvm::MulOverflow(a->lo, int64_t(1) << *k, lo) ||
        llvm::MulOverflow(a->hi, int64_t(1) << *k, hi))
      return std::nullopt;
    return IndexRange{lo, hi};
  }
  case IndexKind::Shr:
    if (!a || !k || *k < 0 || *k > 62)
      return std::nullopt;
    return IndexRange{a->lo >> *k, a->hi >> *k};
  default:
    break;
  }
  std::optional<IndexRange> b = bounds(expr.rhs(), ranges);
  if (!a || !b)
    return std::nullopt;
  switch (expr.kind()) {
  // Bounds that overflow int64 are unknown (a tile of 2^62 columns must not
  // read as a small or negative range).
  case IndexKind::Add: {
    int64_t lo, hi;
    if (llvm::AddOverflow(a->lo, b->lo, lo) ||
        llvm::AddOverflow(a->hi, b->hi, hi))
      return std::nullopt;
    return IndexRange{lo, hi};
  }
  case IndexKind::Mul: {
    int64_t p[4];
    if (llvm::MulOverflow(a->lo, b->lo, p[0]) ||
        llvm::MulOverflow(a->lo, b->hi, p[1]) ||
        llvm::MulOverflow(a->hi, b->lo, p[2]) ||
        llvm::MulOverflow(a->hi, b->hi, p[3]))
      return std::nullopt;
    return IndexRange{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
  }
  case IndexKind::Xor:
  case IndexKind::Or:
    if (a->lo < 0 || b->lo < 0)
      return std::nullopt;
    return IndexRange{0, bitMask(std::max(a->hi, b->hi))};
  case IndexKind::And:
    if (a->lo < 0 || b->lo < 0)
      return std::nullopt;
    return IndexRange{0, std::min(a->hi, b->hi)};
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Linear form
//===----------------------------------------------------------------------===//

namespace {
/// `coef * atom`; atoms are never sums or constants.
struct Term {
  IndexExpr atom;
  int64_t coef;
};

/// `sum(terms) + constant`.
struct Linear {
  std::vector<Term> terms;
  int64_t constant = 0;

  bool isConstant() const { return terms.empty(); }

  void addTerm(const IndexExpr &atom, int64_t coef) {
    if (coef == 0)
      return;
    for (Term &t : terms) {
      if (t.atom == atom) {
        t.coef += coef;
        return;
      }
    }
    terms.push_back({atom, coef});
  }

  void add(const Linear &other, int64_t scale = 1) {
    constant += other.constant * scale;
    for (const Term &t : other.terms)
      addTerm(t.atom, t.coef * scale);
    llvm::erase_if(terms, [](const Term &t) { return t.coef == 0; });
  }
};

/// `(base // div) % mod` with mod == 0 meaning "no modulo".
struct Digit {
  IndexExpr base;
  int64_t div = 1;
  int64_t mod = 0;
};

class Simplifier {
public:
  explicit Simplifier(const VarRanges &ranges) : ranges(ranges) {}

  IndexExpr run(const IndexExpr &expr) { return build(linearize(expr)); }

private:
  const VarRanges &ranges;

  static Linear constantLinear(int64_t v) {
    Linear l;
    l.constant = v;
    return l;
  }
  static Linear atomLinear(const IndexExpr &atom) {
    if (std::optional<int64_t> v = atom.getConstant())
      return constantLinear(*v);
    Linear l;
    l.addTerm(atom, 1);
    return l;
  }

  std::optional<IndexRange> linearBounds(const Linear &l) {
    IndexRange r{l.constant, l.constant};
    for (const Term &t : l.terms) {
      std::optional<IndexRange> b = bounds(t.atom, ranges);
      if (!b)
        return std::nullopt;
      int64_t x = b->lo * t.coef, y = b->hi * t.coef;
      r.lo += std::min(x, y);
      r.hi += std::max(x, y);
    }
    return r;
  }

  Linear linearize(const IndexExpr &expr) {
    switch (expr.kind()) {
    case IndexKind::Const:
      return constantLinear(*expr.getConstant());
    case IndexKind::Var:
      return atomLinear(expr);
    case IndexKind::Add: {
      Linear l = linearize(expr.lhs());
      l.add(linearize(expr.rhs()));
      return l;
    }
    case IndexKind::Mul: {
      Linear a = linearize(expr.lhs()), b = linearize(expr.rhs());
      if (a.isConstant()) {
        Linear r;
        r.add(b, a.constant);
        return r;
      }
      if (b.isConstant()) {
        Linear r;
        r.add(a, b.constant);
        return r;
      }
      return atomLinear(makeBinary(IndexKind::Mul, build(a), build(b)));
    }
    case IndexKind::FloorDiv:
    case IndexKind::Mod: {
      Linear a = linearize(expr.lhs()), b = linearize(expr.rhs());
      if (b.isConstant() && b.constant > 0)
        return expr.kind() == IndexKind::FloorDiv ? divide(a, b.constant)
                                                  : modulo(a, b.constant);
      return atomLinear(makeBinary(expr.kind(), build(a), build(b)));
    }
    case IndexKind::Shl:
    case IndexKind::Shr: {
      Linear a = linearize(expr.lhs()), b = linearize(expr.rhs());
      if (b.isConstant() && b.constant >= 0 && b.constant <= 40) {
        int64_t p = int64_t(1) << b.constant;
        if (expr.kind() == IndexKind::Shr)
          return divide(a, p);
        Linear r;
        r.add(a, p);
        return r;
      }
      return atomLinear(makeBinary(expr.kind(), build(a), build(b)));
    }
    case IndexKind::And: {
      Linear a = linearize(expr.lhs()), b = linearize(expr.rhs());
      // x & (2**n - 1) == x % 2**n.
      if (b.isConstant() && b.constant > 0 &&
          llvm::isPowerOf2_64(uint64_t(b.constant) + 1))
        return modulo(a, b.constant + 1);
      if (a.isConstant() && a.constant > 0 &&
          llvm::isPowerOf2_64(uint64_t(a.constant) + 1))
        return modulo(b, a.constant + 1);
      return atomLinear(makeBinary(expr.kind(), build(a), build(b)));
    }
    case IndexKind::Xor:
    case IndexKind::Or: {
      Linear a = linearize(expr.lhs()), b = linearize(expr.rhs());
      IndexExpr x = build(a), y = build(b);
      // Either side provably zero.
      std::optional<IndexRange> bx = bounds(x, ranges), by = bounds(y, ranges);
      if (bx && bx->lo == 0 && bx->hi == 0)
        return b;
      if (by && by->lo == 0 && by->hi == 0)
        return a;
      return atomLinear(makeBinary(expr.kind(), x, y));
    }
    }
    return atomLinear(expr);
  }

  /// Splits `l` into `k * q + r` where q takes every term (and the part of
  /// the constant) divisible by k.
  static void split(const Linear &l, int64_t k, Linear &q, Linear &r) {
    q.constant = floorDivInt(l.constant, k);
    r.constant = floorModInt(l.constant, k);
    for (const Term &t : l.terms) {
      if (t.coef % k == 0)
        q.addTerm(t.atom, t.coef / k);
      else
        r.addTerm(t.atom, t.coef);
    }
  }

  /// Returns `r` as a single digit when it is `1 * atom` with an atom of the
  /// form `b // a`, `b % m` or `(b // a) % m`.
  static std::optional<Digit> asDigit(const Linear &r) {
    if (r.terms.size() != 1 || r.constant != 0 || r.terms[0].coef != 1)
      return std::nullopt;
    return atomAsDigit(r.terms[0].atom);
  }

  static std::optional<Digit> atomAsDigit(const IndexExpr &atom) {
    Digit d;
    IndexExpr e = atom;
    if (e.kind() == IndexKind::Mod) {
      std::optional<int64_t> m = e.rhs().getConstant();
      if (!m || *m <= 0)
        return std::nullopt;
      d.mod = *m;
      e = e.lhs();
    }
    if (e.kind() == IndexKind::FloorDiv) {
      std::optional<int64_t> a = e.rhs().getConstant();
      if (!a || *a <= 0)
        return std::nullopt;
      d.div = *a;
      e = e.lhs();
    }
    if (d.div == 1 && d.mod == 0)
      d.base = atom;
    else
      d.base = e;
    return d;
  }

  IndexExpr digitExpr(const Digit &d) {
    IndexExpr e = d.div == 1 ? d.base : floorDiv(d.base, d.div);
    if (d.mod)
      e = floorMod(e, d.mod);
    return e;
  }

  /// Splits \p r as `c * A + B` with c | k, c > 1 and 0 <= B < c, trying the
  /// largest such c among the coefficients of r. On success \p a holds A
  /// (already divided by c) and \p b holds B.
  bool splitBySmallRemainder(const Linear &r, int64_t k, int64_t &c,
                             Linear &a, Linear &b) {
    std::vector<int64_t> candidates;
    for (const Term &t : r.terms) {
      int64_t v = std::abs(t.coef);
      if (v > 1 && v < k && k % v == 0)
        candidates.push_back(v);
    }
    llvm::sort(candidates, std::greater<int64_t>());
    for (int64_t cand : candidates) {
      Linear hi, lo;
      lo.constant = r.constant;
      for (const Term &t : r.terms) {
        if (t.coef % cand == 0)
          hi.addTerm(t.atom, t.coef / cand);
        else
          lo.addTerm(t.atom, t.coef);
      }
      if (hi.terms.empty())
        continue;
      std::optional<IndexRange> bb = linearBounds(lo);
      if (!bb || bb->lo < 0 || bb->hi >= cand)
        continue;
      c = cand;
      a = std::move(hi);
      b = std::move(lo);
      return true;
    }
    return false;
  }

  Linear divide(const Linear &l, int64_t k) {
    if (k == 1)
      return l;
    Linear q, r;
    split(l, k, q, r);
    if (r.isConstant()) // r.constant is in [0, k).
      return q;
    if (std::optional<IndexRange> b = linearBounds(r))
      if (b->lo >= 0 && b->hi < k)
        return q;
    // (c*A + B) // k == A // (k/c) when c | k and 0 <= B < c.
    {
      int64_t c = 0;
      Linear a, b;
      if (splitBySmallRemainder(r, k, c, a, b)) {
        q.add(divide(a, k / c));
        return q;
      }
    }
    if (std::optional<Digit> d = asDigit(r)) {
      if (d->mod == 0) { // (x // a) // k == x // (a*k)
        q.add(atomLinear(floorDiv(d->base, d->div * k)));
        return q;
      }
      if (d->mod % k == 0) { // (y % m) // k == (y // k) % (m / k)
        Digit nd{d->base, d->div * k, d->mod / k};
        q.add(linearizeDigit(nd));
        return q;
      }
    }
    // (g*R' + c) // (g*k') == R' // k' when 0 <= c < g.
    int64_t g = k;
    for (const Term &t : r.terms)
      g = std::gcd(g, std::abs(t.coef));
    if (g > 1 && r.constant < g) {
      Linear reduced;
      for (const Term &t : r.terms)
        reduced.addTerm(t.atom, t.coef / g);
      q.add(divide(reduced, k / g));
      return q;
    }
    q.add(atomLinear(floorDiv(build(r), k)));
    return q;
  }

  Linear linearizeDigit(const Digit &d) { return linearize(digitExpr(d)); }

  Linear modulo(const Linear &l, int64_t k) {
    if (k == 1)
      return constantLinear(0);
    Linear r;
    r.constant = floorModInt(l.constant, k);
    for (const Term &t : l.terms) {
      if (t.coef % k == 0)
        continue;
      int64_t coef = std::abs(t.coef) > k ? floorModInt(t.coef, k) : t.coef;
      r.addTerm(t.atom, coef);
    }
    if (r.isConstant())
      return r;
    if (std::optional<IndexRange> b = linearBounds(r))
      if (b->lo >= 0 && b->hi < k)
        return r;
    // (c*A + B) % k == c * (A % (k/c)) + B when c | k and 0 <= B < c.
    {
      int64_t c = 0;
      Linear a, b;
      if (splitBySmallRemainder(r, k, c, a, b)) {
        b.add(modulo(a, k / c), c);
        return b;
      }
    }
    if (std::optional<Digit> d = asDigit(r)) {
      if (d->mod && d->mod % k == 0) { // (y % m) % k == y % k when k | m
        Digit nd{d->base, d->div, k};
        return linearizeDigit(nd);
      }
    }
    // (g*R' + c) % (g*k') == g * (R' % k') + c when 0 <= c < g.
    int64_t g = k;
    for (const Term &t : r.terms)
      g = std::gcd(g, std::abs(t.coef));
    if (g > 1 && r.constant < g) {
      Linear reduced;
      for (const Term &t : r.terms)
        reduced.addTerm(t.atom, t.coef / g);
      Linear out = constantLinear(r.constant);
      out.add(modulo(reduced, k / g), g);
      return out;
    }
    return atomLinear(floorMod(build(r), k));
  }

  /// Merges `c * (x // a) % m + c*m * (x // (a*m)) [% n]` into
  /// `c * (x // a) [% (m*n)]` until no pair merges.
  void mergeDigits(Linear &l) {
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t p = 0; p < l.terms.size() && !changed; ++p) {
        std::optional<Digit> lo = atomAsDigit(l.terms[p].atom);
        if (!lo || lo->mod == 0)
          continue;
        for (size_t q = 0; q < l.terms.size() && !changed; ++q) {
          if (p == q)
            continue;
          std::optional<Digit> hi = atomAsDigit(l.terms[q].atom);
          if (!hi || !(hi->base == lo->base) ||
              hi->div != lo->div * lo->mod ||
              l.terms[q].coef != l.terms[p].coef * lo->mod)
            continue;
          Digit merged{lo->base, lo->div, hi->mod ? lo->mod * hi->mod : 0};
          int64_t coef = l.terms[p].coef;
          Linear m = linearizeDigit(merged);
          l.terms.erase(l.terms.begin() + std::max(p, q));
          l.terms.erase(l.terms.begin() + std::min(p, q));
          l.add(m, coef);
          changed = true;
        }
      }
    }
  }

  /// Sort key: larger |coef| first, then by the atom's first input id, then
  /// by printed form.
  static bool termLess(const Term &a, const Term &b) {
    if (std::abs(a.coef) != std::abs(b.coef))
      return std::abs(a.coef) > std::abs(b.coef);
    std::vector<unsigned> va = a.atom.collectVars(), vb = b.atom.collectVars();
    if (va != vb)
      return va < vb;
    return a.atom.str() < b.atom.str();
  }

  IndexExpr build(Linear l) {
    mergeDigits(l);
    llvm::stable_sort(l.terms, termLess);
    IndexExpr result;
    for (const Term &t : l.terms) {
      IndexExpr term = t.coef == 1 ? t.atom : IndexExpr::constant(t.coef) * t.atom;
      result = result ? result + term : term;
    }
    if (!result)
      return IndexExpr::constant(l.constant);
    if (l.constant != 0)
      result = result + l.constant;
    return result;
  }
};
} // namespace

IndexExpr tlc::layout::simplify(const IndexExpr &expr,
                                const VarRanges &ranges) {
  if (!expr)
    return expr;
  return Simplifier(ranges).run(expr);
}

IndexExpr tlc::layout::substitute(const IndexExpr &expr,
                                  llvm::ArrayRef<IndexExpr> replacements) {
  if (!expr)
    return expr;
  switch (expr.kind()) {
  case IndexKind::Const:
    return expr;
  case IndexKind::Var: {
    unsigned id = expr.getVarId();
    if (id < replacements.size() && replacements[id])
      return replacements[id];
    return expr;
  }
  default: {
    IndexExpr l = substitute(expr.lhs(), replacements);
    IndexExpr r = substitute(expr.rhs(), replacements);
    if (l.get() == expr.lhs().get() && r.get() == expr.rhs().get())
      return expr;
    return makeBinary(expr.kind(), l, r);
  }
  }
}
