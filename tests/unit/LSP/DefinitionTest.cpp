//===- DefinitionTest.cpp - Go-to-definition over annotated sources -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each case is a Python source with `^` at the cursor and `[[...]]` around
// the expected binding (no brackets: no definition expected). Expectations
// are hand-written from Python's scoping rules.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "tlc/Syntax/Parser.h"

#include <doctest/doctest.h>

using namespace tlc;
using namespace tlc::lsp;

namespace {
/// Strips the markers; returns the clean text, the cursor and the range.
struct Annotated {
  std::string text;
  uint32_t point = 0;
  std::optional<TextRange> range;
};

Annotated annotate(llvm::StringRef source) {
  Annotated a;
  TextRange r;
  for (size_t i = 0; i < source.size(); ++i) {
    if (source.substr(i).starts_with("[[")) {
      r.begin = a.text.size();
      ++i;
    } else if (source.substr(i).starts_with("]]")) {
      r.end = a.text.size();
      a.range = r;
      ++i;
    } else if (source[i] == '^') {
      a.point = a.text.size();
    } else {
      a.text += source[i];
    }
  }
  return a;
}

void check(llvm::StringRef source) {
  Annotated a = annotate(source);
  auto tree = syntax::parse(a.text);
  std::optional<TextRange> got = findDefinition(*tree, a.point);
  CAPTURE(a.text);
  REQUIRE(got.has_value() == a.range.has_value());
  if (got) {
    CHECK(got->begin == a.range->begin);
    CHECK(got->end == a.range->end);
  }
}
} // namespace

TEST_CASE("definition: assignments and parameters") {
  check("[[x]] = 1\nprint(^x)\n");
  check("def f([[a]], b):\n    return ^a + b\n");
  check("def f(*, [[k]]=1):\n    return ^k\n");
  check("def f(*[[args]]):\n    return ^args\n");
  // The nearest preceding binding wins.
  check("x = 1\n[[x]] = 2\nprint(^x)\n");
  // A later binding in the same function still makes the name local.
  check("x = 1\ndef f():\n    print(^x)\n    [[x]] = 2\n");
  check("for [[i]] in range(3):\n    print(^i)\n");
  check("with open('f') as [[fh]]:\n    fh.read()\n^fh\n");
  check("with T.Kernel(1) as ([[bx]], by):\n    f(^bx)\n");
  check("if ([[n]] := 10) > 5:\n    print(^n)\n");
}

TEST_CASE("definition: scopes") {
  // Closures see the enclosing function's names.
  check("def outer([[m]]):\n    def inner():\n        return ^m\n    return inner\n");
  // Class bodies are not visible from methods.
  check("[[y]] = 0\nclass C:\n    y = 1\n    def f(self):\n        return ^y\n");
  // A global declaration sends the name to the module.
  check("[[g]] = 0\ndef f():\n    global g\n    g = 1\n    return ^g\n");
  // Comprehension variables belong to the comprehension.
  check("i = 5\nys = [^i for [[i]] in range(3)]\n");
  check("def f(): pass\ndef [[g]](): pass\n^g()\n");
  check("class [[K]]: pass\nk = ^K()\n");
  check("print(^undefined)\n");
}

TEST_CASE("definition: imports and decorators") {
  check("import tilelang.language as [[T]]\n^T.copy\n");
  check("import [[os]].path\n^os.getcwd()\n");
  check("from tilelang import [[jit]]\n@^jit\ndef f(): pass\n");
  check("import [[tilelang]]\n@^tilelang.jit\ndef f(): pass\n");
  // The cursor right after a name still finds it.
  check("[[abc]] = 1\nabc^\n");
  // On a parameter: the parameter itself.
  check("def f([[p^q]]): pass\n");
}

TEST_CASE("TileLangNames: the alias cache gives the walk's answers") {
  // Aliases from top-level imports, imports inside compound statements,
  // rebinding (the later one wins) and statements without `tilelang`, which
  // the cached form skips without a lookup.
  std::string source = "import os\n"
                       "import tilelang.language as T\n"
                       "from tilelang import jit as J\n"
                       "x = 1\n"
                       "if x:\n"
                       "    from tilelang.language import copy\n"
                       "try:\n"
                       "    import tilelang as tl\n"
                       "except ImportError:\n"
                       "    pass\n"
                       "import numpy as T2\n"
                       "from tilelang.language import gemm as T2\n"
                       "def f():\n"
                       "    return os.sep\n"
                       "q = T.copy, J, copy, tl.jit, T2, tilelang.jit, os.sep\n";
  auto tree = syntax::parse(source);
  TileLangNames::AliasCache cache{64, 2};
  TileLangNames walked(*tree);
  syntax::Node q = tree->root().children(syntax::Field::body).toVector().back();
  syntax::Node tuple = q.child(syntax::Field::value);
  std::vector<std::string> want = {"T.copy", "tilelang.jit", "T.copy",
                                   "tilelang.jit", "T.gemm", "", ""};
  for (int pass = 0; pass < 2; ++pass) {
    TileLangNames cached(*tree, &cache);
    size_t i = 0;
    for (syntax::Node e : tuple.children(syntax::Field::elts)) {
      CAPTURE(i);
      CHECK(cached.qualify(e) == walked.qualify(e));
      CHECK(cached.qualify(e) == want[i]);
      ++i;
    }
    CHECK(i == want.size());
  }
}
