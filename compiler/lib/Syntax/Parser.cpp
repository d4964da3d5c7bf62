//===- Parser.cpp - Simple statements and chunking -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/SourceEncoding.h"

#include "llvm/ADT/Twine.h"

using namespace tlc;
using namespace tlc::syntax;
using detail::RawNode;

//===----------------------------------------------------------------------===//
// Infrastructure
//===----------------------------------------------------------------------===//

ParserImpl::ParserImpl(llvm::StringRef text, uint32_t start)
    : src(text), lexer(text, start, lexDiags), chunkOffset(start) {
  toks.reserve(256);
  sig.reserve(128);
}

void ParserImpl::fill(unsigned k) {
  while (p + k >= sig.size()) {
    if (sawEof)
      return;
    LexToken t = lexer.next();
    toks.push_back(t);
    if (!isTrivia(t.kind)) {
      sig.push_back(static_cast<uint32_t>(toks.size() - 1));
      if (t.kind == TokenKind::EndOfFile)
        sawEof = true;
    }
  }
}

void ParserImpl::errorAt(TextRange range, const llvm::Twine &message) {
  Diagnostic diag;
  diag.severity = Severity::Error;
  diag.range = TextRange{range.begin - chunkOffset, range.end - chunkOffset};
  diag.message = message.str();
  chunk->diags.push_back(std::move(diag));
}

void ParserImpl::error(const llvm::Twine &message) {
  errorAt(currentRange(), message);
}

bool ParserImpl::expect(TokenKind k, const char *what) {
  if (accept(k))
    return true;
  if (!panic)
    error(llvm::Twine("expected ") + what);
  return false;
}

ParserImpl::Idx ParserImpl::node(NodeKind kind, unsigned startP) {
  if (startP >= sig.size())
    fill(startP - p);
  uint32_t first = sig[std::min<size_t>(startP, sig.size() - 1)];
  RawNode n{kind,  Field::None, 0,     0,     first, first,
            kNone, kNone,       kNone, kNone, kNone};
  chunk->nodes.push_back(n);
  return static_cast<Idx>(chunk->nodes.size() - 1);
}

void ParserImpl::finish(Idx n) {
  RawNode &r = raw(n);
  if (p > 0 && sig[p - 1] >= r.firstTok)
    r.endTok = sig[p - 1] + 1;
  else
    r.endTok = r.firstTok;
}

void ParserImpl::adopt(Idx parent, Idx child, Field field) {
  if (child == kNone)
    return;
  RawNode &c = raw(child);
  c.field = field;
  c.parent = parent;
  c.nextSibling = kNone;
  if (parent == kNone) {
    if (chunk->firstTop == kNone)
      chunk->firstTop = child;
    else
      raw(lastTop).nextSibling = child;
    lastTop = child;
    return;
  }
  RawNode &pr = raw(parent);
  if (pr.lastChild == kNone)
    pr.firstChild = child;
  else
    raw(pr.lastChild).nextSibling = child;
  pr.lastChild = child;
}

ParserImpl::Idx ParserImpl::placeholder() {
  tok();
  return node(NodeKind::Placeholder, p);
}

ParserImpl::Idx ParserImpl::errorNode(unsigned startP) {
  Idx n = node(NodeKind::Error, startP);
  finish(n);
  return n;
}

void ParserImpl::setIdent(Idx n, unsigned sigIndex) {
  raw(n).ident = sig[sigIndex];
}

bool ParserImpl::enter() {
  if (++depth <= kMaxNestingDepth && !panic)
    return true;
  if (!panic)
    error("too deeply nested (the limit is " +
          llvm::Twine(kMaxNestingDepth) + ")");
  panic = true;
  return false;
}

