//===- SyntaxTree.h - Lossless Python syntax tree ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An immutable, lossless syntax tree of one Python 3.12 source file.
//
// The tree owns the source text, every token (trivia included, so the tokens
// cover every byte and print() gives the file back byte for byte), the nodes
// and the diagnostics. Nodes mirror CPython's `ast`: node kinds are the `ast`
// class names, and children are grouped by `ast` field names (Field).
//
// Storage: the file is cut into chunks, one per top-level statement (its
// leading trivia and trailing dedents included). Each chunk holds flat arrays
// of tokens and nodes whose offsets are relative to the chunk start, so the
// incremental reparser (Reparse.h) shares unchanged chunks between trees.
//
// `Node` is a cheap value handle (a tree pointer and two indices). It is valid
// as long as the SyntaxTree it came from lives. The tree and its nodes are
// immutable, so they may be read from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SYNTAX_SYNTAXTREE_H
#define TLC_SYNTAX_SYNTAXTREE_H

#include "tlc/Support/Diagnostic.h"
#include "tlc/Support/LineIndex.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace tlc {
namespace syntax {

/// The kind of a token. See SyntaxKinds.def for the list.
enum class TokenKind : uint8_t {
#define TOKEN(Name) Name,
#include "tlc/Syntax/SyntaxKinds.def"
};

/// The kind of a node: CPython `ast` class names plus Module, Error and
/// Placeholder. See SyntaxKinds.def.
enum class NodeKind : uint8_t {
#define NODE(Name) Name,
#include "tlc/Syntax/SyntaxKinds.def"
};

/// The CPython `ast` field a child sits in (and identifier-valued fields).
/// `None` is the field of the root and of children of Error nodes.
enum class Field : uint8_t {
  None,
#define FIELD(Name) Name,
#include "tlc/Syntax/SyntaxKinds.def"
};

/// Returns the enumerator name of `kind` ("Name", "KwDef", "LParen", ...).
llvm::StringRef getTokenKindName(TokenKind kind);
/// Returns the CPython `ast` class name of `kind` ("FunctionDef", ...).
llvm::StringRef getNodeKindName(NodeKind kind);
/// Returns the CPython field name of `field` ("body", ...); "" for None.
llvm::StringRef getFieldName(Field field);
/// The spelling of a keyword or punctuation token kind, "" for others.
llvm::StringRef getTokenSpelling(TokenKind kind);
/// True for tokens the parser skips: whitespace, comments, NL, `\`-newline.
bool isTrivia(TokenKind kind);
/// True for statement kinds (CPython `ast.stmt` subclasses).
bool isStatement(NodeKind kind);
/// True for expression kinds (CPython `ast.expr` subclasses).
bool isExpression(NodeKind kind);
/// True for pattern kinds (CPython `ast.pattern` subclasses).
bool isPattern(NodeKind kind);

/// Binary operators (BinOp.op and AugAssign.op), named like CPython's.
enum class BinaryOp : uint8_t {
  Add, Sub, Mult, MatMult, Div, Mod, Pow, LShift, RShift, BitOr, BitXor,
  BitAnd, FloorDiv
};
/// Unary operators (UnaryOp.op).
enum class UnaryOp : uint8_t { Invert, Not, UAdd, USub };
/// Boolean operators (BoolOp.op).
enum class BoolOp : uint8_t { And, Or };
/// Comparison operators (Compare.ops).
enum class CmpOp : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
/// Expression context (CPython's ctx field): Load unless the expression is an
/// assignment/for/with/del target (or part of one).
enum class ExprContext : uint8_t { Load, Store, Del };

/// Returns the CPython name of an operator ("Add", "USub", "And", "NotIn").
llvm::StringRef getOpName(BinaryOp op);
/// Returns the CPython name of an operator.
llvm::StringRef getOpName(UnaryOp op);
/// Returns the CPython name of an operator.
llvm::StringRef getOpName(BoolOp op);
/// Returns the CPython name of an operator.
llvm::StringRef getOpName(CmpOp op);

/// A token with its absolute byte range.
struct Token {
  /// What kind of token.
  TokenKind kind = TokenKind::EndOfFile;
  /// Absolute byte range in the tree's source.
  TextRange range;
};

/// The value of a Constant node, decoded from its token(s).
struct LiteralValue {
  /// Which kind of constant.
  enum class Kind : uint8_t {
    None, True, False, Ellipsis, Int, Float, Complex, Str, Bytes,
    /// Not a constant (the node is not a Constant).
    Invalid
  };
  /// The kind of constant.
  Kind kind = Kind::Invalid;
  /// Int: the value when it fits in int64 (check `overflow`).
  int64_t intValue = 0;
  /// Int: true when the literal does not fit in int64; `text` holds it.
  bool overflow = false;
  /// Float: the value; Complex: the imaginary part (real part is 0).
  double floatValue = 0;
  /// Str: the decoded UTF-8 text (escapes processed, implicitly
  /// concatenated literals joined); Bytes: the decoded bytes; Int: the
  /// literal's digits as written (underscores removed, base prefix kept).
  std::string text;
};

/// An identifier-valued field: its text and where it is.
struct Identifier {
  /// The identifier (empty when absent, e.g. `keyword.arg` of `**kw`).
  llvm::StringRef name;
  /// Where it is in the source; empty range when absent.
  TextRange range;
  /// True when the identifier is present.
  explicit operator bool() const { return !name.empty(); }
};

class SyntaxTree;
class ChildRange;

namespace detail {
struct Chunk;
struct RawNode;
} // namespace detail

/// A cheap, copyable handle to a node of a SyntaxTree; null by default.
/// Valid while its tree lives. All accessors on a null node return null/empty
/// values rather than crash.
class Node {
public:
  /// A null node.
  Node() = default;

