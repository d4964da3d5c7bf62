//===- ParsePattern.cpp - Match statement pattern parsing -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

using namespace tlc;
using namespace tlc::syntax;

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

ParserImpl::Idx ParserImpl::parsePatterns() {
  unsigned startP = p;
  Idx first = parsePattern();
  if (!at(TokenKind::Comma) || panic)
    return first;
  Idx seq = node(NodeKind::MatchSequence, startP);
  adopt(seq, first, Field::patterns);
  while (accept(TokenKind::Comma) && !panic) {
    if (at(TokenKind::Colon) || at(TokenKind::KwIf))
      break;
    adopt(seq, parsePattern(), Field::patterns);
  }
  finish(seq);
  return seq;
}

ParserImpl::Idx ParserImpl::parsePattern() {
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  unsigned startP = p;
  Idx result = parseOrPattern();
  if (at(TokenKind::KwAs)) {
    Idx n = node(NodeKind::MatchAs, startP);
    adopt(n, result, Field::pattern);
    advance();
    if (at(TokenKind::Name)) {
      setIdent(n, p);
      advance();
    } else {
      error("expected a name after 'as'");
    }
    finish(n);
    result = n;
  }
  leave();
  return result;
}

ParserImpl::Idx ParserImpl::parseOrPattern() {
  unsigned startP = p;
  Idx first = parseClosedPattern();
  if (!at(TokenKind::VBar))
    return first;
  Idx n = node(NodeKind::MatchOr, startP);
  adopt(n, first, Field::patterns);
  while (!panic && accept(TokenKind::VBar))
    adopt(n, parseClosedPattern(), Field::patterns);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseLiteralExpr() {
  unsigned startP = p;
  Idx value;
  if (at(TokenKind::Minus)) {
    value = node(NodeKind::UnaryOp, p);
    raw(value).op = static_cast<uint8_t>(UnaryOp::USub);
    advance();
    adopt(value, parseAtom(), Field::operand);
    finish(value);
  } else {
    value = parseAtom();
  }
  if ((at(TokenKind::Plus) || at(TokenKind::Minus)) &&
      kind(1) == TokenKind::Number) {
    Idx n = node(NodeKind::BinOp, startP);
    raw(n).op = static_cast<uint8_t>(at(TokenKind::Plus) ? BinaryOp::Add
                                                         : BinaryOp::Sub);
    adopt(n, value, Field::left);
    advance();
    adopt(n, parseAtom(), Field::right);
    finish(n);
    value = n;
  }
  return value;
}

ParserImpl::Idx ParserImpl::parseDottedName() {
  unsigned startP = p;
  Idx value = node(NodeKind::Name, p);
  setIdent(value, p);
  advance();
  finish(value);
  while (at(TokenKind::Dot) && !panic) {
    Idx a = node(NodeKind::Attribute, startP);
    adopt(a, value, Field::value);
    advance();
    if (at(TokenKind::Name)) {
      setIdent(a, p);
      advance();
    } else {
      error("expected a name after '.'");
    }
    finish(a);
    value = a;
  }
  return value;
}

ParserImpl::Idx ParserImpl::parseClosedPattern() {
  unsigned startP = p;
  switch (kind()) {
  case TokenKind::Star: {
    Idx n = node(NodeKind::MatchStar, p);
    advance();
    if (at(TokenKind::Name)) {
      setIdent(n, p);
      advance();
    } else {
      error("expected a name after '*'");
    }
    finish(n);
    return n;
  }
  case TokenKind::Number:
  case TokenKind::Minus:
  case TokenKind::String:
  case TokenKind::FStringStart: {
    Idx n = node(NodeKind::MatchValue, p);
    adopt(n, parseLiteralExpr(), Field::value);
    finish(n);
    return n;
  }
  case TokenKind::KwNone:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse: {
    Idx n = node(NodeKind::MatchSingleton, p);
    advance();
    finish(n);
    return n;
  }
  case TokenKind::Name: {
    TokenKind next = kind(1);
    if (next != TokenKind::Dot && next != TokenKind::LParen) {
      Idx n = node(NodeKind::MatchAs, p);
      setIdent(n, p);
      advance();
      finish(n);
      return n;
    }
    Idx value = parseDottedName();
    if (at(TokenKind::LParen)) {
      Idx n = node(NodeKind::MatchClass, startP);
      adopt(n, value, Field::cls);
      parseClassPatternArgs(n);
      finish(n);
      return n;
    }
    Idx n = node(NodeKind::MatchValue, startP);
    adopt(n, value, Field::value);
    finish(n);
    return n;
  }
  case TokenKind::LParen: {
    if (!enter()) {
      leave();
      return errorNode(p);
    }
    advance();
    Idx result;
    if (at(TokenKind::RParen)) {
      result = node(NodeKind::MatchSequence, startP);
      advance();
      finish(result);
    } else {
      Idx first = parsePattern();
      if (at(TokenKind::Comma)) {
        result = node(NodeKind::MatchSequence, startP);
        adopt(result, first, Field::patterns);
        while (accept(TokenKind::Comma) && !panic) {
          if (at(TokenKind::RParen))
            break;
          adopt(result, parsePattern(), Field::patterns);
        }
        expect(TokenKind::RParen, "')'");
        finish(result);
      } else {
        expect(TokenKind::RParen, "')'");
        result = first;
      }
    }
    leave();
    return result;
  }
  case TokenKind::LSquare: {
    if (!enter()) {
      leave();
      return errorNode(p);
    }
    Idx n = node(NodeKind::MatchSequence, p);
    advance();
    while (!at(TokenKind::RSquare) && !panic) {
      adopt(n, parsePattern(), Field::patterns);
      if (!accept(TokenKind::Comma))
        break;
    }
    expect(TokenKind::RSquare, "']'");
    finish(n);
    leave();
    return n;
  }
  case TokenKind::LBrace:
    return parseMappingPattern();
  default:
    if (!panic)
      error("expected a pattern");
    return errorNode(p);
  }
}

ParserImpl::Idx ParserImpl::parseMappingPattern() {
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  Idx n = node(NodeKind::MatchMapping, p);
  advance();
  while (!at(TokenKind::RBrace) && !panic) {
    unsigned before = p;
    if (accept(TokenKind::DoubleStar)) {
      if (at(TokenKind::Name)) {
        setIdent(n, p);
        advance();
      } else {
        error("expected a name after '**'");
      }
    } else {
      Idx key = at(TokenKind::Name) ? parseDottedName() : parseLiteralExpr();
      adopt(n, key, Field::keys);
      expect(TokenKind::Colon, "':'");
      adopt(n, parsePattern(), Field::patterns);
    }
    if (p == before || !accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RBrace, "'}'");
  finish(n);
  leave();
  return n;
}

void ParserImpl::parseClassPatternArgs(Idx cls) {
  advance(); // (
  while (!at(TokenKind::RParen) && !panic) {
    unsigned before = p;
    if (at(TokenKind::Name) && kind(1) == TokenKind::Equal) {
      advance();
      advance();
      adopt(cls, parsePattern(), Field::kwd_patterns);
    } else {
      adopt(cls, parsePattern(), Field::patterns);
    }
    if (p == before || !accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RParen, "')'");
}