void ParserImpl::setContext(Idx n, ExprContext ctx) {
  // Iterative over the target tree: Starred/List/Tuple pass ctx down.
  llvm::SmallVector<Idx, 8> work{n};
  while (!work.empty()) {
    Idx cur = work.pop_back_val();
    RawNode &r = raw(cur);
    switch (r.kind) {
    case NodeKind::Name:
    case NodeKind::Attribute:
    case NodeKind::Subscript:
      r.flags = (r.flags & ~detail::kCtxMask) | static_cast<uint8_t>(ctx);
      break;
    case NodeKind::Starred:
    case NodeKind::List:
    case NodeKind::Tuple:
      r.flags = (r.flags & ~detail::kCtxMask) | static_cast<uint8_t>(ctx);
      for (Idx c = r.firstChild; c != kNone; c = raw(c).nextSibling)
        if (raw(c).field == Field::elts || raw(c).field == Field::value)
          work.push_back(c);
      break;
    default:
      break;
    }
  }
}

static const char *describeTarget(NodeKind kind) {
  switch (kind) {
  case NodeKind::Call:
    return "function call";
  case NodeKind::Constant:
  case NodeKind::JoinedStr:
    return "literal";
  case NodeKind::Compare:
    return "comparison";
  case NodeKind::BinOp:
  case NodeKind::BoolOp:
  case NodeKind::UnaryOp:
    return "expression";
  case NodeKind::Lambda:
    return "lambda";
  case NodeKind::IfExp:
    return "conditional expression";
  case NodeKind::NamedExpr:
    return "named expression";
  case NodeKind::Dict:
    return "dict literal";
  case NodeKind::Set:
    return "set display";
  case NodeKind::GeneratorExp:
    return "generator expression";
  case NodeKind::ListComp:
    return "list comprehension";
  case NodeKind::Yield:
  case NodeKind::YieldFrom:
    return "yield expression";
  case NodeKind::Await:
    return "await expression";
  default:
    return "expression";
  }
}

void ParserImpl::checkTarget(Idx n, const char *what) {
  llvm::SmallVector<Idx, 8> work{n};
  while (!work.empty()) {
    Idx cur = work.pop_back_val();
    const RawNode &r = raw(cur);
    switch (r.kind) {
    case NodeKind::Name:
    case NodeKind::Attribute:
    case NodeKind::Subscript:
    case NodeKind::Error:
      break;
    case NodeKind::Starred:
    case NodeKind::List:
    case NodeKind::Tuple:
      for (Idx c = r.firstChild; c != kNone; c = raw(c).nextSibling)
        if (raw(c).field == Field::elts || raw(c).field == Field::value)
          work.push_back(c);
      break;
    default: {
      const LexToken &first = toks[r.firstTok];
      uint32_t end = r.endTok > r.firstTok
                         ? toks[r.endTok - 1].offset + toks[r.endTok - 1].length
                         : first.offset;
      errorAt(TextRange{first.offset, end},
              llvm::Twine("cannot ") + what + " " + describeTarget(r.kind));
      break;
    }
    }
  }
}

//===----------------------------------------------------------------------===//
// Chunks
//===----------------------------------------------------------------------===//

