//===- Types.h - Plain data of the tlc language server API ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The vocabulary of the server API (TlcServer): positions, ranges, and the
// results of each feature as plain structs. Nothing here knows JSON or the
// wire protocol; the protocol layer (LSPServer) converts these to and from
// LSP messages. Positions are zero-based lines and columns counted in the
// position encoding negotiated at initialisation (UTF-8 bytes or UTF-16 code
// units).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_TYPES_H
#define TLC_LSP_TYPES_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tlc {
namespace lsp {

/// How columns of positions are counted.
enum class PositionEncoding : uint8_t {
  /// UTF-16 code units (the LSP default).
  Utf16,
  /// UTF-8 bytes.
  Utf8,
};

/// A zero-based (line, column) position in the negotiated encoding.
struct Position {
  /// Zero-based line.
  uint32_t line = 0;
  /// Zero-based column in the negotiated encoding.
  uint32_t character = 0;

  /// Positions compare by value.
  friend bool operator==(const Position &a, const Position &b) {
    return a.line == b.line && a.character == b.character;
  }
  /// Positions order by line, then column.
  friend bool operator<(const Position &a, const Position &b) {
    return a.line != b.line ? a.line < b.line : a.character < b.character;
  }
};

/// A half-open range of positions.
struct Range {
  /// First position.
  Position start;
  /// One past the last position.
  Position end;
};

/// A range in some document.
struct Location {
  /// The document URI.
  std::string uri;
  /// The range inside it.
  Range range;
};

/// One content change of `didChange`: a replacement of `range` (or of the
/// whole text when `range` is absent) by `text`.
struct ContentChange {
  /// The replaced range; absent for a full-text change.
  std::optional<Range> range;
  /// The new text.
  std::string text;
};

/// Diagnostic severities in LSP order.
enum class DiagSeverity : uint8_t { Error = 1, Warning, Information, Hint };

/// A secondary location of a diagnostic.
struct DiagRelated {
  /// Where the note points.
  Location location;
  /// The note's message.
  std::string message;
};

/// One published diagnostic.
struct Diag {
  /// Where the problem is.
  Range range;
  /// How serious it is.
  DiagSeverity severity = DiagSeverity::Error;
  /// The component that reported it: `tlc-syntax`, `tlc-eval`, ...
  std::string source;
  /// The message.
  std::string message;
  /// Related locations ("note: ...").
  std::vector<DiagRelated> related;
};

/// Categories of inlay hints; each can be switched off.
struct InlayHintCategories {
  /// Tensor parameters and allocated buffers (shape, dtype, scope).
  bool buffers = true;
  /// Layouts appended to buffer hints.
  bool layouts = true;
  /// `T.Kernel` launch geometry.
  bool launches = true;
  /// `T.Pipelined` stages.
  bool pipelines = true;
};

/// User configuration (initializationOptions and workspace/configuration).
struct Config {
  /// Code generation target (`cuda:sm_90a`, `cuda:sm_80`, `hip:gfx942`,
  /// `cpu`).
  std::string target = "cuda:sm_90a";
  /// Instance index per kernel is picked by this index (0 = first).
  unsigned instance = 0;
  /// Inlay hint categories.
  InlayHintCategories inlayHints;
  /// Whether semantic tokens are offered.
  bool semanticTokens = false;
};

/// Kinds of inlay hints.
enum class HintKind : uint8_t {
  /// A buffer or tensor (shape, dtype, scope).
  Buffer,
  /// Launch geometry of a `T.Kernel`.
  Launch,
  /// Stages of a `T.Pipelined` loop.
  Pipeline,
  /// A fragment exchange through shared memory (LDS) and its bank
  /// conflicts.
  Exchange,
};

/// One inlay hint.
struct InlayHint {
  /// Where the label is shown.
  Position position;
  /// The short label (`shared f16[128, 32]`).
  std::string label;
  /// Which category the hint belongs to.
  HintKind kind = HintKind::Buffer;
  /// Long text shown as a tooltip after resolve (layout table); may be
  /// empty.
  std::string tooltip;
  /// Data that lets resolve find the hint again: the document version and
  /// the hint's index in the document's hint list.
  int64_t version = 0;
  /// Index of the hint in the full hint list of that version.
  uint32_t index = 0;
};

/// Hover content, Markdown.
struct HoverInfo {
  /// Markdown text.
  std::string markdown;
  /// The range the hover is about.
  std::optional<Range> range;
};

/// Symbol kinds used by document symbols (the LSP numbering).
enum class SymbolKind : uint8_t {
  Module = 2,
  Class = 5,
  Function = 12,
  Variable = 13,
  Constant = 14,
};

/// A document symbol tree node.
struct DocumentSymbol {
  /// Name shown in the outline.
  std::string name;
  /// Extra detail (`kernel`, `shared f16[128, 32]`).
  std::string detail;
  /// Kind of symbol.
  SymbolKind kind = SymbolKind::Function;
  /// Whole extent of the symbol.
  Range range;
  /// The name's range (inside `range`).
  Range selectionRange;
  /// Nested symbols.
  std::vector<DocumentSymbol> children;
};

/// The semantic token types this server produces (the legend order).
enum class TokenType : uint8_t {
  Namespace,
  Function,
  Parameter,
  Variable,
  Type,
  Decorator,
};

/// Semantic token modifiers (bit positions in the legend order).
enum TokenModifier : uint32_t {
  ModDeclaration = 1u << 0,
  ModDefaultLibrary = 1u << 1,
  ModReadonly = 1u << 2,
};

/// One semantic token with an absolute position; tokens never span lines.
struct SemanticToken {
  /// Zero-based line.
  uint32_t line = 0;
  /// Start column in the negotiated encoding.
  uint32_t start = 0;
  /// Length in the negotiated encoding.
  uint32_t length = 0;
  /// Token type.
  TokenType type = TokenType::Variable;
  /// Bitset of TokenModifier.
  uint32_t modifiers = 0;
};

/// A command attached to a code lens or sent to executeCommand.
struct Command {
  /// Title shown to the user.
  std::string title;
  /// Command identifier (`tilelang.showGenerated`, ...).
  std::string command;
  /// Arguments: a URI, a kernel name, a target.
  std::vector<std::string> arguments;
};

/// A code lens over a kernel.
struct CodeLens {
  /// The range the lens is shown for.
  Range range;
  /// What it does.
  Command command;
};

/// Result of `tilelang/layout`: one buffer's layout picture and cell map.
struct LayoutPicture {
  /// The buffer, its kernel and the instance shown.
  std::string name, kernel, instance;
  /// Index of the instance among the buffer's instances, and their labels.
  unsigned instanceIndex = 0;
  std::vector<std::string> instances;
  /// The allocation statement.
  Range range;
  /// The target whose code the layout is (the configured one).
  std::string target;
  /// `fragment` or `shared`, the title and the 2-d view's extents.
  std::string kind, title;
  int64_t rows = 0, cols = 0;
  /// Per cell, row-major: fragments' thread and register; shared buffers'
  /// element offset and bank.
  std::vector<int64_t> thread, reg, offset, bank;
  /// The picture (SVG document) and the text grid.
  std::string svg, text;
  /// A fragment exchange of the shown instance through shared memory (LDS
  /// on HIP): the row-major tile the generated code stores the fragment
  /// into, with the banks its worst store and load instructions use.
  struct ExchangeTile {
    /// The statement that exchanges, and its inlay label.
    Range statement;
    std::string label;
    /// `shared` or `LDS`.
    std::string memory;
    /// Byte offset of the tile, bytes per element, the 2-d view's extents.
    int64_t offset = 0, elementBytes = 0, rows = 0, cols = 0;
    /// Per cell, row-major: the bank of the element's first byte.
    std::vector<int64_t> bank;
    /// One instruction: its degree, the element each lane accesses (-1:
    /// idle) and, per bank, the distinct 4-byte words it accesses there.
    struct Access {
      int64_t degree = 0;
      std::vector<int64_t> lanes, wordsPerBank;
    };
    Access stores, loads;
  };
  std::vector<ExchangeTile> exchanges;
};

/// Result of `tilelang/generatedSource`.
struct GeneratedSource {
  /// URI of the generated file (a cache file).
  std::string uri;
  /// Language id of the generated file (`cpp`, `cuda`, `mlir` for Tile
  /// IR).
  std::string language;
  /// Range generated from the statement at the requested position.
  Range range;
};

/// Why a request failed (mapped to protocol error codes by LSPServer).
enum class FailureKind : uint8_t {
  /// The request was cancelled (`$/cancelRequest`).
  Cancelled,
  /// The parameters name something that does not exist (e.g. a document
  /// that is not open).
  InvalidParams,
  /// The document changed so that the request no longer makes sense.
  ContentModified,
  /// The request is valid but cannot be fulfilled.
  Failed,
};

/// A failure with a message.
struct Failure {
  /// Category.
  FailureKind kind = FailureKind::Failed;
  /// Human-readable explanation.
  std::string message;
};

/// Either a value or a Failure.
template <typename T> class Result {
public:
  /// A successful result.
  Result(T value) : value(std::move(value)) {}
  /// A failed result.
  Result(Failure failure) : failure(std::move(failure)) {}
  /// True on success.
  explicit operator bool() const { return value.has_value(); }
  /// The value (success only).
  T &operator*() { return *value; }
  /// The value (success only).
  const T &operator*() const { return *value; }
  /// The value (success only).
  T *operator->() { return &*value; }
  /// The failure (failure only).
  const Failure &getFailure() const { return failure; }

private:
  std::optional<T> value;
  Failure failure;
};

/// Receives the result of an asynchronous server call. May be called on any
/// thread, exactly once.
template <typename T> using Callback = std::function<void(Result<T>)>;

/// A cancellation flag shared by the protocol layer (which sets it on
/// `$/cancelRequest`) and the work item (which polls it). Thread-safe.
class CancelToken {
public:
  /// A token that is never cancelled.
  CancelToken() = default;
  /// Creates a fresh, cancellable token.
  static CancelToken create() {
    CancelToken token;
    token.flag = std::make_shared<std::atomic<bool>>(false);
    return token;
  }
  /// Requests cancellation.
  void cancel() const {
    if (flag)
      flag->store(true, std::memory_order_relaxed);
  }
  /// True once cancel() has been called.
  bool isCancelled() const {
    return flag && flag->load(std::memory_order_relaxed);
  }

private:
  std::shared_ptr<std::atomic<bool>> flag;
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_TYPES_H
