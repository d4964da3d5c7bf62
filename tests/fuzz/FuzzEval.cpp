//===- FuzzEval.cpp - Fuzz target: evaluator, checks and layouts ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Input: a Python file. Files with syntax errors are skipped; the others go
// through what `tlc-build --check` runs (Driver::analyze: evaluation, every
// check, layout inference). The custom mutator keeps most mutants
// syntactically valid: it swaps a number, name, string or operator token
// (found by a quick scan, not a parse)
// for another of the same kind (sizes, dtypes, TileLang names), or
// duplicates, deletes or swaps lines; libFuzzer's byte mutations do the
// rest. Seeds: examples/*.py and tests/lit/Conformance/*.py. One Driver
// (one MLIRContext) serves every input; its step budget is 200,000 (see
// getDriver). TLC_FUZZ_STATS=1 prints how many inputs were evaluated.
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Driver.h"
#include "tlc/Syntax/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace tlc;

namespace {

/// Inputs seen, inputs evaluated (no syntax error) and evaluations that
/// hit the step budget; printed at exit (TLC_FUZZ_STATS=1), so a run
/// shows how many of its executions reached the evaluator.
struct Counts {
  uint64_t inputs = 0, evaluated = 0, budget = 0;
  ~Counts() {
    if (std::getenv("TLC_FUZZ_STATS"))
      std::fprintf(stderr,
                   "fuzz-eval: %llu inputs, %llu evaluated, %llu over the "
                   "step budget\n",
                   (unsigned long long)inputs, (unsigned long long)evaluated,
                   (unsigned long long)budget);
  }
} counts;

driver::Driver &getDriver() {
  // One Driver (one MLIRContext, dialects loaded once) for every input.
  // The step budget is 1/20 of tlc-build's: every example and conformance
  // file needs far fewer steps, and a mutant that loops 10**12 times is
  // stopped (with the budget diagnostic) after milliseconds, not seconds.
  static driver::Driver *drv = [] {
    driver::DriverOptions options;
    options.eval.stepBudget = 200'000;
    options.eval.timeBudgetSeconds = 2;
    return new driver::Driver(options);
  }();
  return *drv;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ++counts.inputs;
  if (size > (64u << 10))
    return 0;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto tree = syntax::parseFile(text, "fuzz.py");
  if (tree->hasErrors())
    return 0;
  ++counts.evaluated;
  driver::FileResult r = getDriver().analyze("fuzz.py", std::move(tree));
  for (const Diagnostic &d : r.diagnostics)
    if (llvm::StringRef(d.message).starts_with("evaluation budget exhausted"))
      ++counts.budget;
  return 0;
}

#ifdef TLC_FUZZING
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size,
                                   size_t maxSize);