std::shared_ptr<detail::Chunk> ParserImpl::parseChunk() {
  auto result = std::make_shared<detail::Chunk>();
  chunk = result.get();
  lastTop = kNone;
  while (true) {
    tok();
    if (at(TokenKind::EndOfFile))
      break;
    unsigned before = p;
    if (at(TokenKind::Indent)) {
      adopt(kNone, parseStrayIndent(), Field::None);
    } else if (at(TokenKind::Dedent)) {
      advance();
    } else {
      parseStatement(kNone, Field::None);
    }
    if (p == before) {
      // Guarantee progress on anything unexpected.
      Idx err = node(NodeKind::Error, p);
      advance();
      finish(err);
      adopt(kNone, err, Field::None);
    }
    tok();
    if (at(TokenKind::EndOfFile))
      break;
    // Cut only where a fresh lexer would be in the same (empty) state: at
    // a column-0 token that starts a logical line.
    const LexToken &cur = tok();
    TokenKind prev = toks[sig[p - 1]].kind;
    bool lineStart = cur.offset == 0 || src[cur.offset - 1] == '\n' ||
                     src[cur.offset - 1] == '\r';
    // A line continuation just before it means the logical line began
    // earlier (`\` on a line of its own), so the lexer's state is not empty
    // (found by tlc-fuzz-parser).
    uint32_t curIndex = sig[p];
    if (curIndex > 0 && toks[curIndex - 1].kind == TokenKind::LineContinuation)
      lineStart = false;
    if ((prev == TokenKind::Newline || prev == TokenKind::Dedent) &&
        cur.kind != TokenKind::Indent && cur.kind != TokenKind::Dedent &&
        lineStart) {
      uint32_t boundary = sig[p];
      uint32_t boundaryOffset = cur.offset;
      chunk->tokens.reserve(boundary);
      for (uint32_t i = 0; i < boundary; ++i)
        chunk->tokens.push_back(detail::RawToken{
            toks[i].offset - chunkOffset, toks[i].length, toks[i].kind});
      chunk->length = boundaryOffset - chunkOffset;
      std::vector<Diagnostic> later;
      for (Diagnostic &d : lexDiags) {
        if (d.range.begin < boundaryOffset) {
          d.range.begin -= chunkOffset;
          d.range.end -= chunkOffset;
          chunk->diags.push_back(std::move(d));
        } else {
          later.push_back(std::move(d));
        }
      }
      lexDiags = std::move(later);
      toks.erase(toks.begin(), toks.begin() + boundary);
      sig.erase(sig.begin(), sig.begin() + p);
      for (uint32_t &s : sig)
        s -= boundary;
      p = 0;
      chunkOffset = boundaryOffset;
      chunk = nullptr;
      return result;
    }
  }
  // The final chunk takes everything up to and including EndOfFile.
  uint32_t end = sig[p] + 1;
  chunk->tokens.reserve(end);
  for (uint32_t i = 0; i < end; ++i)
    chunk->tokens.push_back(detail::RawToken{toks[i].offset - chunkOffset,
                                             toks[i].length, toks[i].kind});
  chunk->length = static_cast<uint32_t>(src.size()) - chunkOffset;
  for (Diagnostic &d : lexDiags) {
    d.range.begin -= chunkOffset;
    d.range.end -= chunkOffset;
    chunk->diags.push_back(std::move(d));
  }
  lexDiags.clear();
  finished = true;
  chunk = nullptr;
  return result;
}

/// Parses `text`, adding `extra` (absolute ranges) to the diagnostics.
static std::shared_ptr<const SyntaxTree>
parseWith(llvm::StringRef text, llvm::StringRef fileName,
          llvm::ArrayRef<Diagnostic> extra) {
  std::string owned;
  bool truncated = false;
  if (text.size() >= 0xFFFFFFF0ull) {
    owned = text.substr(0, 0xFFFFFFF0ull).str();
    truncated = true;
  } else {
    owned = text.str();
  }
  std::vector<std::shared_ptr<const detail::Chunk>> chunks;
  {
    ParserImpl parser(owned, 0);
    while (!parser.done())
      chunks.push_back(parser.parseChunk());
  }
  if (truncated) {
    auto last = std::make_shared<detail::Chunk>(*chunks.back());
    Diagnostic diag;
    diag.range = TextRange{0, 0};
    diag.message = "file too large; only the first 4 GiB were parsed";
    last->diags.push_back(diag);
    chunks.back() = last;
  }
  // Each extra diagnostic goes to the chunk that holds its start.
  for (const Diagnostic &d : extra) {
    uint32_t chunkOffset = 0;
    size_t i = 0;
    while (i + 1 < chunks.size() &&
           d.range.begin >= chunkOffset + chunks[i]->length)
      chunkOffset += chunks[i++]->length;
    auto copy = std::make_shared<detail::Chunk>(*chunks[i]);
    Diagnostic rel = d;
    rel.range.begin -= std::min(rel.range.begin, chunkOffset);
    rel.range.end -= std::min(rel.range.end, chunkOffset);
    copy->diags.push_back(std::move(rel));
    chunks[i] = copy;
  }
  return TreeBuilder::build(std::move(owned), fileName, std::move(chunks));
}

std::shared_ptr<const SyntaxTree> syntax::parse(llvm::StringRef text,
                                                llvm::StringRef fileName) {
  return parseWith(text, fileName, {});
}

