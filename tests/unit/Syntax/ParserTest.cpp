//===- ParserTest.cpp - Parser unit tests ---------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Data-driven: each case gives a source and the hand-written S-expression of
// its first statement (see TestUtil.h: `Kind:ident(field=child, ...)`, `!`
// marks Store context, `~` Del), plus the expected diagnostics.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tlc/Syntax/Parser.h"

#include <doctest/doctest.h>

using namespace tlc;
using namespace tlc::syntax;

namespace {

/// Checks the S-expression of statement `index` of `source`.
void check(const std::string &source, const std::string &want,
           const std::string &wantDiags = "", unsigned index = 0) {
  auto tree = parse(source, "t.py");
  CAPTURE(source);
  CHECK(tree->print() == source);
  auto stmts = tree->root().children(Field::body).toVector();
  REQUIRE(stmts.size() > index);
  CHECK(test::sexpr(stmts[index]) == want);
  CHECK(test::messages(*tree) == wantDiags);
}

} // namespace

TEST_CASE("Parser: expressions") {
  check("x = a + b * c ** -d\n",
        "Assign(targets=Name:x!, value=BinOp:Add(left=Name:a, "
        "right=BinOp:Mult(left=Name:b, right=BinOp:Pow(left=Name:c, "
        "right=UnaryOp:USub(operand=Name:d)))))");
  check("a < b <= c is not d not in e\n",
        "Expr(value=Compare:Lt:LtE:IsNot:NotIn(left=Name:a, "
        "comparators=[Name:b, Name:c, Name:d, Name:e]))");
  check("not a and b or c\n",
        "Expr(value=BoolOp:Or(values=[BoolOp:And(values=[UnaryOp:Not("
        "operand=Name:a), Name:b]), Name:c]))");
  check("f(a, *b, k=1, **c)\n",
        "Expr(value=Call(func=Name:f, args=[Name:a, Starred(value=Name:b)], "
        "keywords=[keyword:k(value=Constant=1), keyword(value=Name:c)]))");
  check("x[1:2, ::3, a]\n",
        "Expr(value=Subscript(value=Name:x, slice=Tuple(elts=["
        "Slice(lower=Constant=1, upper=Constant=2), "
        "Slice(step=Constant=3), Name:a])))");
  check("{**a, 'k': 2}\n",
        // (S-expression groups are ordered by their first non-None child.)
        "Expr(value=Dict(values=[Name:a, Constant=2], keys=[None, "
        "Constant='k']))");
  check("[y for x in z if x if y async for q in r]\n",
        "Expr(value=ListComp(elt=Name:y, generators=[comprehension("
        "target=Name:x!, iter=Name:z, ifs=[Name:x, Name:y]), comprehension("
        "target=Name:q!, iter=Name:r)]))");
  check("lambda a, /, b=1, *c, d, **e: a if b else c\n",
        "Expr(value=Lambda(args=arguments(posonlyargs=arg:a, args=arg:b, "
        "defaults=Constant=1, vararg=arg:c, kwonlyargs=arg:d, "
        "kwarg=arg:e, kw_defaults=None), body=IfExp(body=Name:a, "
        "test=Name:b, orelse=Name:c)))");
  check("(y := f(x))\n",
        "Expr(value=NamedExpr(target=Name:y!, value=Call(func=Name:f, "
        "args=Name:x)))");
  check("a, *b = c\n",
        "Assign(targets=Tuple!(elts=[Name:a!, Starred!(value=Name:b!)]), "
        "value=Name:c)");
  check("x = 'a' \"b\" '\\x41\\n'\n",
        "Assign(targets=Name:x!, value=Constant='abA\n')");
  check("x = 0xFF + 1_0 + 1.5 + 2j + 99999999999999999999\n",
        "Assign(targets=Name:x!, value=BinOp:Add(left=BinOp:Add(left="
        "BinOp:Add(left=BinOp:Add(left=Constant=255, right=Constant=10), "
        "right=Constant=1.5), right=Constant=2j), "
        "right=Constant=99999999999999999999))");
  check("f'a{b!r:>{w}}c'\n",
        "Expr(value=JoinedStr(values=[Constant='a', "
        "FormattedValue!r(value=Name:b, format_spec=JoinedStr(values=["
        "Constant='>', FormattedValue(value=Name:w)])), Constant='c']))");
  check("await x\n", "Expr(value=Await(value=Name:x))");
  check("yield from g()\n",
        "Expr(value=YieldFrom(value=Call(func=Name:g)))");
  check("del a.b, c[0]\n",
        "Delete(targets=[Attribute:b~(value=Name:a), Subscript~(value=Name:c, "
        "slice=Constant=0)])");
}

