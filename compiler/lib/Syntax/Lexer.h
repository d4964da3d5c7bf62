//===- Lexer.h - Python 3.12 tokenizer --------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the Syntax library. A pull tokenizer that follows CPython's
// tokenizer (INDENT/DEDENT/NEWLINE, PEP 701 f-string tokens) and also emits
// trivia tokens so that the tokens cover every byte. It can start at any
// offset where CPython's tokenizer would be at the start of a line with no
// open bracket and no indentation; that is what incremental reparsing needs.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_SYNTAX_LEXER_H
#define TLC_LIB_SYNTAX_LEXER_H

#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace tlc {
namespace syntax {

/// A token with an absolute offset.
struct LexToken {
  uint32_t offset;
  uint32_t length;
  TokenKind kind;
};

/// Tokenizes one text. Not thread-safe; one lexer per parse.
class Lexer {
public:
  /// Lexes `text` from `start`, which must be 0 or the start of a line at
  /// which the file's tokenizer state is empty. Diagnostics are appended to
  /// `diags` with absolute ranges.
  Lexer(llvm::StringRef text, uint32_t start, std::vector<Diagnostic> &diags);

  /// Returns the next token (EndOfFile forever at the end).
  LexToken next();

private:
  enum class ModeKind : uint8_t { Paren, Square, Brace, FString, FExpr, Spec };
  struct Mode {
    ModeKind kind;
    char quote;
    bool triple;
    bool raw;
    uint32_t openOffset;
    uint32_t openLength;
    uint32_t lineIndent;
  };

  LexToken make(TokenKind kind, uint32_t begin) {
    return LexToken{begin, pos - begin, kind};
  }
  void error(uint32_t begin, uint32_t end, const llvm::Twine &message);
  LexToken lexNormal();
  LexToken lexLineStart();
  LexToken lexAtEnd();
  LexToken lexNewline(uint32_t begin);
  LexToken lexName(uint32_t begin);
  LexToken lexNumber(uint32_t begin);
  LexToken lexString(uint32_t begin, uint32_t prefixEnd, bool isF, bool raw,
                     bool isBytes);
  LexToken lexFStringText(Mode &mode);
  LexToken lexOperator(uint32_t begin);
  LexToken lexUnknown(uint32_t begin);
  void closeBracket(uint32_t begin, char closer);
  bool shouldRecoverBrackets(uint32_t lineStart);
  void popFString();
  unsigned validUtf8Length(uint32_t at) const;

  const char *buf;
  uint32_t size;
  uint32_t pos;
  std::vector<Diagnostic> &diags;
  bool atLineStart = true;
  bool atEnd = false;
  /// Set while lexName() has reported an invalid character.
  bool badIdentifierChar = false;
  uint32_t currentIndent = 0;
  llvm::SmallVector<uint32_t, 16> indents{0};
  llvm::SmallVector<uint32_t, 16> altIndents{0};
  llvm::SmallVector<Mode, 8> modes;
  llvm::SmallVector<LexToken, 8> queue;
  unsigned queueHead = 0;
};

/// Keyword token kind of `word`, or Name.
TokenKind classifyWord(llvm::StringRef word);

} // namespace syntax
} // namespace tlc

#endif // TLC_LIB_SYNTAX_LEXER_H
