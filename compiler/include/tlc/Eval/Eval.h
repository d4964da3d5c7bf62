//===- Eval.h - Staged evaluation of TileLang programs ----------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The entry point of the Eval library: run the staged interpreter over one
// parsed file, find every kernel instance, trace each into the `tile`
// dialect and check it. The result holds diagnostics, editor hints and the
// Tile IR module.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_EVAL_EVAL_H
#define TLC_EVAL_EVAL_H

#include "tlc/Eval/BuildConfigs.h"
#include "tlc/Lang/Device.h"
#include "tlc/Support/Diagnostic.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tlc::eval {

struct FileNames;

/// A compilation target profile: the facts checks need.
struct TargetInfo {
  /// As given on the command line: `cuda:sm_90a`, `hip:gfx90a`, `cpu`.
  std::string name = "cuda:sm_90a";
  /// Shared memory (LDS) bytes one block may use.
  int64_t sharedMemoryBytes = 227 * 1024;
  /// Threads per warp (64 for an AMD wavefront); 1 on the CPU target.
  int64_t warpSize = 32;
  /// Maximum threads per block.
  int64_t maxThreads = 1024;
  /// The device programs query at trace time (SM count, properties); the
  /// target's default part unless --device picks another. For `cpu`, the
  /// part of `cuda:sm_90a` (the CPU target is the reference GPU runs are
  /// verified against, so it traces the same instance); only the device
  /// queries read it there, the budgets stay the CPU's.
  const lang::DeviceInfo *device = nullptr;

  /// Parses a --target value; std::nullopt if unknown.
  static std::optional<TargetInfo> parse(llvm::StringRef spec);
  /// Selects the device called \p name; false if unknown or of another
  /// platform than the target.
  bool selectDevice(llvm::StringRef name);
};

/// Options of one evaluation.
struct EvalOptions {
  /// Target profile used for budgets and warp size.
  TargetInfo target;
  /// True when the target was chosen by the user (`--target`): it then
  /// wins over the target a file asks for (`@tilelang.jit(target=...)`).
  bool targetExplicit = false;
  /// `-D name=value` bindings (value is Python literal text).
  llvm::SmallVector<std::pair<std::string, std::string>, 4> defines;
  /// The program's environment variables (`tlc-build --environ
  /// NAME=VALUE`; the Python package passes those its script reads that
  /// are set in its process): `os.environ.get(NAME, ...)` and
  /// `os.getenv(NAME, ...)` give VALUE. Any other name is unset, so such
  /// a call gives its default (the editor and `--check` set none).
  llvm::SmallVector<std::pair<std::string, std::string>, 0> environ;
  /// Only analyse kernels with this name (empty: all).
  std::string kernelFilter;
  /// Maximum traced instances per kernel.
  unsigned maxInstancesPerKernel = 8;
  /// Interpreter steps (statements + calls) for the whole file.
  uint64_t stepBudget = 4'000'000;
  /// Seconds of interpretation for the whole file (steps that each do much
  /// work: sorting long lists in a loop), on the evaluating thread's CPU
  /// clock (tlc::threadCpuSeconds): a loaded machine analyses as much of a
  /// file as an idle one.
  double timeBudgetSeconds = 10;
  /// Bytes of Python objects (Heap::getBytesAllocated) for the whole file.
  uint64_t memoryBudgetBytes = uint64_t(1) << 30;
  /// Polled every kCancelPollSteps interpreter steps: once it returns true,
  /// evaluation stops as when the step budget is spent (the editor's
  /// superseded analyses). Must be thread-safe; empty: never cancelled.
  std::function<bool()> cancelled;
  /// Steps between two checks of the time and memory budgets and polls of
  /// `cancelled`.
  static constexpr uint64_t kCancelPollSteps = 1024;
  /// Maximum Python call depth.
  unsigned maxCallDepth = 200;
  /// Execute `if __name__ == "__main__":` blocks to find call sites.
  bool runMain = true;
  /// Which entry of `@tilelang.autotune(configs=[...])` completes the
  /// parameters a call leaves to the tuner (`tlc-build --autotune` builds
  /// each in turn); a kernel with fewer configurations gets no instance.
  unsigned autotuneConfig = 0;
  /// Every instance uses fast math, as TL_ENABLE_FAST_MATH in a kernel's
  /// pass_configs does (`tlc-build --fast-math`: the Python package's
  /// pass_configs, which the source does not show).
  bool fastMath = false;
  /// Pass configs and device-compiler flags for every instance, over what
  /// the source gives (`tlc-build --pass-config`, `--compile-flag`: the
  /// Python package's `pass_configs=` / `compile_flags=`).
  BuildConfigs build;
  /// Instantiate `@tilelang.jit` kernels at their call sites in the module.
  /// When false, each kernel gets one instance made from the `-D`
  /// bindings alone (tlc-build --defines-only, what the Python package
  /// uses: the call it compiles is not in the file).
  bool callSites = true;
  /// When not empty: run only these top-level statements (indices into
  /// the module body, ascending), a slice from sliceTopLevel (Slices.h).
  /// Everything else behaves as when evaluating the whole file.
  std::vector<unsigned> statements;
  /// The file's name facts when already computed (FileSlices::names);
  /// null: computed by the evaluation.
  std::shared_ptr<const FileNames> fileNames;
};