TEST_CASE("Parser: statements") {
  check("@d\nasync def f[T](a: int = 1) -> R:\n    pass\n",
        "AsyncFunctionDef:f(decorator_list=Name:d, type_params=TypeVar:T, "
        "args=arguments(args=arg:a(annotation=Name:int), "
        "defaults=Constant=1), returns=Name:R, body=Pass)");
  check("class C(B, metaclass=M): x = 1\n",
        "ClassDef:C(bases=Name:B, keywords=keyword:metaclass(value=Name:M), "
        "body=Assign(targets=Name:x!, value=Constant=1))");
  check("from ..a.b import c as d, e\n",
        "ImportFrom:a.b(names=[alias:c, alias:e])");
  check("import os.path as p\n", "Import(names=alias:os.path)");
  check("with (a as b, c):\n    pass\n",
        "With(items=[withitem(context_expr=Name:a, optional_vars=Name:b!), "
        "withitem(context_expr=Name:c)], body=Pass)");
  check("with (a, b) as c: pass\n",
        "With(items=withitem(context_expr=Tuple(elts=[Name:a, Name:b]), "
        "optional_vars=Name:c!), body=Pass)");
  check("try:\n    pass\nexcept* E as e:\n    pass\nfinally:\n    pass\n",
        "TryStar(body=Pass, handlers=ExceptHandler:e(type=Name:E, body=Pass), "
        "finalbody=Pass)");
  check("type A[T] = list[T]\n",
        "TypeAlias:A(name=Name:A!, type_params=TypeVar:T, "
        "value=Subscript(value=Name:list, slice=Name:T))");
  check("x: int = 1\n",
        "AnnAssign(target=Name:x!, annotation=Name:int, value=Constant=1)");
  check("x += 1\n", "AugAssign:Add(target=Name:x!, value=Constant=1)");
  check("global a, b\n", "Global");
  check("for i, j in x: pass\nelse: pass\n",
        "For(target=Tuple!(elts=[Name:i!, Name:j!]), iter=Name:x, "
        "body=Pass, orelse=Pass)");
}

TEST_CASE("Parser: soft keywords and patterns") {
  check("match = 1\n", "Assign(targets=Name:match!, value=Constant=1)");
  check("match(x)\n", "Expr(value=Call(func=Name:match, args=Name:x))");
  check("type = 3\n", "Assign(targets=Name:type!, value=Constant=3)");
  check("match p:\n"
        "    case [1, *r] | {'k': _, **kw} if r: pass\n"
        "    case P(a, b=-1+2j) as q: pass\n"
        "    case a.B: pass\n"
        "    case _: pass\n",
        "Match(subject=Name:p, cases=[match_case(pattern=MatchOr(patterns=["
        "MatchSequence(patterns=[MatchValue(value=Constant=1), MatchStar:r]), "
        "MatchMapping:kw(keys=Constant='k', patterns=MatchAs)]), "
        "guard=Name:r, body=Pass), match_case(pattern=MatchAs:q(pattern="
        "MatchClass(cls=Name:P, patterns=MatchAs:a, kwd_patterns=MatchValue("
        "value=BinOp:Add(left=UnaryOp:USub(operand=Constant=1), "
        "right=Constant=2j)))), body=Pass), match_case(pattern=MatchValue("
        "value=Attribute:B(value=Name:a)), body=Pass), "
        "match_case(pattern=MatchAs, body=Pass)])");
  // subject_expr takes named expressions, bare or in a tuple
  // (test_patma.py's `match w := x,:`).
  check("match w := x,:\n    case y: pass\n",
        "Match(subject=Tuple(elts=NamedExpr(target=Name:w!, value=Name:x)), "
        "cases=match_case(pattern=MatchAs:y, body=Pass))");
  check("match w := x:\n    case y: pass\n",
        "Match(subject=NamedExpr(target=Name:w!, value=Name:x), "
        "cases=match_case(pattern=MatchAs:y, body=Pass))");
  check("match *a, w := x:\n    case y: pass\n",
        "Match(subject=Tuple(elts=[Starred(value=Name:a), NamedExpr("
        "target=Name:w!, value=Name:x)]), "
        "cases=match_case(pattern=MatchAs:y, body=Pass))");
}

