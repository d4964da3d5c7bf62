//===- ParseExpr.cpp - Expression and pattern parsing ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/Twine.h"

using namespace tlc;
using namespace tlc::syntax;
using detail::RawNode;

bool ParserImpl::startsExpression(TokenKind k) {
  switch (k) {
  case TokenKind::Name:
  case TokenKind::Number:
  case TokenKind::String:
  case TokenKind::FStringStart:
  case TokenKind::LParen:
  case TokenKind::LSquare:
  case TokenKind::LBrace:
  case TokenKind::Minus:
  case TokenKind::Plus:
  case TokenKind::Tilde:
  case TokenKind::KwNot:
  case TokenKind::KwLambda:
  case TokenKind::KwAwait:
  case TokenKind::KwNone:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
  case TokenKind::Ellipsis:
    return true;
  default:
    return false;
  }
}

ParserImpl::Idx ParserImpl::parseStarExpressions(bool allowStar) {
  unsigned startP = p;
  Idx first = allowStar ? parseStarExpression() : parseExpression();
  if (!at(TokenKind::Comma) || panic)
    return first;
  Idx tuple = node(NodeKind::Tuple, startP);
  adopt(tuple, first, Field::elts);
  while (accept(TokenKind::Comma) && !panic) {
    if (!startsExpression(kind()) && !at(TokenKind::Star))
      break;
    adopt(tuple, allowStar ? parseStarExpression() : parseExpression(),
          Field::elts);
  }
  finish(tuple);
  return tuple;
}