/// One editor/CI hint: a tensor parameter, a buffer, a launch or a
/// pipelined loop of one kernel instance.
struct Hint {
  /// Byte range of the declaration.
  TextRange range;
  /// The kernel (jit function or prim_func name).
  std::string kernel;
  /// The instance label (`matmul(M=1024, N=1024, K=1024)`).
  std::string instance;
  /// The variable name (empty for launches and loops).
  std::string name;
  /// `tensor`, `buffer`, `kernel` or `pipeline`.
  std::string kind;
  /// Dimensions: integers or symbolic texts (for `kernel`: the grid).
  std::vector<std::string> shape;
  /// For each dimension of `shape`, true when it is an integer.
  std::vector<bool> shapeIsInt;
  /// Canonical dtype name (`float16`); empty for launches and loops.
  std::string dtype;
  /// Scope string (`shared.dyn`); empty for launches and loops.
  std::string scope;
  /// Extra facts: threads for a launch, stages for a pipeline.
  std::string detail;
  /// For a launch: threads per block, when static (with the producer
  /// warpgroup below, once the GPU lowering added one).
  std::optional<int64_t> threads;
  /// For a launch on `cuda:sm_90a`, once the GPU lowering ran: the threads
  /// of the TMA producer warpgroup `tile-warp-specialize` adds after the
  /// program's own (counted in `threads`).
  std::optional<int64_t> producerThreads;
  /// For a launch: static shared memory in bytes, counting the copies that
  /// `T.Pipelined` multi-buffering makes; unset when a shared buffer has a
  /// symbolic shape.
  std::optional<int64_t> sharedBytes;
  /// For a pipelined loop: the number of stages.
  std::optional<int64_t> stages;
  /// For a shared buffer or fragment, once layout inference ran: the short
  /// label (`swizzle 128B`, `mma.C · 2×2 warps · 64 regs/thread`).
  std::string layout;
  /// The long form of the layout: formula and a table of the tile's corner.
  std::string layoutDetail;
};

/// One analysed kernel instance.
struct InstanceInfo {
  /// The kernel name.
  std::string kernel;
  /// The instance label.
  std::string label;
  /// Where the kernel is defined.
  TextRange range;
  /// The environment variables (EvalOptions::environ) read before the
  /// instance was complete: by the module-level code, its factory and
  /// body, and whatever the evaluation ran before it (`os.environ.get`,
  /// `os.getenv`, `os.environ[...]`, `in os.environ`); sorted. What it
  /// builds depends on those and no other variable, unless
  /// environReadAll.
  std::vector<std::string> environReads;
  /// True when `os.environ` was used other than by reading one variable
  /// by name (iterated, copied, bound to a name): the instance may depend
  /// on every variable.
  bool environReadAll = false;
};

/// The category of an error of FileAnalysis::diagnostics: the Python
/// exception type TileLang raises for it (`ValueError`, `TypeError`,
/// `NotImplementedError`, `RuntimeError`, or what the program's own code
/// raised), so that tools raise the same type (`--format=json` prints it as
/// the diagnostic's "category"; the Python package maps it to the type).
struct ErrorCategory {
  /// The error's range and message, as in its Diagnostic.
  TextRange range;
  std::string message;
  /// The exception type's name.
  std::string category;
  /// TileLang raises it when the kernel is compiled (a check of its
  /// lowering), not while tracing the function where it is defined.
  bool atCompile = false;
};

/// Everything the evaluator learnt about one file.
struct FileAnalysis {
  /// Diagnostics of evaluation and checks (not the parser's), sorted.
  std::vector<Diagnostic> diagnostics;
  /// Hints of every instance, in source order per instance.
  std::vector<Hint> hints;
  /// The analysed instances in analysis order.
  std::vector<InstanceInfo> instances;
  /// The Tile IR of every instance (the evaluator builds it as it traces:
  /// hints need layouts, which are inferred on the IR).
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Interpreter steps used.
  uint64_t steps = 0;
  /// True when a budget (steps, time, memory, call depth) stopped the
  /// evaluation or it was cancelled.
  bool budgetExhausted = false;
  /// Bytes of Python objects allocated (what the memory budget limits).
  uint64_t bytesAllocated = 0;
  /// Names of EvalOptions::defines that bound nothing: no parameter of a
  /// traced kernel or factory, no T.const name, no argparse option. Tools
  /// report them (a misspelt -D otherwise silently keeps the default size).
  std::vector<std::string> unusedDefines;
  /// The `@tilelang.autotune` kernels traced and how many configurations
  /// each lists.
  std::vector<std::pair<std::string, unsigned>> autotuned;
  /// The environment variables the whole evaluation read, sorted, and
  /// whether it used `os.environ` in other ways (InstanceInfo).
  std::vector<std::string> environReads;
  bool environReadAll = false;
  /// The categories of those errors of `diagnostics` that have one.
  std::vector<ErrorCategory> errorCategories;

  /// The category of \p d (an error of `diagnostics`), or null for none.
  const ErrorCategory *categoryOf(const Diagnostic &d) const {
    for (const ErrorCategory &c : errorCategories)
      if (c.range == d.range && c.message == d.message)
        return &c;
    return nullptr;
  }
};

/// Loads the dialects the evaluator builds (tile, arith, math) into \p ctx.
void loadEvalDialects(mlir::MLIRContext &ctx);

/// Evaluates \p tree and analyses every kernel instance. Never fails: all
/// problems become diagnostics. \p ctx must have loadEvalDialects() done;
/// it may be reused across calls (not concurrently).
FileAnalysis analyzeFile(const syntax::SyntaxTree &tree, mlir::MLIRContext &ctx,
                         const EvalOptions &options);

} // namespace tlc::eval

#endif // TLC_EVAL_EVAL_H
