//===- GeneratedSource.h - Generated code of a kernel instance --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Jump to generated source (`tilelang/generatedSource`,
// `tilelang/originalSource`, the Show C++/CUDA/Tile IR lenses). For one
// kernel instance of a document this runs the compiler in-process (the
// evaluator, then the CPU C++ or CUDA emitter, or the Tile IR printer),
// writes the result into a cache directory so that any editor can open it,
// and keeps the source map: generated line <-> DSL range.
//
// Thread-safety: generateSource() builds its own MLIRContext and may run on
// any worker; GeneratedFileRegistry is internally locked.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_GENERATEDSOURCE_H
#define TLC_LSP_GENERATEDSOURCE_H

#include "Analysis.h"
#include "Document.h"
#include "Types.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace lsp {

/// What code a generated document holds.
enum class GeneratedKind : uint8_t {
  /// C++ of the CPU reference target (`cpu`).
  Cpp,
  /// CUDA C++ (`cuda`, `cuda:sm_80`, `cuda:sm_90a`).
  Cuda,
  /// HIP C++ for AMD CDNA (`hip`, `hip:gfx90a`, `hip:gfx942`), the same
  /// printer in HIP mode.
  Hip,
  /// The instance's Tile IR (`tile`).
  TileIR,
};

/// Parses a `target` of generatedSource. Fails with a message naming the
/// target and the supported ones.
Result<GeneratedKind> parseGeneratedTarget(llvm::StringRef target);

/// One generated line and the DSL statement it comes from.
struct MappedLine {
  /// Zero-based line of the generated file.
  uint32_t line = 0;
  /// Byte range of the DSL statement in the analysed document.
  TextRange dsl;
  /// The same range in editor positions of the document.
  Range dslRange;
  /// Byte range of the innermost DSL statement containing `dsl`.
  TextRange statement;
  /// That statement in editor positions; only its header for a compound
  /// statement (`for ...:`, `with ...:`). What originalSource answers.
  Range statementRange;
};

/// A generated file written to the cache directory.
struct GeneratedFile {
  /// Absolute path of the file.
  std::string path;
  /// Its `file://` URI.
  std::string uri;
  /// Language id (`cpp`, `cuda`, `mlir`).
  std::string language;
  /// The DSL document it was generated from, and that document's version.
  std::string dslUri;
  /// The version of the DSL document.
  int64_t dslVersion = 0;
  /// The generated text.
  std::string text;
  /// Mapped lines, sorted by generated line.
  std::vector<MappedLine> lines;
};

/// Compiles instance `instance` of `kernel` of `doc` for `kind` (`target`
/// names the evaluator's target profile) and writes the result under
/// `cacheDir`. Fails with the compiler's message when the instance cannot
/// be generated.
Result<GeneratedFile> generateSource(const Document &doc,
                                     const KernelFact &kernel,
                                     unsigned instance, GeneratedKind kind,
                                     llvm::StringRef target,
                                     llvm::StringRef cacheDir);

/// The statements containing byte `offset` of `tree`, innermost first
/// (decorators count as part of their function).
std::vector<TextRange> getStatementsAt(const syntax::SyntaxTree &tree,
                                       uint32_t offset);

/// The generated range of the DSL statement at byte `offset`, whose
/// enclosing statements are `statements` (innermost first): the lines
/// generated from the innermost of them that generated any (with the
/// statements nested in it: a loop includes its body), else from the first
/// statement after `offset`; the first line when nothing maps.
Range findGeneratedRange(const GeneratedFile &file, uint32_t offset,
                         const std::vector<TextRange> &statements,
                         PositionEncoding encoding);

/// The DSL statement generated line `line` comes from (of the nearest
/// mapped line at or above it); std::nullopt when none.
std::optional<Range> findOriginalRange(const GeneratedFile &file,
                                       uint32_t line);

/// The default cache directory: $TLC_LSP_CACHE_DIR, else
/// $XDG_CACHE_HOME/tlc/lsp (or ~/.cache/tlc/lsp), else /tmp/tlc-lsp-<uid>.
std::string getDefaultCacheDir();

/// The generated files this server wrote, by URI (most recent kept).
class GeneratedFileRegistry {
public:
  /// Remembers `file`, replacing an older file with the same URI.
  void add(GeneratedFile file);
  /// The file with `uri`, if known.
  std::optional<GeneratedFile> find(const std::string &uri) const;

private:
  /// Files kept at most; the oldest is forgotten first.
  static constexpr size_t kMaxFiles = 64;
  mutable std::mutex mutex;
  std::list<GeneratedFile> files;
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_GENERATEDSOURCE_H
