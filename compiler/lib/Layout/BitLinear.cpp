//===- BitLinear.cpp - Maps linear in the bits of their inputs ------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Fitting (BitLinear::fit samples the map at 0 and at every single-bit
// input, then checks every point of the box) and printing of bit-linear
// maps.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/BitLinear.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

using namespace llvm;
using namespace tlc::layout;

static unsigned bitsFor(int64_t extent) {
  unsigned b = 0;
  while ((int64_t(1) << b) < extent)
    ++b;
  return b;
}

std::optional<BitLinear> BitLinear::fit(
    ArrayRef<int64_t> extents, unsigned dims,
    function_ref<std::optional<SmallVector<int64_t>>(ArrayRef<int64_t>)> f,
    bool skipUndefined) {
  BitLinear m;
  SmallVector<int64_t> point(extents.size(), 0);
  for (int64_t e : extents)
    if (e <= 0)
      return std::nullopt;
  std::optional<SmallVector<int64_t>> origin = f(point);
  if (!origin || origin->size() != dims)
    return std::nullopt;
  m.base = *origin;
  for (auto [v, e] : llvm::enumerate(extents)) {
    auto &bits = m.coef.emplace_back();
    for (unsigned b = 0; b < bitsFor(e); ++b) {
      point.assign(extents.size(), 0);
      point[v] = int64_t(1) << b;
      std::optional<SmallVector<int64_t>> at = f(point);
      if (!at)
        return std::nullopt;
      SmallVector<int64_t> c(dims);
      for (unsigned d = 0; d < dims; ++d)
        c[d] = (*at)[d] - m.base[d];
      bits.push_back(std::move(c));
    }
  }
  // Verify every point of the box, with the map's value per input value
  // tabulated: [input][value * dims + d] (base included in input 0).
  SmallVector<std::vector<int64_t>> part;
  for (auto [v, e] : llvm::enumerate(extents)) {
    std::vector<int64_t> &t = part.emplace_back(e * dims, 0);
    for (int64_t x = 0; x < e; ++x)
      for (unsigned d = 0; d < dims; ++d) {
        int64_t sum = v == 0 ? m.base[d] : 0;
        for (unsigned b = 0; b < m.coef[v].size(); ++b)
          if ((x >> b) & 1)
            sum += m.coef[v][b][d];
        t[x * dims + d] = sum;
      }
  }
  point.assign(extents.size(), 0);
  while (true) {
    std::optional<SmallVector<int64_t>> at = f(point);
    if (!at && !skipUndefined)
      return std::nullopt;
    for (unsigned d = 0; at && d < dims; ++d) {
      int64_t want = 0;
      for (auto [v, x] : llvm::enumerate(point))
        want += part[v][x * dims + d];
      if (want != (*at)[d])
        return std::nullopt;
    }
    unsigned v = 0;
    for (; v < point.size(); ++v) {
      if (++point[v] < extents[v])
        break;
      point[v] = 0;
    }
    if (v == point.size())
      break;
  }
  return m;
}

/// The row-major stride of dimension \p d of \p shape.
static int64_t strideOf(ArrayRef<int64_t> shape, unsigned d) {
  int64_t stride = 1;
  for (int64_t e : shape.drop_front(d + 1))
    stride *= e;
  return stride;
}

std::string BitLinear::expr(unsigned d, ArrayRef<std::string> vars) const {
  if (!isFlat())
    return linearExpr(d, vars);
  std::string e = linearExpr(0, vars);
  if (llvm::StringRef(e).contains(' '))
    e = "(" + e + ")";
  if (int64_t stride = strideOf(flatShape, d); stride != 1)
    e = "(" + e + " / " + std::to_string(stride) + ")";
  if (d != 0)
    e += " % " + std::to_string(flatShape[d]);
  return e;
}

int64_t BitLinear::unflatten(unsigned d, int64_t flat) const {
  int64_t c = flat / strideOf(flatShape, d);
  return d == 0 ? c : c % flatShape[d];
}

std::string BitLinear::linearExpr(unsigned d,
                                  ArrayRef<std::string> vars) const {
  std::string e;
  auto add = [&](const std::string &term) {
    e += (e.empty() ? "" : " + ") + term;
  };
  for (auto [v, bits] : llvm::enumerate(coef)) {
    unsigned b = 0;
    while (b < bits.size()) {
      int64_t c = bits[b][d];
      if (c == 0) {
        ++b;
        continue;
      }
      // A run of bits whose coefficients double: one shifted field.
      unsigned n = 1;
      while (b + n < bits.size() && bits[b + n][d] == c * (int64_t(1) << n))
        ++n;
      std::string field;
      bool whole = b == 0 && n == bits.size();
      if (whole)
        field = vars[v];
      else if (b == 0)
        field = "(" + vars[v] + " & " + std::to_string((1 << n) - 1) + ")";
      else
        field = "((" + vars[v] + " >> " + std::to_string(b) + ") & " +
                std::to_string((1 << n) - 1) + ")";
      add(c == 1 ? field : field + " * " + std::to_string(c));
      b += n;
    }
  }
  if (base[d] != 0 || e.empty())
    add(std::to_string(base[d]));
  return e;
}

int64_t BitLinear::evaluate(unsigned d, ArrayRef<int64_t> inputs) const {
  if (isFlat())
    return unflatten(d, evaluateLinear(0, inputs));
  return evaluateLinear(d, inputs);
}

int64_t BitLinear::evaluateLinear(unsigned d, ArrayRef<int64_t> inputs) const {
  int64_t sum = base[d];
  for (auto [v, bits] : llvm::enumerate(coef))
    for (auto [b, c] : llvm::enumerate(bits))
      if (v < inputs.size() && ((inputs[v] >> b) & 1))
        sum += c[d];
  return sum;
}

int64_t BitLinear::zeroMask(unsigned v) const {
  int64_t mask = 0;
  for (auto [b, c] : llvm::enumerate(coef[v]))
    if (llvm::all_of(c, [](int64_t x) { return x == 0; }))
      mask |= int64_t(1) << b;
  return mask;
}