  /// True for the null node.
  bool isNull() const { return tree == nullptr; }
  /// True for a non-null node.
  explicit operator bool() const { return tree != nullptr; }
  /// The node's kind (Module for the root; Error for the null node).
  NodeKind kind() const;
  /// Absolute byte range, from the first byte of the first significant token
  /// to the end of the last (as CPython's col_offset/end_col_offset); empty
  /// for nodes without tokens (e.g. `arguments` of `def f():`).
  TextRange range() const;
  /// The source text of range().
  llvm::StringRef text() const;
  /// The parent node (null for the root).
  Node parent() const;
  /// The field of the parent this node sits in (None for the root).
  Field field() const;
  /// The tree this node belongs to (null for the null node).
  const SyntaxTree *getTree() const { return tree; }

  /// The first child in `field`, or null (also null when CPython's value is
  /// None, e.g. a Dict key of `**d`).
  Node child(Field field) const;
  /// All children in `field`, in source order. Where CPython has a None in
  /// a list field (Dict.keys for `**d`, arguments.kw_defaults) a null Node
  /// stands in, so positions match the sibling list (Dict.values).
  ChildRange children(Field field) const;
  /// All children of every field, in source order (None placeholders are
  /// skipped).
  ChildRange children() const;

  /// The node's natural identifier: Name.id, Attribute.attr, arg.arg,
  /// keyword.arg (empty for `**kw`), FunctionDef/ClassDef/alias/TypeVar/
  /// ParamSpec/TypeVarTuple/ExceptHandler/MatchAs/MatchStar .name,
  /// ImportFrom.module, MatchMapping.rest; empty for other kinds.
  llvm::StringRef identifier() const { return getIdentifier().name; }
  /// The identifier of a given identifier-valued field: Field::name,
  /// Field::asname (alias), Field::module (ImportFrom), Field::attr,
  /// Field::id, Field::arg, Field::rest. TypeAlias.name gives the Name id.
  /// A dotted name (alias.name, ImportFrom.module) is the source text from
  /// its first to its last part ("os.path" unless written with spaces).
  /// `_` in MatchAs/MatchStar gives "" (CPython's None).
  llvm::StringRef identifier(Field field) const {
    return getIdentifier(field).name;
  }
  /// The identifier() with its source range.
  Identifier getIdentifier() const;
  /// The identifier(field) with its source range.
  Identifier getIdentifier(Field field) const;
  /// Identifier-list fields: Global.names, Nonlocal.names,
  /// MatchClass.kwd_attrs (Field::names / Field::kwd_attrs).
  llvm::SmallVector<Identifier, 4> identifiers(Field field) const;

  /// BinOp.op / AugAssign.op (Add for other kinds).
  BinaryOp op() const;
  /// UnaryOp.op (Invert for other kinds).
  UnaryOp unaryOp() const;
  /// BoolOp.op (And for other kinds).
  BoolOp boolOp() const;
  /// Compare.ops, one per comparator, in source order.
  llvm::SmallVector<CmpOp, 2> compareOps() const;
  /// The value of a Constant (also the literal parts of a JoinedStr);
  /// Kind::Invalid for other kinds.
  LiteralValue literal() const;
  /// FormattedValue.conversion: 's', 'r', 'a', or 0 for none.
  char conversion() const;
  /// FormattedValue: true for the `=` debug form (`f"{x=}"`).
  bool isDebugFormat() const;
  /// ImportFrom.level (number of leading dots); 0 for other kinds.
  unsigned importLevel() const;
  /// comprehension.is_async.
  bool isAsync() const;
  /// CPython's ctx of Name/Attribute/Subscript/Starred/List/Tuple.
  ExprContext context() const;

  /// The tokens of this node (first to last significant token, with the
  /// trivia between them), with absolute ranges.
  llvm::SmallVector<Token, 8> tokens() const;

  /// Handles compare by identity (same tree, same node).
  friend bool operator==(const Node &a, const Node &b) {
    return a.tree == b.tree && a.chunk == b.chunk && a.index == b.index;
  }
  /// Handles compare by identity.
  friend bool operator!=(const Node &a, const Node &b) { return !(a == b); }

private:
  friend class SyntaxTree;
  friend class ChildRange;
  Node(const SyntaxTree *tree, uint32_t chunk, uint32_t index)
      : tree(tree), chunk(chunk), index(index) {}
  const detail::RawNode *raw() const;
  uint32_t chunkBase() const;

