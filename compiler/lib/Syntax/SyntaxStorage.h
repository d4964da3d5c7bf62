//===- SyntaxStorage.h - Flat storage of syntax tree chunks -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to the Syntax library. A chunk is one top-level statement with its
// leading trivia and trailing dedents: flat arrays of tokens and nodes whose
// offsets/indices are relative to the chunk, so an unchanged chunk can be
// shared by several trees at different absolute offsets.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_SYNTAX_SYNTAXSTORAGE_H
#define TLC_LIB_SYNTAX_SYNTAXSTORAGE_H

#include "tlc/Syntax/SyntaxTree.h"

#include <vector>

namespace tlc {
namespace syntax {
namespace detail {

/// "No index" marker for node links and token indices.
constexpr uint32_t kNone = ~0u;

/// Node flag bits (RawNode::flags).
enum NodeFlags : uint8_t {
  /// Low two bits: ExprContext.
  kCtxMask = 3,
  /// comprehension.is_async.
  kAsyncFlag = 4,
  /// FormattedValue written with `=`.
  kDebugFlag = 8,
};

/// A token; `offset` is relative to its chunk.
struct RawToken {
  uint32_t offset;
  uint32_t length;
  TokenKind kind;
};

/// A node; token indices and links are relative to its chunk.
struct RawNode {
  NodeKind kind;
  /// Field in the parent.
  Field field;
  /// Operator enum value, or FormattedValue conversion char.
  uint8_t op;
  /// NodeFlags.
  uint8_t flags;
  /// Token range [firstTok, endTok) (significant tokens at both ends).
  uint32_t firstTok;
  uint32_t endTok;
  uint32_t parent;
  uint32_t firstChild;
  uint32_t lastChild;
  uint32_t nextSibling;
  /// Token of the node's identifier, or kNone.
  uint32_t ident;
};

/// One top-level statement (or the trailing trivia at end of file).
struct Chunk {
  /// Number of source bytes covered.
  uint32_t length = 0;
  std::vector<RawToken> tokens;
  std::vector<RawNode> nodes;
  /// First top-level node (chained through nextSibling), or kNone.
  uint32_t firstTop = kNone;
  /// Diagnostics with ranges relative to the chunk start.
  std::vector<Diagnostic> diags;
};

} // namespace detail

/// Builds SyntaxTree objects (friend of SyntaxTree).
class TreeBuilder {
public:
  /// Assembles a tree from its text and chunks; computes offsets, the line
  /// index and the absolute, sorted diagnostics.
  static std::shared_ptr<const SyntaxTree>
  build(std::string text, llvm::StringRef fileName,
        std::vector<std::shared_ptr<const detail::Chunk>> chunks);
  /// The chunks of `tree`.
  static const std::vector<std::shared_ptr<const detail::Chunk>> &
  getChunks(const SyntaxTree &tree) {
    return tree.chunks;
  }
  /// The chunk start offsets of `tree`.
  static const std::vector<uint32_t> &getChunkOffsets(const SyntaxTree &tree) {
    return tree.chunkOffsets;
  }
};

} // namespace syntax
} // namespace tlc

#endif // TLC_LIB_SYNTAX_SYNTAXSTORAGE_H
