//===- ParserImpl.h - Recursive-descent Python parser -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the Syntax library. The parser pulls tokens from the Lexer on
// demand and writes one Chunk per top-level statement. Node token indices are
// relative to the chunk being written; the token buffer is compacted at each
// chunk boundary. Every parse function returns a node index (never kNone for
// expressions: a missing expression is a zero-token Error node).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_SYNTAX_PARSERIMPL_H
#define TLC_LIB_SYNTAX_PARSERIMPL_H

#include "Lexer.h"
#include "SyntaxStorage.h"

#include "llvm/ADT/Twine.h"

#include <memory>

namespace tlc {
namespace syntax {

/// Extra RawNode flag: an FStringMiddle constant of a raw f-string.
constexpr uint8_t kRawFlag = 16;

/// Parses a text chunk by chunk from a given start offset.
class ParserImpl {
public:
  /// Parses `text` from `start` (0, or an offset where a chunk started).
  ParserImpl(llvm::StringRef text, uint32_t start);

  /// Parses the next top-level statement (with its leading trivia and
  /// trailing dedents) into a chunk. The last chunk ends with EndOfFile.
  std::shared_ptr<detail::Chunk> parseChunk();
  /// True once the chunk holding EndOfFile has been returned.
  bool done() const { return finished; }
  /// Absolute offset where the next chunk starts.
  uint32_t offset() const { return chunkOffset; }

private:
  using Idx = uint32_t;
  static constexpr Idx kNone = detail::kNone;

  // Token access.
  void fill(unsigned k);
  const LexToken &tok(unsigned k = 0) {
    if (p + k >= sig.size())
      fill(k);
    size_t i = p + k < sig.size() ? p + k : sig.size() - 1;
    return toks[sig[i]];
  }
  TokenKind kind(unsigned k = 0) { return tok(k).kind; }
  bool at(TokenKind k) { return kind() == k; }
  llvm::StringRef text(const LexToken &t) const {
    return src.substr(t.offset, t.length);
  }
  bool atSoft(llvm::StringRef word, unsigned k = 0) {
    const LexToken &t = tok(k);
    return t.kind == TokenKind::Name && text(t) == word;
  }
  void advance() {
    if (kind() != TokenKind::EndOfFile)
      ++p;
  }
  bool accept(TokenKind k) {
    if (!at(k))
      return false;
    advance();
    return true;
  }
  bool expect(TokenKind k, const char *what);
  void error(const llvm::Twine &message);
  void errorAt(TextRange range, const llvm::Twine &message);
  TextRange currentRange() {
    const LexToken &t = tok();
    return TextRange{t.offset, t.offset + t.length};
  }

  // Node construction.
  Idx node(NodeKind kind, unsigned startP);
  void finish(Idx n);
  void adopt(Idx parent, Idx child, Field field);
  Idx placeholder();
  Idx errorNode(unsigned startP);
  void setIdent(Idx n, unsigned sigIndex);
  void setContext(Idx n, ExprContext ctx);
  void checkTarget(Idx n, const char *what);
  detail::RawNode &raw(Idx n) { return chunk->nodes[n]; }
  bool enter();
  void leave() { --depth; }

  // Statements (Parser.cpp).
  void parseStatement(Idx parent, Field field);
  void parseSimpleStatements(Idx parent, Field field);
  Idx parseSimpleStatement();
  Idx parseExpressionStatement();
  Idx parseImport();
  Idx parseFromImport();
  Idx parseAlias(bool dotted);
  Idx parseNameList(NodeKind kind);
  void parseBlock(Idx parent, Field field);
  /// At an unexpected Indent: reports it and parses the over-indented
  /// statements into a finished Error node, which it returns.
  Idx parseStrayIndent();
  void skipToNewline(Idx parent, Field field);
  Idx parseDecorated();
  Idx parseFunctionDef(unsigned startP, Idx decorators);
  Idx parseClassDef(unsigned startP);
  Idx parseIf(NodeKind kind);
  Idx parseWhile();
  Idx parseFor(unsigned startP, bool isAsync);
  Idx parseWith(unsigned startP, bool isAsync);
  Idx parseTry();
  Idx parseMatch();
  Idx parseTypeAlias();
  void parseTypeParams(Idx owner);
  void parseParameters(Idx args, TokenKind closer, bool annotations);
  bool isMatchStatement();
  bool isTypeAlias();

  // Expressions (ParseExpr.cpp).
  Idx parseStarExpressions(bool allowStar = true);
  Idx parseStarExpression();
  Idx parseNamedExpression();
  Idx parseExpression();
  Idx parseLambda();
  Idx parseDisjunction();
  Idx parseConjunction();
  Idx parseInversion();
  Idx parseComparison();
  Idx parseBinary(unsigned minPrec);
  Idx parseFactor();
  Idx parsePower();
  Idx parsePrimary(bool allowCalls = true);
  Idx parseAtom();
  Idx parseParenthesized();
  Idx parseListDisplay();
  Idx parseBraceDisplay();
  Idx parseStrings();
  void parseFString(Idx joined);
  void parseReplacementField(Idx joined);
  Idx parseYield();
  void parseCallArguments(Idx call, unsigned lparenP,
                          Field positional = Field::args);
  Idx parseStarNamedExpression();
  Idx parseTargetElement();
  Idx parseDottedName();
  Idx parseSlices();
  Idx parseSlice();
  void parseComprehensions(Idx owner);
  Idx parseTargetList(bool stopAtIn);
  Idx parseSingleTarget();
  bool startsExpression(TokenKind k);

  // Patterns (ParseExpr.cpp).
  Idx parsePatterns();
  Idx parsePattern();
  Idx parseOrPattern();
  Idx parseClosedPattern();
  Idx parseSequencePatternBody(unsigned startP, TokenKind closer);
  Idx parseMappingPattern();
  void parseClassPatternArgs(Idx cls);
  Idx parseLiteralExpr();

  llvm::StringRef src;
  std::vector<Diagnostic> lexDiags;
  Lexer lexer;
  std::vector<LexToken> toks;
  std::vector<uint32_t> sig;
  unsigned p = 0;
  bool sawEof = false;
  bool finished = false;
  uint32_t chunkOffset;
  detail::Chunk *chunk = nullptr;
  Idx lastTop = kNone;
  unsigned depth = 0;
  bool panic = false;
};

} // namespace syntax
} // namespace tlc

#endif // TLC_LIB_SYNTAX_PARSERIMPL_H