std::shared_ptr<const SyntaxTree> syntax::parseFile(llvm::StringRef bytes,
                                                    llvm::StringRef fileName) {
  DecodedSource decoded = decodeSource(bytes);
  return parseWith(decoded.text, fileName, decoded.diagnostics);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool ParserImpl::isMatchStatement() {
  if (!atSoft("match"))
    return false;
  TokenKind next = kind(1);
  if ((!startsExpression(next) && next != TokenKind::Star) ||
      next == TokenKind::KwLambda)
    return false;
  // The logical line must end with ':' (an expression statement never does).
  TokenKind last = TokenKind::Newline;
  for (unsigned k = 1;; ++k) {
    TokenKind t = kind(k);
    if (t == TokenKind::Newline || t == TokenKind::EndOfFile)
      break;
    last = t;
  }
  return last == TokenKind::Colon;
}

bool ParserImpl::isTypeAlias() {
  return atSoft("type") && kind(1) == TokenKind::Name &&
         (kind(2) == TokenKind::Equal || kind(2) == TokenKind::LSquare);
}

void ParserImpl::parseStatement(Idx parent, Field field) {
  unsigned startP = p;
  Idx stmt = kNone;
  switch (kind()) {
  case TokenKind::KwDef:
    stmt = parseFunctionDef(p, kNone);
    break;
  case TokenKind::KwClass:
    stmt = parseClassDef(p);
    break;
  case TokenKind::KwIf:
    stmt = parseIf(NodeKind::If);
    break;
  case TokenKind::KwWhile:
    stmt = parseWhile();
    break;
  case TokenKind::KwFor:
    stmt = parseFor(p, false);
    break;
  case TokenKind::KwWith:
    stmt = parseWith(p, false);
    break;
  case TokenKind::KwTry:
    stmt = parseTry();
    break;
  case TokenKind::At:
    stmt = parseDecorated();
    break;
  case TokenKind::KwAsync:
    if (kind(1) == TokenKind::KwDef) {
      stmt = parseFunctionDef(p, kNone);
    } else if (kind(1) == TokenKind::KwFor) {
      advance();
      stmt = parseFor(startP, true);
    } else if (kind(1) == TokenKind::KwWith) {
      advance();
      stmt = parseWith(startP, true);
    }
    break;
  case TokenKind::Name:
    if (isMatchStatement())
      stmt = parseMatch();
    break;
  case TokenKind::KwElif:
  case TokenKind::KwElse:
  case TokenKind::KwExcept:
  case TokenKind::KwFinally: {
    error(llvm::Twine("unexpected '") + text(tok()) + "'");
    skipToNewline(parent, field);
    if (at(TokenKind::Indent)) {
      // Keep the orphaned block's statements under an Error node.
      Idx err = node(NodeKind::Error, p);
      advance();
      while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile)) {
        unsigned before = p;
        parseStatement(err, Field::body);
        if (p == before)
          advance();
      }
      accept(TokenKind::Dedent);
      finish(err);
      adopt(parent, err, field);
    }
    return;
  }
  default:
    break;
  }
  if (stmt != kNone) {
    adopt(parent, stmt, field);
    if (panic) {
      skipToNewline(parent, field);
      panic = false;
    }
    return;
  }
  if (p != startP) {
    error("invalid syntax");
    skipToNewline(parent, field);
    return;
  }
  parseSimpleStatements(parent, field);
}

void ParserImpl::skipToNewline(Idx parent, Field field) {
  unsigned startP = p;
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile))
    advance();
  if (p != startP)
    adopt(parent, errorNode(startP), field);
  accept(TokenKind::Newline);
}

void ParserImpl::parseSimpleStatements(Idx parent, Field field) {
  while (true) {
    unsigned startP = p;
    Idx stmt = parseSimpleStatement();
    adopt(parent, stmt, field);
    if (panic) {
      panic = false;
      skipToNewline(parent, field);
      return;
    }
    if (accept(TokenKind::Semi)) {
      if (at(TokenKind::Newline) || at(TokenKind::EndOfFile))
        break;
      continue;
    }
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile))
      break;
    (void)startP;
    error("invalid syntax");
    skipToNewline(parent, field);
    return;
  }
  accept(TokenKind::Newline);
}

