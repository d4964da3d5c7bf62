//===- Features.h - Editor features over one document version ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The features as pure functions of a Document snapshot (and its analysis
// facts): no threads, no JSON. TlcServer runs them on the document's worker;
// unit tests call them directly. Each function lives in the file named
// after the feature (Hover.cpp, Definition.cpp, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_FEATURES_H
#define TLC_LSP_FEATURES_H

#include "Analysis.h"
#include "Document.h"
#include "Types.h"

#include "tlc/Support/LruCache.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace lsp {

//===----------------------------------------------------------------------===//
// TileLang names (TileLangNames.cpp)
//===----------------------------------------------------------------------===//

/// Resolves the module-level import aliases of a file to the qualified
/// spellings of the builtin registry: `T` -> `T` for
/// `import tilelang.language as T`, `tilelang` -> `tilelang`,
/// `copy` -> `T.copy` for `from tilelang.language import copy`.
class TileLangNames {
public:
  /// The aliases one top-level statement binds, in order.
  using AliasList = std::vector<std::pair<std::string, std::string>>;
  /// AliasLists by statement text (thread-safe, bounded).
  using AliasCache = LruCache<AliasList>;
  /// Collects the imports of `tree`'s module body; with `cache`, walks only
  /// the top-level statements whose text it has not seen (same result).
  explicit TileLangNames(const syntax::SyntaxTree &tree,
                         AliasCache *cache = nullptr);

  /// The qualified name of a Name/Attribute chain rooted at an alias
  /// (`T.copy`, `T.GemmWarpPolicy.FullRow`, `tilelang.jit`), or "".
  std::string qualify(syntax::Node expr) const;
  /// The qualified name of a decorator (`T.prim_func` for `@T.prim_func`
  /// and `@T.prim_func(...)`), or "".
  std::string qualifyDecorator(syntax::Node decorator) const;
  /// The kernel decorator of a function (`T.prim_func`, `T.macro`,
  /// `tilelang.jit`, `tilelang.autotune`), or "".
  std::string getKernelDecorator(syntax::Node functionDef) const;

private:
  std::map<std::string, std::string> aliases;
};

/// The innermost node whose range contains `offset`, counting decorators
/// as part of their function or class (SyntaxTree::findNode does not).
syntax::Node findNodeAt(const syntax::SyntaxTree &tree, uint32_t offset);

/// True for FunctionDef and AsyncFunctionDef.
bool isFunction(syntax::Node node);

//===----------------------------------------------------------------------===//
// Features
//===----------------------------------------------------------------------===//

/// Parser diagnostics plus the analysis diagnostics, converted to editor
/// ranges (Diagnostics.cpp).
std::vector<Diag> computeDiagnostics(const Document &doc,
                                     const AnalysisFacts *facts);

/// Hover at byte `offset`: a `T.*` builtin's signature and documentation,
/// the threads or banks a slice of a buffer covers, or a buffer's facts
/// (Hover.cpp).
std::optional<HoverInfo> computeHover(const Document &doc, uint32_t offset,
                                      const AnalysisFacts *facts,
                                      const std::function<unsigned(
                                          const std::string &)> &pick);

/// Where the name at byte `offset` is bound: parameters, assignments,
/// loop/with targets, defs, classes and imports, following Python's scoping
/// (Definition.cpp). Returns the binding's byte range, if any.
std::optional<TextRange> findDefinition(const syntax::SyntaxTree &tree,
                                        uint32_t offset);

/// The outline: classes, functions (kernels marked), buffers
/// (Symbols.cpp).
std::vector<DocumentSymbol> computeDocumentSymbols(const Document &doc,
                                                   const AnalysisFacts *facts);

/// The legend of token types, in TokenType order (SemanticTokens.cpp).
std::vector<std::string> getSemanticTokenTypes();
/// The legend of token modifiers, in bit order (SemanticTokens.cpp).
std::vector<std::string> getSemanticTokenModifiers();
/// Semantic tokens, sorted, one per line segment (SemanticTokens.cpp).
std::vector<SemanticToken> computeSemanticTokens(const Document &doc);

/// Every inlay hint of the picked instance of each kernel, in source order,
/// honouring the categories of `config` (InlayHints.cpp). `pick` returns
/// the instance index for a kernel name.
std::vector<InlayHint>
computeInlayHints(const Document &doc, const AnalysisFacts &facts,
                  const Config &config,
                  const std::function<unsigned(const std::string &)> &pick);

/// Code lenses per kernel: show generated code, show Tile IR, pick the
/// instance (InlayHints.cpp: built from the same facts).
std::vector<CodeLens>
computeCodeLenses(const Document &doc, const AnalysisFacts &facts,
                  const Config &config,
                  const std::function<unsigned(const std::string &)> &pick);

/// The layout picture of one buffer (LayoutPicture.cpp): the one named
/// `buffer` when given, else the one allocated or named at `offset`;
/// `instance` indexes its instances (default: the kernel's picked one).
Result<LayoutPicture>
computeLayoutPicture(const Document &doc, const AnalysisFacts &facts,
                     std::optional<uint32_t> offset, const std::string &buffer,
                     std::optional<unsigned> instance, const Config &config,
                     const std::function<unsigned(const std::string &)> &pick);

/// A `Show layout` lens on each allocation with a layout
/// (LayoutPicture.cpp); appended to computeCodeLenses().
void appendLayoutLenses(const Document &doc, const AnalysisFacts &facts,
                        std::vector<CodeLens> &lenses);

/// Markdown for the slice of a fragment or shared buffer written at byte
/// \p offset (`acc[0:8, 8:16]`): which threads and registers hold it, or
/// which bytes and banks it lies in, in the layout of the instance \p pick
/// chooses, and the part of the layout's text grid it covers; "" when no
/// slice with a layout is there (LayoutPicture.cpp).
std::string sliceHoverText(const Document &doc, const AnalysisFacts &facts,
                           uint32_t offset,
                           const std::function<unsigned(const std::string &)> &pick,
                           TextRange &range);

/// The layout's text grid for a buffer's hover, or "" (LayoutPicture.cpp).
std::string layoutHoverText(const AnalysisFacts &facts, const KernelFact &kernel,
                            unsigned instance, const std::string &name);

/// Formats a byte count as `48 KiB` / `512 B`.
std::string formatBytes(int64_t bytes);

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_FEATURES_H