namespace {

const char *const numbers[] = {
    "0",  "1",    "-1",    "2",       "3",       "7",        "16",
    "31", "32",   "64",    "127",     "128",     "255",      "256",
    "1024", "4096", "65536", "1 << 24", "10**12", "2**63", "0.5",
    "-0.0", "1e308", "(1 << 62)", "N", "-N"};
const char *const names[] = {
    "T.float16",       "T.float32",     "T.int32",      "T.Parallel",
    "T.serial",        "T.Pipelined",   "T.alloc_shared", "T.alloc_fragment",
    "T.alloc_local",   "T.copy",        "T.gemm",       "T.clear",
    "T.fill",          "T.reduce_max",  "T.reduce_sum", "T.exp2",
    "T.Kernel",        "T.prim_func",   "T.Tensor",     "T.ceildiv",
    "T.max",           "T.min",         "T.if_then_else", "T.thread_binding",
    "None",            "True",          "range",        "len"};
const char *const strings[] = {
    "\"float16\"",  "\"float32\"", "\"bfloat16\"", "\"int8\"",
    "\"float8_e4m3\"", "\"int4\"",  "\"uint1\"",    "\"x\"",
    "\"cuda\"",     "\"sm_80\"",   "\"local.fragment\"", "\"\""};
const char *const operators[] = {"+", "-", "*", "//", "%", "<<", ">>",
                                 "&", "|", "^", "**", "/", "<", "=="};

template <size_t N> const char *pick(const char *const (&pool)[N],
                                     std::mt19937 &rng) {
  return pool[rng() % N];
}

/// A token of the mutator's scan: its kind and bytes.
struct ScannedToken {
  enum Kind { Number, Name, String, Operator } kind;
  size_t begin, size;
};

/// Numbers, (dotted) names, quoted strings and operators of one or two
/// characters in \p text, by a left-to-right scan (comments skipped).
std::vector<ScannedToken> scanTokens(llvm::StringRef text) {
  std::vector<ScannedToken> out;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    size_t b = i;
    if (c == '#') {
      while (i < n && text[i] != '\n')
        ++i;
    } else if (llvm::isDigit(c)) {
      while (i < n && (llvm::isAlnum(text[i]) || text[i] == '.' || text[i] == '_'))
        ++i;
      out.push_back({ScannedToken::Number, b, i - b});
    } else if (llvm::isAlpha(c) || c == '_') {
      while (i < n && (llvm::isAlnum(text[i]) || text[i] == '_' || text[i] == '.'))
        ++i;
      out.push_back({ScannedToken::Name, b, i - b});
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && text[i] != c && text[i] != '\n')
        i += text[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, n);
      out.push_back({ScannedToken::String, b, i - b});
    } else if (llvm::StringRef("+-*/%<>&|^=").contains(c)) {
      ++i;
      if (i < n && llvm::StringRef("*/<>=").contains(text[i]))
        ++i;
      out.push_back({ScannedToken::Operator, b, i - b});
    } else {
      ++i;
    }
  }
  return out;
}

/// One structure-aware edit of `text`, or false when none applies.
bool mutateText(std::string &text, std::mt19937 &rng) {
  if (rng() % 4 == 0) { // Line operations.
    std::vector<size_t> starts{0};
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n' && i + 1 < text.size())
        starts.push_back(i + 1);
    auto lineAt = [&](size_t k) {
      size_t b = starts[k];
      size_t e = k + 1 < starts.size() ? starts[k + 1] : text.size();
      return text.substr(b, e - b);
    };
    size_t k = rng() % starts.size();
    std::string line = lineAt(k);
    if (line.empty() || line.back() != '\n')
      line += '\n';
    switch (rng() % 3) {
    case 0:
      text.insert(starts[k], line);
      return true;
    case 1:
      text.erase(starts[k], lineAt(k).size());
      return true;
    default: {
      size_t j = rng() % starts.size();
      std::string other = lineAt(j);
      if (other.empty() || other.back() != '\n')
        other += '\n';
      if (j == k)
        return false;
      size_t lo = std::min(j, k), hi = std::max(j, k);
      std::string a = lo == k ? line : other, b = lo == k ? other : line;
      std::string hiLine = lineAt(hi);
      text.replace(starts[hi], hiLine.size(), a);
      text.replace(starts[lo], lineAt(lo).size(), b);
      return true;
    }
    }
  }
  // The tokens come from a scan for numbers, names, strings and short
  // operators, not from a parse: a full parse per mutation took a tenth of
  // the target's time. A token found inside a comment or string only makes
  // a different mutant.
  std::vector<ScannedToken> tokens = scanTokens(text);
  if (tokens.empty())
    return false;
  const ScannedToken &t = tokens[rng() % tokens.size()];
  const char *replacement = nullptr;
  switch (t.kind) {
  case ScannedToken::Number:
    replacement = pick(numbers, rng);
    break;
  case ScannedToken::Name:
    replacement = pick(names, rng);
    break;
  case ScannedToken::String:
    replacement = pick(strings, rng);
    break;
  case ScannedToken::Operator:
    replacement = pick(operators, rng);
    break;
  }
  if (!replacement)
    return false;
  text.replace(t.begin, t.size, replacement);
  return true;
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  if (rng() % 5 != 0) {
    std::string text(reinterpret_cast<const char *>(data), size);
    if (mutateText(text, rng) && text.size() <= maxSize) {
      std::memcpy(data, text.data(), text.size());
      return text.size();
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}
#endif // TLC_FUZZING