ParserImpl::Idx ParserImpl::parseSimpleStatement() {
  unsigned startP = p;
  switch (kind()) {
  case TokenKind::KwPass:
  case TokenKind::KwBreak:
  case TokenKind::KwContinue: {
    NodeKind k = at(TokenKind::KwPass)    ? NodeKind::Pass
                 : at(TokenKind::KwBreak) ? NodeKind::Break
                                          : NodeKind::Continue;
    Idx n = node(k, startP);
    advance();
    finish(n);
    return n;
  }
  case TokenKind::KwReturn: {
    Idx n = node(NodeKind::Return, startP);
    advance();
    if (startsExpression(kind()) || at(TokenKind::Star))
      adopt(n, parseStarExpressions(), Field::value);
    finish(n);
    return n;
  }
  case TokenKind::KwRaise: {
    Idx n = node(NodeKind::Raise, startP);
    advance();
    if (startsExpression(kind())) {
      adopt(n, parseExpression(), Field::exc);
      if (accept(TokenKind::KwFrom))
        adopt(n, parseExpression(), Field::cause);
    }
    finish(n);
    return n;
  }
  case TokenKind::KwGlobal:
    return parseNameList(NodeKind::Global);
  case TokenKind::KwNonlocal:
    return parseNameList(NodeKind::Nonlocal);
  case TokenKind::KwDel: {
    Idx n = node(NodeKind::Delete, startP);
    advance();
    while (true) {
      Idx target = parseSingleTarget();
      setContext(target, ExprContext::Del);
      checkTarget(target, "delete");
      adopt(n, target, Field::targets);
      if (!accept(TokenKind::Comma) || !startsExpression(kind()) || panic)
        break;
    }
    finish(n);
    return n;
  }
  case TokenKind::KwAssert: {
    Idx n = node(NodeKind::Assert, startP);
    advance();
    adopt(n, parseExpression(), Field::test);
    if (accept(TokenKind::Comma))
      adopt(n, parseExpression(), Field::msg);
    finish(n);
    return n;
  }
  case TokenKind::KwImport:
    return parseImport();
  case TokenKind::KwFrom:
    return parseFromImport();
  case TokenKind::Name:
    if (isTypeAlias())
      return parseTypeAlias();
    break;
  default:
    break;
  }
  return parseExpressionStatement();
}

static bool augmentedOp(TokenKind kind, BinaryOp &op) {
  switch (kind) {
  case TokenKind::PlusEqual:
    op = BinaryOp::Add;
    return true;
  case TokenKind::MinEqual:
    op = BinaryOp::Sub;
    return true;
  case TokenKind::StarEqual:
    op = BinaryOp::Mult;
    return true;
  case TokenKind::AtEqual:
    op = BinaryOp::MatMult;
    return true;
  case TokenKind::SlashEqual:
    op = BinaryOp::Div;
    return true;
  case TokenKind::PercentEqual:
    op = BinaryOp::Mod;
    return true;
  case TokenKind::AmperEqual:
    op = BinaryOp::BitAnd;
    return true;
  case TokenKind::VBarEqual:
    op = BinaryOp::BitOr;
    return true;
  case TokenKind::CircumflexEqual:
    op = BinaryOp::BitXor;
    return true;
  case TokenKind::LeftShiftEqual:
    op = BinaryOp::LShift;
    return true;
  case TokenKind::RightShiftEqual:
    op = BinaryOp::RShift;
    return true;
  case TokenKind::DoubleStarEqual:
    op = BinaryOp::Pow;
    return true;
  case TokenKind::DoubleSlashEqual:
    op = BinaryOp::FloorDiv;
    return true;
  default:
    return false;
  }
}