TEST_CASE("Parser: error recovery keeps the rest of the file") {
  // The half-typed call: the function around it still parses, and so does
  // the next function.
  std::string source = "def f():\n    T.copy(A[by *\n\ndef g():\n"
                       "    return 1\n";
  auto tree = parse(source, "t.py");
  CHECK(tree->print() == source);
  auto stmts = tree->root().children(Field::body).toVector();
  REQUIRE(stmts.size() == 2);
  CHECK(test::sexpr(stmts[1]) ==
        "FunctionDef:g(args=arguments, body=Return(value=Constant=1))");
  Node call = stmts[0].child(Field::body).child(Field::value);
  CHECK(call.kind() == NodeKind::Call);
  CHECK(call.child(Field::func).identifier() == "copy");
  CHECK(tree->hasErrors());

  // Like CPython, a bracket left open continues onto the next line...
  check("x = (1 +\ny = 2\n",
        "Assign(targets=[Name:x!, BinOp:Add(left=Constant=1, right=Name:y)], "
        "value=Constant=2)",
        "'(' was never closed; cannot assign to expression; expected ')'");
  // ...unless that line starts with a statement keyword.
  check("def f(:\ndef g(): pass\n", "FunctionDef:g(args=arguments, body=Pass)",
        "'(' was never closed; expected a parameter; expected ')'; "
        "expected an indented block", 1);
  check("if x\n    a = 1\nb = 2\n", "Assign(targets=Name:b!, value=Constant=2)",
        "expected ':'", 1);
  check("f() = 1\n", "Assign(targets=Call(func=Name:f), value=Constant=1)",
        "cannot assign to function call");
  check("  x = 1\ny = 2\n", "Assign(targets=Name:y!, value=Constant=2)",
        "unexpected indent", 1);
  check("else:\n    pass\n", "Error", "unexpected 'else'");
}

TEST_CASE("Parser: depth limit and huge input") {
  std::string deep = "x = " + std::string(100000, '(') + "1" +
                     std::string(100000, ')') + "\ny = 2\n";
  auto tree = parse(deep, "t.py");
  CHECK(tree->print() == deep);
  CHECK(test::messages(*tree) == "too deeply nested (the limit is 200)");
  auto stmts = tree->root().children(Field::body).toVector();
  REQUIRE(stmts.size() >= 2);
  CHECK(test::sexpr(stmts.back()) == "Assign(targets=Name:y!, value=Constant=2)");

  std::string unary = "x = " + std::string(50000, '-') + "1\n";
  CHECK(parse(unary)->print() == unary);
  std::string nots;
  for (int i = 0; i < 20000; ++i)
    nots += "not ";
  CHECK(parse("x = " + nots + "1\n")->hasErrors());

  // A 10 MB line parses without recursion trouble.
  std::string line = "x = a";
  while (line.size() < 10u * 1024 * 1024)
    line += " + a";
  line += "\n";
  auto big = parse(line);
  CHECK(!big->hasErrors());
  CHECK(big->print().size() == line.size());
}

TEST_CASE("Parser: node API") {
  auto tree = parse("import a.b as c\nfrom . import (x as y)\n"
                    "def f(x, *, k): return {1: x}\n");
  auto stmts = tree->root().children(Field::body).toVector();
  REQUIRE(stmts.size() == 3);
  Node alias = stmts[0].child(Field::names);
  CHECK(alias.identifier(Field::name) == "a.b");
  CHECK(alias.identifier(Field::asname) == "c");
  CHECK(stmts[1].importLevel() == 1u);
  CHECK(stmts[1].identifier(Field::module) == "");
  CHECK(stmts[1].child(Field::names).identifier(Field::asname) == "y");
  Node def = stmts[2];
  Identifier name = def.getIdentifier();
  CHECK(name.name == "f");
  CHECK(tree->source().substr(name.range.begin, 1) == "f");
  Node args = def.child(Field::args);
  CHECK(args.children(Field::kw_defaults).size() == 1u);
  CHECK(!*args.children(Field::kw_defaults).begin());
  Node ret = def.child(Field::body);
  CHECK(ret.parent() == def);
  CHECK(ret.field() == Field::body);
  CHECK(def.parent() == tree->root());
  CHECK(tree->findNode(ret.range().begin + 7).kind() == NodeKind::Dict);
  unsigned count = 0;
  walk(tree->root(), [&](Node) {
    ++count;
    return WalkResult::Advance;
  });
  CHECK(count == 13u);
}
