//===- ParseCompound.cpp - Compound statement parsing ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Blocks and the compound statements that own them: decorated definitions,
// def and class (with PEP 695 type parameters), if/while/for/with/try,
// match, type aliases, and parameter lists.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/Twine.h"

using namespace tlc;
using namespace tlc::syntax;
using detail::RawNode;

//===----------------------------------------------------------------------===//
// Compound statements
//===----------------------------------------------------------------------===//

ParserImpl::Idx ParserImpl::parseStrayIndent() {
  error("unexpected indent");
  Idx err = node(NodeKind::Error, p);
  advance();
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile))
    parseStatement(err, Field::body);
  accept(TokenKind::Dedent);
  finish(err);
  return err;
}

void ParserImpl::parseBlock(Idx parent, Field field) {
  if (!expect(TokenKind::Colon, "':'")) {
    // Recover: skip the rest of the header line.
    skipToNewline(parent, field);
    if (!at(TokenKind::Indent))
      return;
  } else if (!at(TokenKind::Newline)) {
    // Statements on the same line as the header.
    if (at(TokenKind::EndOfFile)) {
      error("expected an indented block");
      return;
    }
    parseSimpleStatements(parent, field);
    return;
  } else {
    advance();
  }
  if (!at(TokenKind::Indent)) {
    error("expected an indented block");
    return;
  }
  if (!enter()) {
    leave();
    return;
  }
  advance();
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile)) {
    unsigned before = p;
    if (at(TokenKind::Indent)) {
      adopt(parent, parseStrayIndent(), field);
    } else {
      parseStatement(parent, field);
    }
    if (p == before) {
      Idx err = node(NodeKind::Error, p);
      advance();
      finish(err);
      adopt(parent, err, field);
    }
  }
  accept(TokenKind::Dedent);
  leave();
}

ParserImpl::Idx ParserImpl::parseDecorated() {
  // Decorators are created first and adopted by the definition below.
  llvm::SmallVector<Idx, 4> decorators;
  while (at(TokenKind::At)) {
    advance();
    decorators.push_back(parseNamedExpression());
    if (!expect(TokenKind::Newline, "a newline after the decorator")) {
      while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile))
        advance();
      accept(TokenKind::Newline);
      panic = false;
    }
  }
  Idx def = kNone;
  unsigned startP = p;
  if (at(TokenKind::KwDef) ||
      (at(TokenKind::KwAsync) && kind(1) == TokenKind::KwDef)) {
    def = parseFunctionDef(startP, kNone);
  } else if (at(TokenKind::KwClass)) {
    def = parseClassDef(startP);
  } else {
    error("expected 'def' or 'class' after decorators");
    def = errorNode(p);
  }
  // Put decorators first in the child list (they come first in the source).
  RawNode &d = raw(def);
  Idx oldFirst = d.firstChild, oldLast = d.lastChild;
  d.firstChild = d.lastChild = kNone;
  for (Idx dec : decorators)
    adopt(def, dec, Field::decorator_list);
  RawNode &d2 = raw(def);
  if (oldFirst != kNone) {
    if (d2.lastChild == kNone)
      d2.firstChild = oldFirst;
    else
      raw(d2.lastChild).nextSibling = oldFirst;
    d2.lastChild = oldLast;
  }
  return def;
}