ParserImpl::Idx ParserImpl::parseExpressionStatement() {
  unsigned startP = p;
  Idx first = at(TokenKind::KwYield) ? parseYield() : parseStarExpressions();
  if (panic) {
    Idx n = node(NodeKind::Expr, startP);
    adopt(n, first, Field::value);
    finish(n);
    return n;
  }
  BinaryOp op;
  if (at(TokenKind::Equal)) {
    Idx n = node(NodeKind::Assign, startP);
    Idx last = first;
    while (accept(TokenKind::Equal)) {
      setContext(last, ExprContext::Store);
      checkTarget(last, "assign to");
      adopt(n, last, Field::targets);
      last = at(TokenKind::KwYield) ? parseYield() : parseStarExpressions();
      if (panic)
        break;
    }
    adopt(n, last, Field::value);
    finish(n);
    return n;
  }
  if (at(TokenKind::Colon)) {
    Idx n = node(NodeKind::AnnAssign, startP);
    NodeKind k = raw(first).kind;
    if (k != NodeKind::Name && k != NodeKind::Attribute &&
        k != NodeKind::Subscript && k != NodeKind::Error)
      checkTarget(first, "annotate");
    setContext(first, ExprContext::Store);
    adopt(n, first, Field::target);
    advance();
    adopt(n, parseExpression(), Field::annotation);
    if (accept(TokenKind::Equal))
      adopt(n, at(TokenKind::KwYield) ? parseYield() : parseStarExpressions(),
            Field::value);
    finish(n);
    return n;
  }
  if (augmentedOp(kind(), op)) {
    Idx n = node(NodeKind::AugAssign, startP);
    raw(n).op = static_cast<uint8_t>(op);
    NodeKind k = raw(first).kind;
    if (k != NodeKind::Name && k != NodeKind::Attribute &&
        k != NodeKind::Subscript && k != NodeKind::Error)
      checkTarget(first, "perform augmented assignment to");
    setContext(first, ExprContext::Store);
    adopt(n, first, Field::target);
    advance();
    adopt(n, at(TokenKind::KwYield) ? parseYield() : parseStarExpressions(),
          Field::value);
    finish(n);
    return n;
  }
  Idx n = node(NodeKind::Expr, startP);
  adopt(n, first, Field::value);
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseNameList(NodeKind k) {
  Idx n = node(k, p);
  advance();
  do {
    if (!expect(TokenKind::Name, "a name"))
      break;
  } while (accept(TokenKind::Comma));
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseAlias(bool dotted) {
  Idx n = node(NodeKind::alias, p);
  if (at(TokenKind::Name)) {
    setIdent(n, p);
    advance();
    while (dotted && at(TokenKind::Dot)) {
      advance();
      expect(TokenKind::Name, "a name");
    }
  } else {
    error("expected a module name");
  }
  if (accept(TokenKind::KwAs))
    expect(TokenKind::Name, "a name after 'as'");
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseImport() {
  Idx n = node(NodeKind::Import, p);
  advance();
  do {
    adopt(n, parseAlias(true), Field::names);
  } while (accept(TokenKind::Comma));
  finish(n);
  return n;
}

ParserImpl::Idx ParserImpl::parseFromImport() {
  Idx n = node(NodeKind::ImportFrom, p);
  advance();
  bool any = false;
  while (at(TokenKind::Dot) || at(TokenKind::Ellipsis)) {
    advance();
    any = true;
  }
  if (at(TokenKind::Name)) {
    setIdent(n, p);
    advance();
    while (at(TokenKind::Dot)) {
      advance();
      expect(TokenKind::Name, "a name");
    }
  } else if (!any) {
    error("expected a module name");
  }
  if (!expect(TokenKind::KwImport, "'import'")) {
    finish(n);
    return n;
  }
  if (at(TokenKind::Star)) {
    Idx a = node(NodeKind::alias, p);
    setIdent(a, p);
    advance();
    finish(a);
    adopt(n, a, Field::names);
  } else if (accept(TokenKind::LParen)) {
    do {
      if (at(TokenKind::RParen))
        break;
      adopt(n, parseAlias(false), Field::names);
    } while (accept(TokenKind::Comma));
    expect(TokenKind::RParen, "')'");
  } else {
    do {
      adopt(n, parseAlias(false), Field::names);
    } while (accept(TokenKind::Comma));
  }
  finish(n);
  return n;
}