ParserImpl::Idx ParserImpl::parseStarExpression() {
  if (!at(TokenKind::Star))
    return parseExpression();
  Idx n = node(NodeKind::Starred, p);
  advance();
  adopt(n, parseBinary(1), Field::value);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseStarNamedExpression() {
  if (!at(TokenKind::Star))
    return parseNamedExpression();
  Idx n = node(NodeKind::Starred, p);
  advance();
  adopt(n, parseBinary(1), Field::value);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseNamedExpression() {
  if (at(TokenKind::Name) && kind(1) == TokenKind::ColonEqual) {
    Idx n = node(NodeKind::NamedExpr, p);
    Idx target = node(NodeKind::Name, p);
    setIdent(target, p);
    advance();
    finish(target);
    raw(target).flags = static_cast<uint8_t>(ExprContext::Store);
    adopt(n, target, Field::target);
    advance();
    adopt(n, parseExpression(), Field::value);
    finish(n);
    return n;
  }
  return parseExpression();
}

ParserImpl::Idx ParserImpl::parseExpression() {
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  Idx result;
  if (at(TokenKind::KwLambda)) {
    result = parseLambda();
  } else {
    unsigned startP = p;
    Idx body = parseDisjunction();
    if (at(TokenKind::KwIf) && !panic) {
      Idx n = node(NodeKind::IfExp, startP);
      adopt(n, body, Field::body);
      advance();
      adopt(n, parseDisjunction(), Field::test);
      if (expect(TokenKind::KwElse, "'else' in conditional expression"))
        adopt(n, parseExpression(), Field::orelse);
      finish(n);
      result = n;
    } else {
      result = body;
    }
  }
  leave();
  return result;
}

ParserImpl::Idx ParserImpl::parseLambda() {
  Idx n = node(NodeKind::Lambda, p);
  advance();
  Idx args = node(NodeKind::arguments, p);
  parseParameters(args, TokenKind::Colon, false);
  finish(args);
  adopt(n, args, Field::args);
  expect(TokenKind::Colon, "':'");
  adopt(n, parseExpression(), Field::body);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseDisjunction() {
  unsigned startP = p;
  Idx first = parseConjunction();
  if (!at(TokenKind::KwOr))
    return first;
  Idx n = node(NodeKind::BoolOp, startP);
  raw(n).op = static_cast<uint8_t>(BoolOp::Or);
  adopt(n, first, Field::values);
  while (!panic && accept(TokenKind::KwOr))
    adopt(n, parseConjunction(), Field::values);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseConjunction() {
  unsigned startP = p;
  Idx first = parseInversion();
  if (!at(TokenKind::KwAnd))
    return first;
  Idx n = node(NodeKind::BoolOp, startP);
  raw(n).op = static_cast<uint8_t>(BoolOp::And);
  adopt(n, first, Field::values);
  while (!panic && accept(TokenKind::KwAnd))
    adopt(n, parseInversion(), Field::values);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseInversion() {
  if (!at(TokenKind::KwNot))
    return parseComparison();
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  Idx n = node(NodeKind::UnaryOp, p);
  raw(n).op = static_cast<uint8_t>(UnaryOp::Not);
  advance();
  adopt(n, parseInversion(), Field::operand);
  finish(n);
  leave();
  return n;
}

/// Consumes a comparison operator if one is next.
static bool isCompareStart(TokenKind k, TokenKind next) {
  switch (k) {
  case TokenKind::EqEqual:
  case TokenKind::NotEqual:
  case TokenKind::Less:
  case TokenKind::LessEqual:
  case TokenKind::Greater:
  case TokenKind::GreaterEqual:
  case TokenKind::KwIn:
  case TokenKind::KwIs:
    return true;
  case TokenKind::KwNot:
    return next == TokenKind::KwIn;
  default:
    return false;
  }
}

ParserImpl::Idx ParserImpl::parseComparison() {
  unsigned startP = p;
  Idx left = parseBinary(1);
  if (!isCompareStart(kind(), kind(1)) || panic)
    return left;
  Idx n = node(NodeKind::Compare, startP);
  adopt(n, left, Field::left);
  while (!panic && isCompareStart(kind(), kind(1))) {
    if (at(TokenKind::KwNot)) {
      advance();
      advance();
    } else if (at(TokenKind::KwIs)) {
      advance();
      accept(TokenKind::KwNot);
    } else {
      advance();
    }
    adopt(n, parseBinary(1), Field::comparators);
  }
  finish(n);
  return n;
}

static unsigned binaryPrecedence(TokenKind k, BinaryOp &op) {
  switch (k) {
  case TokenKind::VBar:
    op = BinaryOp::BitOr;
    return 1;
  case TokenKind::Circumflex:
    op = BinaryOp::BitXor;
    return 2;
  case TokenKind::Amper:
    op = BinaryOp::BitAnd;
    return 3;
  case TokenKind::LeftShift:
    op = BinaryOp::LShift;
    return 4;
  case TokenKind::RightShift:
    op = BinaryOp::RShift;
    return 4;
  case TokenKind::Plus:
    op = BinaryOp::Add;
    return 5;
  case TokenKind::Minus:
    op = BinaryOp::Sub;
    return 5;
  case TokenKind::Star:
    op = BinaryOp::Mult;
    return 6;
  case TokenKind::Slash:
    op = BinaryOp::Div;
    return 6;
  case TokenKind::DoubleSlash:
    op = BinaryOp::FloorDiv;
    return 6;
  case TokenKind::Percent:
    op = BinaryOp::Mod;
    return 6;
  case TokenKind::At:
    op = BinaryOp::MatMult;
    return 6;
  default:
    return 0;
  }
}

ParserImpl::Idx ParserImpl::parseBinary(unsigned minPrec) {
  unsigned startP = p;
  Idx left = parseFactor();
  while (!panic) {
    BinaryOp op;
    unsigned prec = binaryPrecedence(kind(), op);
    if (prec == 0 || prec < minPrec)
      break;
    advance();
    Idx right = parseBinary(prec + 1);
    Idx n = node(NodeKind::BinOp, startP);
    raw(n).op = static_cast<uint8_t>(op);
    adopt(n, left, Field::left);
    adopt(n, right, Field::right);
    finish(n);
    left = n;
  }
  return left;
}

ParserImpl::Idx ParserImpl::parseFactor() {
  UnaryOp op;
  switch (kind()) {
  case TokenKind::Plus:
    op = UnaryOp::UAdd;
    break;
  case TokenKind::Minus:
    op = UnaryOp::USub;
    break;
  case TokenKind::Tilde:
    op = UnaryOp::Invert;
    break;
  default:
    return parsePower();
  }
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  Idx n = node(NodeKind::UnaryOp, p);
  raw(n).op = static_cast<uint8_t>(op);
  advance();
  adopt(n, parseFactor(), Field::operand);
  finish(n);
  leave();
  return n;
}

ParserImpl::Idx ParserImpl::parsePower() {
  unsigned startP = p;
  Idx base;
  if (at(TokenKind::KwAwait)) {
    if (!enter()) {
      leave();
      return errorNode(p);
    }
    base = node(NodeKind::Await, p);
    advance();
    adopt(base, parsePrimary(), Field::value);
    finish(base);
    leave();
  } else {
    base = parsePrimary();
  }
  if (!at(TokenKind::DoubleStar) || panic)
    return base;
  advance();
  Idx n = node(NodeKind::BinOp, startP);
  raw(n).op = static_cast<uint8_t>(BinaryOp::Pow);
  adopt(n, base, Field::left);
  adopt(n, parseFactor(), Field::right);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parsePrimary(bool) {
  unsigned startP = p;
  Idx e = parseAtom();
  while (!panic) {
    if (at(TokenKind::Dot)) {
      Idx n = node(NodeKind::Attribute, startP);
      adopt(n, e, Field::value);
      advance();
      if (at(TokenKind::Name)) {
        setIdent(n, p);
        advance();
      } else {
        error("expected an attribute name after '.'");
      }
      finish(n);
      e = n;
    } else if (at(TokenKind::LParen)) {
      Idx n = node(NodeKind::Call, startP);
      adopt(n, e, Field::func);
      unsigned lp = p;
      advance();
      parseCallArguments(n, lp);
      finish(n);
      e = n;
    } else if (at(TokenKind::LSquare)) {
      Idx n = node(NodeKind::Subscript, startP);
      adopt(n, e, Field::value);
      advance();
      if (!enter()) {
        leave();
        finish(n);
        return n;
      }
      adopt(n, parseSlices(), Field::slice);
      leave();
      expect(TokenKind::RSquare, "']'");
      finish(n);
      e = n;
    } else {
      break;
    }
  }
  return e;
}

ParserImpl::Idx ParserImpl::parseAtom() {
  unsigned startP = p;
  switch (kind()) {
  case TokenKind::Name: {
    Idx n = node(NodeKind::Name, startP);
    setIdent(n, p);
    advance();
    finish(n);
    return n;
  }
  case TokenKind::Number:
  case TokenKind::KwNone:
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
  case TokenKind::Ellipsis: {
    Idx n = node(NodeKind::Constant, startP);
    advance();
    finish(n);
    return n;
  }
  case TokenKind::String:
  case TokenKind::FStringStart:
    return parseStrings();
  case TokenKind::LParen:
    return parseParenthesized();
  case TokenKind::LSquare:
    return parseListDisplay();
  case TokenKind::LBrace:
    return parseBraceDisplay();
  default:
    if (!panic)
      error("expected expression");
    return errorNode(startP);
  }
}

ParserImpl::Idx ParserImpl::parseParenthesized() {
  unsigned startP = p;
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  advance();
  Idx result;
  if (at(TokenKind::RParen)) {
    result = node(NodeKind::Tuple, startP);
    advance();
    finish(result);
  } else if (at(TokenKind::KwYield)) {
    result = parseYield();
    expect(TokenKind::RParen, "')'");
  } else {
    Idx first = parseStarNamedExpression();
    if (at(TokenKind::KwFor) ||
        (at(TokenKind::KwAsync) && kind(1) == TokenKind::KwFor)) {
      result = node(NodeKind::GeneratorExp, startP);
      adopt(result, first, Field::elt);
      parseComprehensions(result);
      expect(TokenKind::RParen, "')'");
      finish(result);
    } else if (at(TokenKind::Comma)) {
      result = node(NodeKind::Tuple, startP);
      adopt(result, first, Field::elts);
      while (accept(TokenKind::Comma) && !panic) {
        if (!startsExpression(kind()) && !at(TokenKind::Star))
          break;
        adopt(result, parseStarNamedExpression(), Field::elts);
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

ParserImpl::Idx ParserImpl::parseListDisplay() {
  unsigned startP = p;
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  advance();
  Idx result = node(NodeKind::List, startP);
  if (!at(TokenKind::RSquare)) {
    Idx first = parseStarNamedExpression();
    if (at(TokenKind::KwFor) ||
        (at(TokenKind::KwAsync) && kind(1) == TokenKind::KwFor)) {
      raw(result).kind = NodeKind::ListComp;
      adopt(result, first, Field::elt);
      parseComprehensions(result);
    } else {
      adopt(result, first, Field::elts);
      while (accept(TokenKind::Comma) && !panic) {
        if (!startsExpression(kind()) && !at(TokenKind::Star))
          break;
        adopt(result, parseStarNamedExpression(), Field::elts);
      }
    }
  }
  expect(TokenKind::RSquare, "']'");
  finish(result);
  leave();
  return result;
}

ParserImpl::Idx ParserImpl::parseBraceDisplay() {
  unsigned startP = p;
  if (!enter()) {
    leave();
    return errorNode(p);
  }
  advance();
  Idx result = node(NodeKind::Dict, startP);
  if (at(TokenKind::RBrace)) {
    advance();
    finish(result);
    leave();
    return result;
  }
  bool isDict;
  Idx first = kNone;
  if (at(TokenKind::DoubleStar)) {
    isDict = true;
  } else {
    first = parseStarNamedExpression();
    isDict = at(TokenKind::Colon);
  }
  if (isDict) {
    bool firstEntry = true;
    while (!panic) {
      if (first == kNone && at(TokenKind::DoubleStar)) {
        adopt(result, placeholder(), Field::keys);
        advance();
        adopt(result, parseBinary(1), Field::values);
      } else {
        if (first == kNone)
          first = parseExpression();
        adopt(result, first, Field::keys);
        expect(TokenKind::Colon, "':'");
        adopt(result, parseExpression(), Field::values);
        if (firstEntry && (at(TokenKind::KwFor) ||
                           (at(TokenKind::KwAsync) &&
                            kind(1) == TokenKind::KwFor))) {
          RawNode &r = raw(result);
          r.kind = NodeKind::DictComp;
          for (Idx c = r.firstChild; c != kNone; c = raw(c).nextSibling)
            raw(c).field = raw(c).field == Field::keys ? Field::key
                                                       : Field::value;
          parseComprehensions(result);
          break;
        }
      }
      first = kNone;
      firstEntry = false;
      if (!accept(TokenKind::Comma) ||
          (!startsExpression(kind()) && !at(TokenKind::DoubleStar)))
        break;
    }
  } else if (at(TokenKind::KwFor) ||
             (at(TokenKind::KwAsync) && kind(1) == TokenKind::KwFor)) {
    raw(result).kind = NodeKind::SetComp;
    adopt(result, first, Field::elt);
    parseComprehensions(result);
  } else {
    raw(result).kind = NodeKind::Set;
    adopt(result, first, Field::elts);
    while (accept(TokenKind::Comma) && !panic) {
      if (!startsExpression(kind()) && !at(TokenKind::Star))
        break;
      adopt(result, parseStarNamedExpression(), Field::elts);
    }
  }
  expect(TokenKind::RBrace, "'}'");
  finish(result);
  leave();
  return result;
}

void ParserImpl::parseComprehensions(Idx owner) {
  while (!panic && (at(TokenKind::KwFor) || (at(TokenKind::KwAsync) &&
                                              kind(1) == TokenKind::KwFor))) {
    Idx c = node(NodeKind::comprehension, p);
    if (accept(TokenKind::KwAsync))
      raw(c).flags |= detail::kAsyncFlag;
    advance(); // for
    Idx target = parseTargetList(true);
    setContext(target, ExprContext::Store);
    checkTarget(target, "assign to");
    adopt(c, target, Field::target);
    if (expect(TokenKind::KwIn, "'in'"))
      adopt(c, parseDisjunction(), Field::iter);
    while (!panic && accept(TokenKind::KwIf))
      adopt(c, parseDisjunction(), Field::ifs);
    finish(c);
    adopt(owner, c, Field::generators);
  }
}

ParserImpl::Idx ParserImpl::parseStrings() {
  unsigned startP = p;
  Idx n = node(NodeKind::Constant, startP);
  bool hasF = false;
  llvm::SmallVector<unsigned, 4> plain;
  while (!panic) {
    if (at(TokenKind::String)) {
      if (hasF) {
        Idx c = node(NodeKind::Constant, p);
        advance();
        finish(c);
        adopt(n, c, Field::values);
      } else {
        plain.push_back(p);
        advance();
      }
    } else if (at(TokenKind::FStringStart)) {
      if (!hasF) {
        hasF = true;
        raw(n).kind = NodeKind::JoinedStr;
        for (unsigned s : plain) {
          Idx c = node(NodeKind::Constant, s);
          raw(c).endTok = sig[s] + 1;
          adopt(n, c, Field::values);
        }
      }
      parseFString(n);
    } else {
      break;
    }
  }
  finish(n);
  return n;
}

void ParserImpl::parseFString(Idx joined) {
  llvm::StringRef start = text(tok());
  bool isRaw = start.contains('r') || start.contains('R');
  advance();
  if (!enter()) {
    leave();
    return;
  }
  while (!panic) {
    if (at(TokenKind::FStringMiddle)) {
      Idx c = node(NodeKind::Constant, p);
      if (isRaw)
        raw(c).flags |= kRawFlag;
      advance();
      finish(c);
      adopt(joined, c, Field::values);
    } else if (at(TokenKind::LBrace)) {
      parseReplacementField(joined);
    } else if (at(TokenKind::FStringEnd)) {
      advance();
      break;
    } else {
      error("expected end of f-string");
      break;
    }
  }
  leave();
}

void ParserImpl::parseReplacementField(Idx owner) {
  Idx fv = node(NodeKind::FormattedValue, p);
  advance(); // {
  if (at(TokenKind::RBrace) || at(TokenKind::FStringEnd))
    error("f-string: valid expression required before '}'");
  else
    adopt(fv, at(TokenKind::KwYield) ? parseYield() : parseStarExpressions(),
          Field::value);
  if (accept(TokenKind::Equal))
    raw(fv).flags |= detail::kDebugFlag;
  if (accept(TokenKind::Exclamation)) {
    llvm::StringRef conv = text(tok());
    if (at(TokenKind::Name) &&
        (conv == "s" || conv == "r" || conv == "a")) {
      raw(fv).op = static_cast<uint8_t>(conv[0]);
      advance();
    } else {
      error("f-string: invalid conversion character: expected 's', 'r', or "
            "'a'");
      if (at(TokenKind::Name))
        advance();
    }
  }
  if (at(TokenKind::Colon)) {
    advance();
    Idx spec = node(NodeKind::JoinedStr, p);
    while (!panic) {
      if (at(TokenKind::FStringMiddle)) {
        Idx c = node(NodeKind::Constant, p);
        advance();
        finish(c);
        adopt(spec, c, Field::values);
      } else if (at(TokenKind::LBrace)) {
        if (!enter()) {
          leave();
          break;
        }
        parseReplacementField(spec);
        leave();
      } else {
        break;
      }
    }
    finish(spec);
    adopt(fv, spec, Field::format_spec);
  }
  expect(TokenKind::RBrace, "'}' in f-string");
  finish(fv);
  adopt(owner, fv, Field::values);
}

ParserImpl::Idx ParserImpl::parseYield() {
  Idx n = node(NodeKind::Yield, p);
  advance();
  if (accept(TokenKind::KwFrom)) {
    raw(n).kind = NodeKind::YieldFrom;
    adopt(n, parseExpression(), Field::value);
  } else if (startsExpression(kind()) || at(TokenKind::Star)) {
    adopt(n, parseStarExpressions(), Field::value);
  }
  finish(n);
  return n;
}

void ParserImpl::parseCallArguments(Idx call, unsigned lparenP,
                                    Field positional) {
  if (!enter()) {
    leave();
    return;
  }
  Idx genexp = kNone;
  while (!at(TokenKind::RParen) && !panic) {
    unsigned before = p;
    if (at(TokenKind::Star)) {
      Idx s = node(NodeKind::Starred, p);
      advance();
      adopt(s, parseExpression(), Field::value);
      finish(s);
      adopt(call, s, positional);
    } else if (at(TokenKind::DoubleStar)) {
      Idx kw = node(NodeKind::keyword, p);
      advance();
      adopt(kw, parseExpression(), Field::value);
      finish(kw);
      adopt(call, kw, Field::keywords);
    } else if (at(TokenKind::Name) && kind(1) == TokenKind::Equal) {
      Idx kw = node(NodeKind::keyword, p);
      setIdent(kw, p);
      advance();
      advance();
      adopt(kw, parseExpression(), Field::value);
      finish(kw);
      adopt(call, kw, Field::keywords);
    } else {
      Idx e = parseNamedExpression();
      if (at(TokenKind::KwFor) ||
          (at(TokenKind::KwAsync) && kind(1) == TokenKind::KwFor)) {
        genexp = node(NodeKind::GeneratorExp, lparenP);
        adopt(genexp, e, Field::elt);
        parseComprehensions(genexp);
        adopt(call, genexp, positional);
      } else {
        adopt(call, e, positional);
      }
    }
    if (p == before)
      break;
    if (!accept(TokenKind::Comma))
      break;
  }
  expect(TokenKind::RParen, "')'");
  if (genexp != kNone)
    finish(genexp);
  leave();
}

ParserImpl::Idx ParserImpl::parseSlices() {
  unsigned startP = p;
  Idx first = parseSlice();
  if (!at(TokenKind::Comma) || panic)
    return first;
  Idx tuple = node(NodeKind::Tuple, startP);
  adopt(tuple, first, Field::elts);
  while (accept(TokenKind::Comma) && !panic) {
    if (!startsExpression(kind()) && !at(TokenKind::Star) &&
        !at(TokenKind::Colon))
      break;
    adopt(tuple, parseSlice(), Field::elts);
  }
  finish(tuple);
  return tuple;
}

ParserImpl::Idx ParserImpl::parseSlice() {
  unsigned startP = p;
  if (at(TokenKind::Star))
    return parseStarNamedExpression();
  Idx lower = kNone;
  if (!at(TokenKind::Colon)) {
    lower = parseNamedExpression();
    if (!at(TokenKind::Colon))
      return lower;
  }
  Idx n = node(NodeKind::Slice, startP);
  adopt(n, lower, Field::lower);
  advance();
  if (startsExpression(kind()))
    adopt(n, parseExpression(), Field::upper);
  if (accept(TokenKind::Colon) && startsExpression(kind()))
    adopt(n, parseExpression(), Field::step);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseTargetElement() {
  if (!at(TokenKind::Star))
    return parsePrimary();
  Idx n = node(NodeKind::Starred, p);
  advance();
  adopt(n, parseTargetElement(), Field::value);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseTargetList(bool) {
  unsigned startP = p;
  Idx first = parseTargetElement();
  if (!at(TokenKind::Comma) || panic)
    return first;
  Idx tuple = node(NodeKind::Tuple, startP);
  adopt(tuple, first, Field::elts);
  while (accept(TokenKind::Comma) && !panic) {
    if (!startsExpression(kind()) && !at(TokenKind::Star))
      break;
    adopt(tuple, parseTargetElement(), Field::elts);
  }
  finish(tuple);
  return tuple;
}

ParserImpl::Idx ParserImpl::parseSingleTarget() { return parseTargetElement(); }