void ParserImpl::parseTypeParams(Idx owner) {
  if (!accept(TokenKind::LSquare))
    return;
  while (!at(TokenKind::RSquare) && !panic) {
    unsigned startP = p;
    NodeKind k = NodeKind::TypeVar;
    if (accept(TokenKind::Star))
      k = NodeKind::TypeVarTuple;
    else if (accept(TokenKind::DoubleStar))
      k = NodeKind::ParamSpec;
    Idx n = node(k, startP);
    if (at(TokenKind::Name)) {
      setIdent(n, p);
      advance();
    } else {
      error("expected a type parameter name");
    }
    if (k == NodeKind::TypeVar && accept(TokenKind::Colon))
      adopt(n, parseExpression(), Field::bound);
    finish(n);
    adopt(owner, n, Field::type_params);
    if (!accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RSquare, "']'");
}

ParserImpl::Idx ParserImpl::parseFunctionDef(unsigned startP, Idx) {
  bool isAsync = accept(TokenKind::KwAsync);
  Idx n = node(isAsync ? NodeKind::AsyncFunctionDef : NodeKind::FunctionDef,
               startP);
  advance(); // def
  if (at(TokenKind::Name)) {
    setIdent(n, p);
    advance();
  } else {
    error("expected a function name");
  }
  parseTypeParams(n);
  Idx args = node(NodeKind::arguments, p);
  if (expect(TokenKind::LParen, "'('")) {
    tok();
    raw(args).firstTok = raw(args).endTok = sig[p];
    parseParameters(args, TokenKind::RParen, true);
    finish(args);
    expect(TokenKind::RParen, "')'");
  } else {
    finish(args);
  }
  adopt(n, args, Field::args);
  if (accept(TokenKind::RArrow))
    adopt(n, parseExpression(), Field::returns);
  parseBlock(n, Field::body);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseClassDef(unsigned startP) {
  Idx n = node(NodeKind::ClassDef, startP);
  advance();
  if (at(TokenKind::Name)) {
    setIdent(n, p);
    advance();
  } else {
    error("expected a class name");
  }
  parseTypeParams(n);
  if (at(TokenKind::LParen)) {
    unsigned lp = p;
    advance();
    parseCallArguments(n, lp, Field::bases);
  }
  parseBlock(n, Field::body);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseIf(NodeKind) {
  Idx n = node(NodeKind::If, p);
  advance(); // if / elif
  adopt(n, parseNamedExpression(), Field::test);
  parseBlock(n, Field::body);
  if (at(TokenKind::KwElif)) {
    Idx elif = parseIf(NodeKind::If);
    adopt(n, elif, Field::orelse);
  } else if (accept(TokenKind::KwElse)) {
    parseBlock(n, Field::orelse);
  }
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseWhile() {
  Idx n = node(NodeKind::While, p);
  advance();
  adopt(n, parseNamedExpression(), Field::test);
  parseBlock(n, Field::body);
  if (accept(TokenKind::KwElse))
    parseBlock(n, Field::orelse);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseFor(unsigned startP, bool isAsync) {
  Idx n = node(isAsync ? NodeKind::AsyncFor : NodeKind::For, startP);
  advance(); // for
  Idx target = parseTargetList(true);
  setContext(target, ExprContext::Store);
  checkTarget(target, "assign to");
  adopt(n, target, Field::target);
  if (expect(TokenKind::KwIn, "'in'"))
    adopt(n, parseStarExpressions(), Field::iter);
  parseBlock(n, Field::body);
  if (accept(TokenKind::KwElse))
    parseBlock(n, Field::orelse);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseWith(unsigned startP, bool isAsync) {
  Idx n = node(isAsync ? NodeKind::AsyncWith : NodeKind::With, startP);
  advance(); // with
  auto parseItem = [&]() {
    Idx item = node(NodeKind::withitem, p);
    adopt(item, parseExpression(), Field::context_expr);
    if (accept(TokenKind::KwAs)) {
      Idx target = parseSingleTarget();
      setContext(target, ExprContext::Store);
      checkTarget(target, "assign to");
      adopt(item, target, Field::optional_vars);
    }
    finish(item);
    adopt(n, item, Field::items);
  };
  bool parenthesized = false;
  if (at(TokenKind::LParen)) {
    // `with (a as b, c):` -- the parenthesised form when the matching ')'
    // is followed by ':'.
    int level = 0;
    for (unsigned k = 0;; ++k) {
      TokenKind t = kind(k);
      if (t == TokenKind::LParen || t == TokenKind::LSquare ||
          t == TokenKind::LBrace)
        ++level;
      else if (t == TokenKind::RParen || t == TokenKind::RSquare ||
               t == TokenKind::RBrace)
        --level;
      else if (t == TokenKind::Newline || t == TokenKind::EndOfFile)
        break;
      if (level == 0) {
        parenthesized = kind(k + 1) == TokenKind::Colon &&
                        kind(1) != TokenKind::KwYield;
        break;
      }
    }
  }
  if (parenthesized) {
    advance();
    while (!at(TokenKind::RParen) && !panic) {
      parseItem();
      if (!accept(TokenKind::Comma))
        break;
    }
    expect(TokenKind::RParen, "')'");
  } else {
    do {
      parseItem();
    } while (accept(TokenKind::Comma) && !panic);
  }
  parseBlock(n, Field::body);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseTry() {
  Idx n = node(NodeKind::Try, p);
  advance();
  parseBlock(n, Field::body);
  bool any = false;
  while (at(TokenKind::KwExcept)) {
    any = true;
    Idx h = node(NodeKind::ExceptHandler, p);
    advance();
    if (accept(TokenKind::Star))
      raw(n).kind = NodeKind::TryStar;
    if (!at(TokenKind::Colon)) {
      adopt(h, parseExpression(), Field::type);
      if (at(TokenKind::Comma)) {
        error("multiple exception types must be parenthesized");
        while (accept(TokenKind::Comma) && !panic)
          parseExpression();
      }
      if (accept(TokenKind::KwAs)) {
        if (at(TokenKind::Name)) {
          setIdent(h, p);
          advance();
        } else {
          error("expected a name after 'as'");
        }
      }
    }
    parseBlock(h, Field::body);
    finish(h);
    adopt(n, h, Field::handlers);
  }
  if (any && accept(TokenKind::KwElse))
    parseBlock(n, Field::orelse);
  if (accept(TokenKind::KwFinally)) {
    any = true;
    parseBlock(n, Field::finalbody);
  }
  if (!any)
    error("expected 'except' or 'finally' block");
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseMatch() {
  Idx n = node(NodeKind::Match, p);
  advance(); // match
  {
    unsigned startP = p;
    // subject_expr: star_named_expression ',' star_named_expressions? |
    // named_expression, so `match w := x,:` is a tuple of a NamedExpr.
    Idx subject = parseStarNamedExpression();
    if (at(TokenKind::Comma)) {
      Idx tuple = node(NodeKind::Tuple, startP);
      adopt(tuple, subject, Field::elts);
      while (accept(TokenKind::Comma) && !at(TokenKind::Colon) && !panic)
        adopt(tuple, parseStarNamedExpression(), Field::elts);
      finish(tuple);
      subject = tuple;
    }
    adopt(n, subject, Field::subject);
  }
  expect(TokenKind::Colon, "':'");
  if (!expect(TokenKind::Newline, "a newline") || !at(TokenKind::Indent)) {
    error("expected an indented block of 'case' clauses");
    finish(n);
    return n;
  }
  advance();
  if (!enter()) {
    leave();
    finish(n);
    return n;
  }
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile) && !panic) {
    if (!atSoft("case")) {
      error("expected 'case'");
      unsigned before = p;
      parseStatement(n, Field::None);
      if (p == before)
        advance();
      continue;
    }
    Idx c = node(NodeKind::match_case, p);
    advance();
    adopt(c, parsePatterns(), Field::pattern);
    if (accept(TokenKind::KwIf))
      adopt(c, parseNamedExpression(), Field::guard);
    parseBlock(c, Field::body);
    finish(c);
    adopt(n, c, Field::cases);
  }
  accept(TokenKind::Dedent);
  leave();
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseTypeAlias() {
  Idx n = node(NodeKind::TypeAlias, p);
  advance(); // type
  Idx name = node(NodeKind::Name, p);
  setIdent(name, p);
  advance();
  finish(name);
  raw(name).flags = static_cast<uint8_t>(ExprContext::Store);
  adopt(n, name, Field::name);
  parseTypeParams(n);
  expect(TokenKind::Equal, "'='");
  adopt(n, parseExpression(), Field::value);
  finish(n);
  return n;
}

void ParserImpl::parseParameters(Idx args, TokenKind closer, bool annotations) {
  bool sawStar = false, sawDefault = false;
  while (!at(closer) && !panic) {
    if (at(TokenKind::Slash)) {
      advance();
      for (Idx c = raw(args).firstChild; c != kNone; c = raw(c).nextSibling)
        if (raw(c).field == Field::args)
          raw(c).field = Field::posonlyargs;
    } else if (at(TokenKind::Star) || at(TokenKind::DoubleStar)) {
      bool dbl = at(TokenKind::DoubleStar);
      advance();
      if (!dbl && (at(TokenKind::Comma) || at(closer))) {
        sawStar = true; // bare `*`
      } else if (at(TokenKind::Name)) {
        Idx a = node(NodeKind::arg, p);
        setIdent(a, p);
        advance();
        if (annotations && accept(TokenKind::Colon))
          adopt(a, at(TokenKind::Star) ? parseStarExpression()
                                       : parseExpression(),
                Field::annotation);
        finish(a);
        adopt(args, a, dbl ? Field::kwarg : Field::vararg);
        sawStar = true;
      } else {
        error("expected a parameter name");
        break;
      }
    } else if (at(TokenKind::Name)) {
      Idx a = node(NodeKind::arg, p);
      setIdent(a, p);
      advance();
      if (annotations && accept(TokenKind::Colon))
        adopt(a, parseExpression(), Field::annotation);
      finish(a);
      adopt(args, a, sawStar ? Field::kwonlyargs : Field::args);
      if (accept(TokenKind::Equal)) {
        adopt(args, parseExpression(),
              sawStar ? Field::kw_defaults : Field::defaults);
        sawDefault = true;
      } else if (sawStar) {
        adopt(args, placeholder(), Field::kw_defaults);
      } else if (sawDefault) {
        error("parameter without a default follows parameter with a "
              "default");
      }
    } else {
      error("expected a parameter");
      break;
    }
    if (!accept(TokenKind::Comma))
      break;
  }
}
