//===- InterpreterTypes.h - The interpreter's records (private) -*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The records the staged interpreter (Interpreter.h) keeps while it runs:
// lexical scopes, how a statement finished, call arguments, the kernel,
// loop and instance being traced, compiled kernels' call signatures and
// pending exceptions; and the free helpers the evaluator's files share.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_INTERPRETERTYPES_H
#define TLC_LIB_EVAL_INTERPRETERTYPES_H

#include "tlc/Eval/Eval.h"
#include "tlc/Eval/SymExpr.h"
#include "tlc/Eval/Value.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <optional>

namespace tlc::eval {

using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

/// Native function and method identifiers (NativeFns.def).
enum class NativeId : uint32_t {
#define NATIVE(Id, Name) Id,
#define METHOD(Id, Name) Id,
#include "NativeFns.def"
  NumNativeIds
};

/// A lexical scope: module globals, a function call's locals, or a
/// comprehension's locals.
class Env {
public:
  /// Enclosing scope used for free variables (null for the module).
  Env *parent = nullptr;
  /// Variables of this scope. Keys point into the syntax tree or the heap.
  llvm::SmallDenseMap<llvm::StringRef, Value, 8> vars;
  /// Names declared `global` in this scope.
  llvm::SmallVector<llvm::StringRef, 1> globals;
  /// Names declared `nonlocal` in this scope.
  llvm::SmallVector<llvm::StringRef, 1> nonlocals;
};

/// How a statement finished.
enum class Flow : uint8_t { Normal, Return, Break, Continue, Raise };

/// Truth of a condition.
enum class Truth : uint8_t { False, True, Unknown, IR, Abrupt };

/// Arguments of a call, with the nodes they came from (for diagnostics).
struct CallArgs {
  llvm::SmallVector<Value, 6> pos;
  llvm::SmallVector<Node, 6> posNodes;
  llvm::SmallVector<std::pair<llvm::StringRef, Value>, 4> kw;
  llvm::SmallVector<Node, 4> kwNodes;