  const SyntaxTree *tree = nullptr;
  /// Chunk index, or kRootChunk for the Module node.
  uint32_t chunk = 0;
  /// Node index inside the chunk.
  uint32_t index = 0;
};

/// A forward range of child nodes, optionally filtered by field.
class ChildRange {
public:
  /// Iterates over the children of one node.
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Node;
    using difference_type = std::ptrdiff_t;
    using pointer = const Node *;
    using reference = const Node &;

    /// The current child (null for a None placeholder).
    const Node &operator*() const { return current; }
    /// The current child.
    const Node *operator->() const { return &current; }
    /// Moves to the next matching child.
    iterator &operator++();
    /// Moves to the next matching child.
    iterator operator++(int) {
      iterator copy = *this;
      ++*this;
      return copy;
    }
    /// Iterators compare by position.
    friend bool operator==(const iterator &a, const iterator &b) {
      return a.tree == b.tree && a.chunk == b.chunk && a.index == b.index;
    }
    /// Iterators compare by position.
    friend bool operator!=(const iterator &a, const iterator &b) {
      return !(a == b);
    }

  private:
    friend class ChildRange;
    friend class Node;
    void settle();
    const SyntaxTree *tree = nullptr;
    uint32_t chunk = 0;
    uint32_t index = 0;
    bool inRoot = false;
    Field filter = Field::None;
    bool filtered = false;
    Node current;
  };

  /// First matching child.
  iterator begin() const { return first; }
  /// Past the last child.
  iterator end() const { return iterator(); }
  /// True when there is no matching child.
  bool empty() const { return begin() == end(); }
  /// Number of matching children (linear).
  size_t size() const;
  /// The matching children as a vector.
  llvm::SmallVector<Node, 4> toVector() const;

private:
  friend class Node;
  iterator first;
};

/// What walk() does after visiting a node.
enum class WalkResult : uint8_t {
  /// Visit the node's children, then continue.
  Advance,
  /// Skip the node's children, then continue.
  Skip,
  /// Stop the whole walk.
  Interrupt
};

/// Visits `node` and its descendants in pre-order (children in source
/// order, None placeholders skipped). Returns Interrupt when interrupted,
/// Advance otherwise. Iterative: deep trees do not overflow the stack.
WalkResult walk(Node node, llvm::function_ref<WalkResult(Node)> callback);

/// An immutable parsed Python file. Create with tlc::syntax::parse() or
/// reparse(); hold it through std::shared_ptr<const SyntaxTree>.
class SyntaxTree {
public:
  /// Chunk index used by the root (Module) node.
  static constexpr uint32_t kRootChunk = ~0u;

  ~SyntaxTree();
  SyntaxTree(const SyntaxTree &) = delete;
  SyntaxTree &operator=(const SyntaxTree &) = delete;

  /// The Module node; its `body` children are the top-level statements.
  Node root() const { return Node(this, kRootChunk, 0); }
  /// The source text (owned by the tree).
  llvm::StringRef source() const { return text; }
  /// The file name given to parse() (used in printed diagnostics).
  llvm::StringRef fileName() const { return name; }
  /// All diagnostics, sorted by position, with absolute ranges.
  llvm::ArrayRef<Diagnostic> diagnostics() const { return diags; }
  /// True when some diagnostic is an error.
  bool hasErrors() const;
  /// Line/column mapping of source().
  const LineIndex &lines() const { return lineIndex; }
  /// Concatenates the text of every token. Always equal to source(); this
  /// is what the lossless-ness tests check.
  std::string print() const;

  /// Every token of the file in order, trivia included, with absolute
  /// ranges. The ranges are contiguous and cover source() exactly.
  std::vector<Token> tokens() const;
  /// The innermost node whose range contains `offset` (the root if none).
  Node findNode(uint32_t offset) const;
  /// A full textual dump of tokens, nodes (kind, field, range, identifier,
  /// operator) and diagnostics, for tests and debugging. Two trees of the
  /// same text dump identically however they were built.
  std::string dump() const;

  /// Number of chunks (top-level statements plus a final trailing chunk).
  size_t getNumChunks() const { return chunks.size(); }
  /// Number of chunks of this tree that are the very same objects as
  /// chunks of `other` (structural sharing after reparse()).
  size_t countSharedChunks(const SyntaxTree &other) const;

private:
  friend class Node;
  friend class ChildRange;
  friend struct detail::Chunk;
  friend class TreeBuilder;
  SyntaxTree();
  const detail::Chunk &getChunk(uint32_t i) const { return *chunks[i]; }

  std::string text;
  std::string name;
  std::vector<std::shared_ptr<const detail::Chunk>> chunks;
  /// Absolute byte offset where each chunk starts.
  std::vector<uint32_t> chunkOffsets;
  std::vector<Diagnostic> diags;
  LineIndex lineIndex;
};

} // namespace syntax
} // namespace tlc

#endif // TLC_SYNTAX_SYNTAXTREE_H
