//===- Analysis.h - Per-instance facts behind editor features ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The seam between the language server and the compiler's semantic layers.
// An Analyzer turns a syntax tree into AnalysisFacts: for every kernel and
// every instance of it, the buffers (shape, dtype, scope, layout), kernel
// launches and pipelined loops, plus diagnostics. These are the same facts
// that `tlc-build --emit=hints --format=json` prints: the one analyzer is
// backed by the evaluator (tlc::eval::analyzeFile), so the editor and the
// command line can never disagree. Positions are byte ranges into the
// analysed text; features convert them to editor positions.
//
// Analyzers must be safe to call concurrently on different trees.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_ANALYSIS_H
#define TLC_LSP_ANALYSIS_H

#include "Types.h"

#include "tlc/Driver/LayoutViews.h"
#include "tlc/Support/Diagnostic.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace syntax {
class SyntaxTree;
} // namespace syntax

namespace lsp {

/// A tensor parameter or an allocated buffer of one instance.
struct BufferFact {
  /// The variable name.
  std::string name;
  /// The name where it is defined (parameter or assignment target).
  TextRange nameRange;
  /// Byte offset where an inlay hint goes (after the annotation or the
  /// allocating statement).
  uint32_t hintOffset = 0;
  /// True for a kernel parameter (a `T.Tensor` argument).
  bool isParameter = false;
  /// Shape as text, symbolic where unknown: `[128, 32]`, `[block_M, K]`.
  std::string shape;
  /// Short dtype name (`f16`), or the source text when unknown.
  std::string dtype;
  /// Display scope (`global`, `shared`, `fragment`, `local`, `var`).
  std::string scope;
  /// The exact scope string (`shared.dyn`).
  std::string scopeString;
  /// Inferred layout, short form (`swizzle 128B`); empty when unknown.
  std::string layout;
  /// Inferred layout, long form (Markdown table); empty when unknown.
  std::string layoutDetail;
  /// Size in bytes when the shape is fully known.
  std::optional<int64_t> bytes;
};

/// A `T.Kernel` launch of one instance.
struct LaunchFact {
  /// The `with` statement's header range (`with T.Kernel(...) as ...`).
  TextRange range;
  /// Byte offset where the hint goes (end of the header line).
  uint32_t hintOffset = 0;
  /// Grid extents as text (`8`, `M // 128`).
  std::vector<std::string> grid;
  /// Threads per block as text (`128`).
  std::string threads;
  /// Static shared memory in bytes when known.
  std::optional<int64_t> sharedBytes;
};

/// A `T.Pipelined` loop of one instance.
struct PipelineFact {
  /// The loop header range.
  TextRange range;
  /// Byte offset where the hint goes.
  uint32_t hintOffset = 0;
  /// Number of stages (`num_stages`; 0 means not software-pipelined);
  /// std::nullopt when unknown.
  std::optional<int64_t> stages;
  /// Copy mechanism (`cp.async`, `TMA`); empty when unknown.
  std::string mechanism;
};

/// A fragment exchange of the generated code at a statement.
struct ExchangeFact {
  /// The statement's range.
  TextRange range;
  /// Byte offset where the hint goes.
  uint32_t hintOffset = 0;
  /// The inlay label (`C_local via shared · stores 8-way, loads 4-way`).
  std::string label;
  /// The full text (the diagnostic's message).
  std::string detail;
  /// The exchanged fragment's name.
  std::string name;
  /// The tile: the fragment's shape (row-major), bytes per element, its
  /// byte offset in shared memory (LDS on HIP); empty shape when unknown.
  std::vector<int64_t> shape;
  int64_t elementBytes = 0, offset = 0;
  bool lds = false;
  /// Worst bank-conflict degree of the stores and the loads (0: unknown).
  int64_t storeDegree = 0, loadDegree = 0;
  /// The element each lane accesses in the worst store and load
  /// instruction (-1: idle); empty when unknown.
  std::vector<int64_t> storeLanes, loadLanes;
};

/// One instance of a kernel: the kernel with bound meta parameters.
struct InstanceFact {
  /// How the instance is labelled (`M=1024, N=1024` or `symbolic`).
  std::string label;
  /// Buffers and tensor parameters, in source order.
  std::vector<BufferFact> buffers;
  /// Kernel launches, in source order.
  std::vector<LaunchFact> launches;
  /// Pipelined loops, in source order.
  std::vector<PipelineFact> pipelines;
  /// Fragment exchanges, in source order.
  std::vector<ExchangeFact> exchanges;
};

/// A kernel (a `@T.prim_func`, `@T.macro` or `@tilelang.jit` function).
struct KernelFact {
  /// The function name.
  std::string name;
  /// The name's range in the `def`.
  TextRange nameRange;
  /// The whole function.
  TextRange range;
  /// The decorator that makes it a kernel (`T.prim_func`, `tilelang.jit`).
  std::string decorator;
  /// Its instances; at least one.
  std::vector<InstanceFact> instances;
};

/// Everything an analyzer found in one file.
struct AnalysisFacts {
  /// Kernels in source order (nested prim_funcs after their factory).
  std::vector<KernelFact> kernels;
  /// Diagnostics of the semantic layers (not the parser's).
  std::vector<Diagnostic> diagnostics;
  /// Name of the component (`tlc-eval`), used as the diagnostics' source.
  std::string source;
  /// True when the file was not evaluated (too large); `diagnostics` then
  /// holds one informational diagnostic saying so and there are no kernels.
  bool skipped = false;
  /// The layout of every fragment and shared buffer of every instance, as
  /// the configured target's code stores it (tilelang/layout, hovers,
  /// code lenses); maps are built on request.
  std::vector<driver::LayoutView> layouts;
  /// Kernel instances whose layouts this analysis inferred.
  unsigned layoutsInferred = 0;
  /// Kernel instances whose layouts came unchanged from an earlier analysis
  /// (their Tile IR was equal, see driver::LayoutCache, or their slice was
  /// kept).
  unsigned layoutsReused = 0;
  /// Top-level slices (eval::sliceTopLevel) evaluated by this analysis, and
  /// those whose results were kept from an earlier one.
  unsigned slicesEvaluated = 0, slicesReused = 0;
  /// Why the file was evaluated whole (empty: slice by slice).
  std::string wholeFileReason;
  /// True when only the slices AnalysisOptions::visible needs were
  /// evaluated: the facts located inside that range are those of a
  /// complete analysis; kernels, hints and diagnostics elsewhere are
  /// missing.
  bool partial = false;
};

/// Options that change analysis results.
struct AnalysisOptions {
  /// Code generation target (`cuda:sm_90a`, ...).
  std::string target;
  /// When set, analyse only what the facts located inside this byte range
  /// need (the editor's visible lines; AnalysisFacts::partial).
  std::optional<TextRange> visible;
};

/// Computes AnalysisFacts for a syntax tree. Implementations must be
/// thread-safe (called concurrently for different documents) and must never
/// fail: unknown constructs yield fewer facts, not errors.
class Analyzer {
public:
  virtual ~Analyzer();
  /// Short name for logs (`eval`).
  virtual const char *getName() const = 0;
  /// Analyses `tree`. Should poll `token` at coarse boundaries and return
  /// early (any result) once it is cancelled.
  virtual std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &options, const CancelToken &token) = 0;
};

/// Files larger than this are not evaluated: evaluating one takes long even
/// though every newer edit cancels it (EvalOptions::cancelled), and its hints
/// would be of little use. Such files get parser diagnostics and one
/// informational diagnostic.
constexpr size_t kMaxAnalyzedBytes = 2u << 20;

/// The analyzer backed by the evaluator (EvalAnalyzer.cpp). With
/// \p incremental, an analysis re-evaluates only the top-level slices an
/// edit changed (IncrementalEval.h); without, every analysis evaluates the
/// whole file (the reference the tests compare with).
std::unique_ptr<Analyzer> createDefaultAnalyzer(bool incremental = true);

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_ANALYSIS_H
