//===- InterpreterTest.cpp - Meta-level Python semantics ------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Each case is a Python expression evaluated at trace time and used as the
// extent of a shared buffer; the buffer's hint shows the folded value. The
// expected values were computed with CPython 3.11 (/usr/bin/python3).
//
//===----------------------------------------------------------------------===//

#include "tlc/Eval/Eval.h"
#include "tlc/Syntax/Parser.h"

#include "mlir/IR/MLIRContext.h"

#include <doctest/doctest.h>

using namespace tlc;

namespace {

/// Analyses a kernel whose buffer extent is \p expr (after \p prelude at
/// module level) and returns the buffer's printed extent, or the first
/// diagnostic.
std::string extentOf(const std::string &prelude, const std::string &expr,
                     const std::string &postlude = "") {
  std::string src = "import math, itertools, functools\n"
                    "import tilelang\n"
                    "import tilelang.language as T\n" +
                    prelude +
                    "\n@tilelang.jit\n"
                    "def k(n):\n"
                    "    with T.Kernel(1, threads=128) as bx:\n"
                    "        S = T.alloc_shared((" +
                    expr + ",), T.float32)\n" + postlude;
  auto tree = syntax::parse(src, "test.py");
  static mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
  static bool loaded = (eval::loadEvalDialects(ctx), true);
  (void)loaded;
  eval::FileAnalysis a = eval::analyzeFile(*tree, ctx, eval::EvalOptions());
  if (!a.diagnostics.empty())
    return "diag: " + a.diagnostics.front().message;
  for (const eval::Hint &h : a.hints)
    if (h.name == "S")
      return h.shape.empty() ? "" : h.shape[0];
  return "no hint";
}

/// The single check helper.
void check(const std::string &prelude, const std::string &expr,
           const std::string &expected, const std::string &postlude = "") {
  CHECK_MESSAGE(extentOf(prelude, expr, postlude) == expected, expr);
}

} // namespace

TEST_CASE("integer arithmetic follows CPython") {
  check("", "-(-7 // 2)", "4");
  check("", "7 % -3 + 3", "1");
  check("", "2 ** 10", "1024");
  check("", "int(7.9)", "7");
  check("", "round(2.5)", "2");
  check("", "round(3.5)", "4");
  check("", "math.ceil(7 / 2)", "4");
  check("", "int(math.log2(64))", "6");
  check("", "math.gcd(12, 18)", "6");
  check("", "tilelang.cdiv(1000, 128)", "8");
  check("", "T.ceildiv(1000, 128)", "8");
  check("", "tilelang.math.next_power_of_2(100)", "128");
}

TEST_CASE("containers, comprehensions and builtins") {
  check("", "len([x * x for x in range(10) if x % 3])", "6");
  check("", "sum(range(5))", "10");
  check("", "max(3, 9, 4)", "9");
  check("", "min([5, 2, 8])", "2");
  check("", "abs(-4)", "4");
  check("", "len(list(itertools.product([1, 2], [3, 4, 5])))", "6");
  check("", "functools.partial(lambda a, b: a * b, 6)(7)", "42");
  check("d = {'a': 1, 'b': 2}", "d.get('c', 5)", "5");
  check("d = {'a': 1, 'b': 2}", "len(d)", "2");
  check("", "sorted([3, 1, 2])[0]", "1");
  check("def f(*args, **kw):\n    return len(args) * 10 + len(kw)",
        "f(1, 2, x=3)", "21");
  check("", "(lambda x, y=3: x + y)(4)", "7");
  check("", "[k for k, v in zip('ab', [1, 2])].index('b')", "1");
}

TEST_CASE("dict views, classes and type()") {
  check("d = {'a': 1}\nkv = d.keys()\nd['b'] = 2",
        "len(kv & {'b', 'c'}) * 10 + len(kv)", "12");
  check("d = {'a': 1, 'b': 5}", "sum(d.values())", "6");
  check("class A:\n    n = 2\n    def f(self):\n        return self.n\n"
        "class B(A):\n    def f(self):\n        return super().f() * 10",
        "B().f()", "20");
  check("class A:\n    pass\nclass B(A):\n    pass",
        "len(B.__mro__) * 10 + int(isinstance(B(), A))", "31");
  check("", "len(type(3).__name__) * 10 + int(type(True) is bool)", "31");
}

TEST_CASE("dtypes, conditionals and module constants") {
  check("", "T.float16.bits", "16");
  check("", "T.dtype('bfloat16').bits", "16");
  check("", "8 if T.float16 == 'float16' else 4", "8");
  check("", "8 if T.half == T.float16 else 4", "8");
  check("", "8 if T.float32 == 'float' else 4", "4");
  // Module constants defined after the kernel resolve lazily.
  check("", "LATER * 2", "42", "LATER = 21\n");
}

TEST_CASE("unbound parameters stay symbolic") {
  check("", "n * 4", "n * 4");
  check("", "T.ceildiv(n, 64) * 64", "ceildiv(n, 64) * 64");
}

TEST_CASE("errors are diagnosed, not crashes") {
  check("", "undefined_thing", "diag: undefined name 'undefined_thing'");
  check("", "[1, 2][5]", "diag: IndexError: list index out of range");
  check("", "1 // 0", "diag: ZeroDivisionError: integer division or modulo by zero");
  check("", "2 ** 70", "diag: extent 1180591620717411303424 in a shape does not fit in 64 bits");
  check("def f(x):\n    return f(x)", "f(1)",
        "diag: maximum call depth (200) exceeded");
}