  /// Positional argument \p i, or \p dflt when there are fewer.
  Value positional(unsigned i, Value dflt = Value::poison()) const {
    return i < pos.size() ? pos[i] : dflt;
  }
  /// Keyword value named \p name or null.
  const Value *keyword(llvm::StringRef name) const {
    for (auto &kv : kw)
      if (kv.first == name)
        return &kv.second;
    return nullptr;
  }
};

/// The launch region being traced.
struct KernelCtx {
  /// Unique identity of the region (never 0).
  uint32_t id = 0;
  /// Thread count of the block (product of `threads`), 0 when symbolic.
  int64_t threads = 0;
  /// Shared buffers allocated in the region.
  llvm::SmallVector<BufferObj *, 8> sharedBuffers;
  /// The `with T.Kernel` call (for the budget diagnostic).
  Node call;
  /// The tile.kernel op (null when IR building is off).
  mlir::Operation *op = nullptr;
  /// Thread binding values (threadIdx.x/y/z) created on demand.
  llvm::SmallVector<Value, 3> threadVars;
  /// Block binding values (bx, by, bz).
  llvm::SmallVector<Value, 3> blockVars;
  /// Grid extents as written (Int, Sym or Expr values).
  llvm::SmallVector<Value, 3> gridExtents;
  /// cluster_dims= of the launch, padded to three (empty without
  /// clusters).
  llvm::SmallVector<int64_t, 3> clusterDims;
  /// Whether a `T.rng_init` has been traced in the region (the draws
  /// `T.rng_rand*` need one before them).
  bool rngInitialized = false;
  /// The last `T.rng_init` call traced (its value is nothing to bind).
  Node lastRngInit;
};

/// The launch a raw TIR function opens (T.launch_thread / T.thread_binding
/// outside a T.Kernel): a tile.kernel whose grid and block grow with each
/// launched tag, built again with its final extents when the function
/// ends (Frames.cpp).
struct RawLaunchCtx {
  KernelCtx kernel;
  /// The extents of blockIdx.x/y/z and threadIdx.x/y/z as launched (null
  /// when the tag is not launched), computed before the kernel op.
  mlir::OpFoldResult grid[3], threads[3];
};

/// One enclosing loop while tracing.
struct LoopCtx {
  LoopKind kind;
  int64_t numStages = 0;
  Node node;
  /// Written as T.Parallel (a nested one runs as a serial loop: `kind`).
  bool writtenParallel = false;
};

/// A kernel instance being traced (one tile.func).
struct InstanceCtx {
  std::string kernel;
  std::string label;
  Node def;
  /// The tile.func op (null when IR building is off).
  mlir::Operation *func = nullptr;
  /// Symbol declarations of the function (name -> kind).
  llvm::SmallVector<std::pair<std::string, int>, 4> symbols;
  /// The names the T.dynamic symbols the instance uses have in it
  /// (Interpreter::symbolName): a symbol keeps its name unless another
  /// symbol of this instance has it already. Per instance, so that kernels
  /// of one file do not rename each other's symbols.
  llvm::DenseMap<const SymNode *, std::string> dynamicNames;
  /// Bindings for T.const / T.dynamic names (from .compile kw and -D).
  llvm::StringMap<Value> constBindings;
  /// Number of hints emitted so far for this instance.
  unsigned numHints = 0;
  /// Index of the instance's InstanceInfo in FileAnalysis::instances.
  size_t infoIndex = 0;
  /// T.empty outputs (eager mode).
  llvm::SmallVector<BufferObj *, 2> outputs;
  /// The decorator's (or tilelang.compile's) pass_configs and
  /// compile_flags, and the body's T.annotate_pass_configs /
  /// T.annotate_compile_flags (the decorator's win).
  BuildConfigs external, annotated;
  /// The target the file asks for (`@tilelang.jit(target="hip")`).
  std::optional<TargetInfo> target;
  /// The source texts of `T.import_source` and `T.Kernel(prelude=...)`, in
  /// trace order (tile.imported_sources).
  std::vector<std::string> importedSources;
  /// The launch opened by raw TIR, to the end of the function.
  std::unique_ptr<RawLaunchCtx> rawLaunch;
  /// A dtype of this instance had no value (a parameter no call site
  /// binds) and was analysed as float32: a check that depends on the
  /// dtype's class is then not the program's error (dtypeCheckFailed).
  bool assumedDType = false;
  /// The instance is a prim_func that launches no kernel (TIR written for
  /// TVM's passes) and tlc has warned once that its tile code is not
  /// analysed (checkInKernel).
  bool warnedNotKernel = false;
};

/// One parameter of a traced prim_func as the caller of its compiled kernel
/// sees it (KernelCalls.cpp).
struct KernelParamSig {
  std::string name;
  /// A tensor parameter (else a scalar, `T.ptr` or untyped one).
  bool tensor = false;
  lang::DType dtype;
  /// The dtype is float32 analysed in place of one tlc could not evaluate
  /// (a dtype parameter no call binds, a value from outside TileLang): a
  /// call's tensors are not checked against it.
  bool assumedDType = false;
  /// One entry per dimension: its size when constant.
  llvm::SmallVector<std::optional<int64_t>, 4> shape;
};

/// The call signature of a compiled kernel: its parameters and which of
/// them `out_idx` makes outputs (KernelCalls.cpp).
struct KernelSig {
  /// The name the kernel's errors give (the jit factory's).
  std::string kernel;
  std::vector<KernelParamSig> params;
  /// Parameter indices of the outputs, in out_idx's order.
  llvm::SmallVector<unsigned, 2> outputs;
};

/// A pending Python exception.
struct PendingException {
  std::string type;
  std::string message;
  TextRange range;
  /// Raised where Python raises too, whatever the values tlc does not
  /// model (a local module that does not exist): an error when uncaught,
  /// not a warning.
  bool definite = false;
};

/// Appends the Name nodes an assignment target binds (through tuples,
/// lists and starred elements; attribute and subscript targets bind none).
void collectTargetNames(Node target, llvm::SmallVectorImpl<Node> &out);

/// Whether the exception class named \p derived is \p base or derives
/// from it in Python's builtin hierarchy (a class tlc does not know derives
/// from Exception; Exceptions.cpp).
bool isExceptionSubclass(llvm::StringRef derived, llvm::StringRef base);

/// torch's broadcast of two shapes (an opaque size matches any other);
/// nullopt when two known sizes differ and neither is 1 (TorchShapes.cpp).
std::optional<llvm::SmallVector<Value, 4>>
broadcastShapes(llvm::ArrayRef<Value> a, llvm::ArrayRef<Value> b);

/// Python's slice.indices(size): false for a zero step (EvalExpr.cpp).
bool sliceBounds(SliceObj *s, int64_t size, int64_t &start, int64_t &stop,
                 int64_t &step);

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_INTERPRETERTYPES_H
