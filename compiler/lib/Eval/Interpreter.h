//===- Interpreter.h - The staged interpreter (private) ---------*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The interpreter executes the Python of one file over the syntax tree:
// meta-level code folds to Python values, IR-valued code builds Tile IR
// through IRGen. It is split over several files:
//   InterpreterTypes.h  scopes, call arguments, kernel/loop/instance records
//   Interpreter.cpp  construction, diagnostics, names
//   Statements.cpp   statement dispatch, for/while/if/with/import/assert
//   Assignments.cpp  assignments, augmented and annotated assignments
//   Definitions.cpp  def statements, decorators, expected failures
//   Calls.cpp        user functions and call dispatch
//   EvalExpr.cpp     expressions, attributes and subscripts
//   Operators.cpp    Python arithmetic operators
//   Comparisons.cpp  equality, comparisons, truthiness, iteration
//   Formatting.cpp   str() and repr()
//   NativeFns.cpp    Python builtins, math, itertools, functools, argparse
//   Primitives.cpp   T.* argument binding, conversions, dispatch
//   ModuleAttrs.cpp  modules and their attributes
//   MetaPrimitives.cpp  meta-level primitives
//   ScalarMath.cpp   scalar math (min/max, division, casts, unary math)
//   KernelRegions.cpp  T.Kernel regions, loops, buffers, hints, checks
//   Frames.cpp       T.ws, T.If/Then/Else, T.While, launch queries, T.Persistent
//   KernelOps.cpp    dispatch of kernel primitives (tile ops in Tile*.cpp)
//   Allocations.cpp  T.alloc_*, barriers, T.Tensor types
//   KernelFrames.cpp  T.Kernel frames and range loops
//   Intrinsics.cpp   primitives built as one tile.intrinsic (shuffles ...)
//   Buffers.cpp      special allocations, pointer tensors, reshape/view
//   DeviceQueries.cpp  driver.get_num_sms(), torch.cuda device properties
//   MetaObjects.cpp  layouts, WS schedules, the persistent tile scheduler
//   IRGen.cpp        construction of `tile` dialect operations
//   IRScalars.cpp    IR scalars, arithmetic and comparisons
//   IRElements.cpp   element reads and writes, T.Ramp vector access
//   IRControlFlow.cpp  if/while on IR conditions
//   IRRegions.cpp    buffer regions
//   Instances.cpp    kernel instances: bookkeeping, decorators, the driver
//   InstanceDefines.cpp  -D values and instance labels
//   InstanceTracing.cpp  traces of prim_funcs, jit calls, default instances
//   TestFunctions.cpp  the file's test functions, the --kernel check
//   KernelCalls.cpp  calls of a compiled kernel from Python (out_idx, out=)
//   NameCheck.cpp    static check for undefined names
//
// Private headers shared by some of them: IRElements.h, KernelFrames.h,
// Operators.h, Primitives.h, Uncertain.h (values tlc only bounds).
//
// Control flow uses explicit status values (no C++ exceptions): expressions
// return Value::exception() while a Python exception propagates, statements
// return a Flow code.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_EVAL_INTERPRETER_H
#define TLC_LIB_EVAL_INTERPRETER_H

#include "InterpreterTypes.h"

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

class IRGen;
struct Scalar;
struct PArgs;

/// The staged interpreter of one file. Not thread-safe.
class Interpreter {
public:
  Interpreter(const syntax::SyntaxTree &tree, mlir::MLIRContext &ctx,
              const EvalOptions &options, FileAnalysis &out);
  ~Interpreter();

  /// Runs the module, traces every instance, fills the FileAnalysis.
  void run();

  //===--------------------------------------------------------------------===//
  // Diagnostics (Interpreter.cpp)
  //===--------------------------------------------------------------------===//

  /// Adds a diagnostic; \p category is the Python exception type TileLang
  /// raises for it (FileAnalysis::errorCategories), empty for none, and
  /// \p atCompile whether TileLang raises it when compiling the kernel
  /// rather than while tracing it.
  void report(Severity sev, TextRange range, const llvm::Twine &msg,
              llvm::StringRef category = "", bool atCompile = false);
  /// An error TileLang raises as a Python exception of type \p category
  /// while tracing the kernel (where its prim_func is defined).
  void errorAs(llvm::StringRef category, TextRange range,
               const llvm::Twine &msg) {
    report(Severity::Error, range, msg, category);
  }
  /// An error TileLang raises as a Python exception of type \p category
  /// when it compiles (lowers) the kernel.
  void errorAtCompileAs(llvm::StringRef category, TextRange range,
                        const llvm::Twine &msg) {
    report(Severity::Error, range, msg, category, /*atCompile=*/true);
  }
  /// True when a diagnostic of \p sev with \p text was reported at
  /// \p range.
  bool wasReported(Severity sev, TextRange range, llvm::StringRef text) const;
  void error(TextRange range, const llvm::Twine &msg) {
    report(Severity::Error, range, msg);
  }
  void warning(TextRange range, const llvm::Twine &msg) {
    report(Severity::Warning, range, msg);
  }
  void error(Node n, const llvm::Twine &msg) { error(n.range(), msg); }
  void warning(Node n, const llvm::Twine &msg) { warning(n.range(), msg); }
  /// Raises a Python exception of \p type; returns Value::exception().
  Value raise(llvm::StringRef type, const llvm::Twine &msg, TextRange range);
  /// raise() of an exception Python raises too (PendingException::definite).
  Value raiseDefinite(llvm::StringRef type, const llvm::Twine &msg, Node n) {
    Value v = raise(type, msg, n);
    pending.definite = true;
    return v;
  }
  Value raise(llvm::StringRef type, const llvm::Twine &msg, Node n) {
    return raise(type, msg, n.range());
  }
  /// Reports an error and returns poison.
  Value fail(Node n, const llvm::Twine &msg) {
    error(n, msg);
    return Value::poison();
  }
  /// fail() of a check on a value's dtype class (an operator on a float, a
  /// conversion a dtype does not have): a warning when this instance
  /// analysed an unbound dtype as float32, since the real dtype may pass.
  Value dtypeCheckFailed(Node n, const llvm::Twine &msg);
  /// Nonzero while a kernel is traced that the enclosing test uses only
  /// inside `with pytest.raises(...)` (the test expects it to fail): its
  /// errors are reported as warnings that say so.
  unsigned expectedFailureDepth = 0;
  /// Counts one step; false (and a diagnostic) once the budget is spent.
  bool step(Node at);

  //===--------------------------------------------------------------------===//
  // Names and scopes (Interpreter.cpp)
  //===--------------------------------------------------------------------===//

  Value lookup(llvm::StringRef name, Node at);
  void bind(llvm::StringRef name, Value v);
  Value lookupModuleGlobal(llvm::StringRef name);
  Value lookupBuiltinName(llvm::StringRef name);
  /// True when \p name is a Python builtin (or module dunder) name.
  bool isBuiltinName(llvm::StringRef name);
  /// Static pass: reports names read anywhere that no scope binds
  /// (NameCheck.cpp).
  void checkUndefinedNames();

  //===--------------------------------------------------------------------===//
  // Statements (Statements.cpp, Assignments.cpp, Definitions.cpp)
  //===--------------------------------------------------------------------===//

  Flow execBody(Node owner, Field field);
  Flow exec(Node stmt);
  Flow execAssign(Node stmt);
  Flow execAugAssign(Node stmt);
  Flow execAnnAssign(Node stmt);
  Flow execFor(Node stmt);
  Flow execWhile(Node stmt);
  Flow execIf(Node stmt);
  Flow execWith(Node stmt);
  Flow execTry(Node stmt);
  Flow execImport(Node stmt);
  Flow execImportFrom(Node stmt);
  Flow execFunctionDef(Node stmt);
  Flow execClassDef(Node stmt);
  Flow execAssert(Node stmt);
  Flow execRaise(Node stmt);
  Flow execReturn(Node stmt);
  Flow execExpr(Node stmt);
  /// Assigns \p v to target expression \p target.
  Flow assign(Node target, Value v);
  /// Converts an abrupt expression result into a Flow.
  Flow flowOf(Value v) {
    return v.isException() ? Flow::Raise : Flow::Normal;
  }

  //===--------------------------------------------------------------------===//
  // Functions and calls (Calls.cpp)
  //===--------------------------------------------------------------------===//

  FunctionObj *makeFunction(Node def, llvm::StringRef name);
  /// True when \p name is a `T.Ref`-annotated parameter of the running
  /// macro (assignments to it store).
  bool isRefParam(llvm::StringRef name);
  Value callFunction(FunctionObj *fn, CallArgs &args, Node at);

  //===--------------------------------------------------------------------===//
  // Classes (Classes.cpp)
  //===--------------------------------------------------------------------===//

  /// `cls(*args)`: a new instance, initialised by the `__init__` its MRO
  /// finds (or the one `@dataclass` generates).
  Value instantiate(NamespaceObj *cls, CallArgs &args, Node at);
  /// \p attr of a class, an instance, a super() object.
  Value classAttr(Value cls, llvm::StringRef attr, Node at);
  Value instanceAttr(Value inst, llvm::StringRef attr, Node at);
  Value superAttr(SuperObj *s, llvm::StringRef attr, Node at);
  /// The first class of \p cls's MRO (after \p after, when given) that
  /// defines \p attr, its value (and in \p owner that class); null if none.
  Value *classLookup(NamespaceObj *cls, llvm::StringRef attr,
                     NamespaceObj *after = nullptr,
                     NamespaceObj **owner = nullptr);
  /// A class attribute \p v read through \p self (an instance or the class
  /// \p cls): methods bind, static methods do not, properties are called.
  Value bindAttr(Value v, Value self, NamespaceObj *cls, Node at);
  /// `super()` / `super(cls, obj)` in the running method.
  Value makeSuper(CallArgs &args, Node at);
  /// `dataclasses.dataclass` and `dataclasses.field`.
  Value applyDataclass(CallArgs &args);
  Value makeField(CallArgs &args);
  /// The `field(default_factory=...)` of field \p f of \p cls; null if none.
  Value *dataclassFactory(NamespaceObj *cls, llvm::StringRef f);
  /// `type(v)`: a builtin class, a user class or a class named by the type.
  Value typeOf(Value v);
  /// `isinstance(v, cls)` for a user class (or one typeOf made); nullopt
  /// when \p v is unknown.
  std::optional<bool> isInstanceOf(Value v, NamespaceObj *cls);
  Value call(Value callee, CallArgs &args, Node at);
  bool evalCallArgs(Node call, CallArgs &args, Value &abrupt);
  Value applyDecorator(Value deco, Value fn, Node decoNode, Node def);
  /// Evaluates the decorators of the def or class \p stmt, top to bottom,
  /// into \p nodes and \p values (they apply bottom-up); false when one
  /// raised.
  bool evalDecorators(Node stmt, llvm::SmallVectorImpl<Node> &nodes,
                      llvm::SmallVectorImpl<Value> &values);

  //===--------------------------------------------------------------------===//
  // Expressions (EvalExpr.cpp)
  //===--------------------------------------------------------------------===//

  Value eval(Node expr);
  Value evalConstant(Node n);
  Value evalJoinedStr(Node n);
  Value evalBoolOp(Node n);
  Value evalCompare(Node n);
  Value evalIfExp(Node n);
  Value evalSubscriptExpr(Node n);
  Value evalSlice(Node n);
  Value evalComprehension(Node n);
  Value evalLambda(Node n);
  Value evalDict(Node n);
  Value getAttr(Value obj, llvm::StringRef attr, Node at);
  Value subscript(Value obj, Value index, Node at);
  /// `del target`: a name, `d[key]`, `lst[i]`, `lst[a:b:c]`, `obj.attr`,
  /// or a tuple or list of them. False when it raised.
  bool deleteTarget(Node target);
  Value binary(syntax::BinaryOp op, Value l, Value r, Node at);
  Value unary(syntax::UnaryOp op, Value v, Node at);
  Value compare(syntax::CmpOp op, Value l, Value r, Node at);
  /// True for a keys or items view of a dict, which behave as sets.
  static bool isSetLikeView(Value v);
  /// \p op of two values when one is a dict view (`in`, set comparisons);
  /// nullopt when neither is or the generic comparison applies.
  std::optional<Value> compareDictView(syntax::CmpOp op, Value l, Value r,
                                       Node at);
  Truth truth(Value v, Node at);
  /// Python equality of two values (no IR).
  std::optional<bool> equals(Value a, Value b);
  /// `d[k] = v` of a Python dict: replaces the value of an equal key in
  /// place (the key keeps its first spelling and position) or appends.
  void dictPut(DictObj *d, Value k, Value v);
  /// Iterates a Python iterable into \p out; false (+exception) if not.
  bool iterate(Value v, llvm::SmallVectorImpl<Value> &out, Node at);
  /// Formats a value like Python's str()/repr().
  void format(Value v, llvm::raw_ostream &os, bool repr);
  /// Reads a `pass_configs=` dict (T.annotate_pass_configs' too) into
  /// \p out; `tl.device_compile_flags` adds compile flags as well.
  void readPassConfigs(Value configs, BuildConfigs &out);
  /// Reads a `compile_flags=` value: a string of flags or a list of them.
  void readCompileFlags(Value flags, BuildConfigs &out);
  /// Appends the device source text \p source (`T.import_source`,
  /// `T.Kernel(prelude=...)`) to the running instance's imported sources;
  /// none is returned, or an error at \p at when it is not a string.
  Value importSource(Value source, Node at);
  /// Records the instance's merged build configs on its tile.func (again
  /// after `tilelang.compile(prim_func, pass_configs=...)`).
  void applyBuildConfigs(InstanceCtx &ctx);
  std::string toString(Value v, bool repr = false);
  /// "torch.float16" for an opaque torch dtype (`torch.float16`,
  /// `torch.half`, `T.float16.torch()`), nullopt for any other value.
  std::optional<std::string> torchDTypeName(Value v);
  /// Coerces Int/Bool/Sym to a SymExpr; null otherwise.
  SymExpr toSym(Value v);
  /// Wraps a SymExpr as Int when constant, else Sym.
  Value fromSym(SymExpr e, Node at);

  //===--------------------------------------------------------------------===//
  // Sets and frozensets (Sets.cpp)
  //===--------------------------------------------------------------------===//

  /// CPython's hash of \p v into \p hash; false with \p abrupt a TypeError
  /// at \p at for an unhashable value (a set hashes as a frozenset with
  /// \p setAsFrozen, as `in` and `remove` do), or an opaque value for one
  /// tlc does not know (a symbolic int, an object outside TileLang).
  bool hashValue(Value v, int64_t &hash, Value &abrupt, Node at,
                 bool setAsFrozen = false);
  /// A new empty set (frozenset when \p frozen).
  Value newSet(bool frozen);
  /// set.add: None, or an exception / opaque value.
  Value setAdd(Value set, Value key, Node at);
  /// set.update with one iterable: None, or an exception / opaque value.
  Value setUpdate(Value set, Value other, Node at);
  /// The set of \p elems added in order (a set comprehension); an
  /// exception for an unhashable element.
  Value makeSet(llvm::ArrayRef<Value> elems, Node at, bool frozen = false);
  /// set(iterable) / frozenset(iterable).
  Value setFrom(Value iterable, bool frozen, Node at);
  /// A set display `{a, *b, c}`.
  Value evalSetDisplay(Node n);
  /// Set equality of two Set values.
  bool setEquals(Value a, Value b);
  /// `|`, `&`, `-`, `^` of two Set values (the result has the left type).
  Value setBinary(syntax::BinaryOp op, Value l, Value r, Node at);
  /// `|=`, `&=`, `-=`, `^=` of a set with a Set value: \p l, updated.
  Value setInPlace(syntax::BinaryOp op, Value l, Value r, Node at);
  /// `<`, `<=`, `>`, `>=` of two Set values (subset order).
  Value setCompare(syntax::CmpOp op, Value l, Value r, Node at);
  /// `key in set`: a Bool, or an exception / opaque value.
  Value setContains(Value set, Value key, Node at);
  /// The set method \p id (called \p name) of \p self.
  Value callSetMethod(NativeId id, Value self, CallArgs &args,
                      llvm::StringRef name, Node at);

  //===--------------------------------------------------------------------===//
  // Python ints beyond 64 bits (BigInts.cpp)
  //===--------------------------------------------------------------------===//

  /// The value of an Int, Bool or BigInt; nullopt for anything else.
  std::optional<llvm::APInt> toAPInt(Value v);
  /// The int \p v: an Int when it fits in 64 signed bits, else a BigInt
  /// (an OverflowError past the trace-time width bound).
  Value makeInt(const llvm::APInt &v, Node at);
  /// Python's int operators on unbounded ints.
  Value bigBinary(syntax::BinaryOp op, const llvm::APInt &x,
                  const llvm::APInt &y, Node at);
  Value bigUnary(syntax::UnaryOp op, const llvm::APInt &x, Node at);
  /// -1, 0 or 1 as \p x is less than, equal to or greater than \p y.
  static int compareInts(const llvm::APInt &x, const llvm::APInt &y);
  /// Digits of an int as str()/hex()/oct()/bin() write them.
  std::string intToString(Value v, unsigned radix = 10);
  /// float(v) of a number (BigInt included).
  double intToDouble(Value v);
  /// True when the int \p v is a value of integer \p dtype; otherwise an
  /// error at \p at naming the range. Non-ints and non-integer dtypes pass.
  bool checkIntFits(Value v, lang::DType dtype, Node at);
  /// A BigInt as an IR constant of type \p hint (toScalar).
  Scalar bigScalar(Value v, Node at, mlir::Type hint);

  //===--------------------------------------------------------------------===//
  // Native functions (NativeFns.cpp)
  //===--------------------------------------------------------------------===//

  Value callNative(NativeId id, CallArgs &args, Node at);
  Value callMethod(BoundMethodObj *m, CallArgs &args, Node at);
  /// The native id of a qualified name (`math.ceil`), if any.
  std::optional<NativeId> findNative(llvm::StringRef qualified);
  /// The unqualified name of a native function (`len`, `ceil`).
  static llvm::StringRef nativeName(NativeId id);
  /// A method of a builtin value, or poison.
  Value findMethod(Value self, llvm::StringRef name);

  //===--------------------------------------------------------------------===//
  // Modules (ModuleAttrs.cpp)
  //===--------------------------------------------------------------------===//

  Value importModule(llvm::StringRef qualified);
  /// `import name` (or `from name import ...`) of a module that is not
  /// next to the analysed file: a ModuleNotFoundError when tlc holds that
  /// no such module exists and a handler of the running code would catch
  /// it (Modules.cpp); std::nullopt otherwise.
  std::optional<Value> missingModule(llvm::StringRef name, Node at);
  /// `try` statements running whose handlers catch ImportError.
  unsigned importGuards = 0;
  /// The module \p name imported from the analysed file's directory
  /// (\p level 1 for `from .name import ...`), run on first import;
  /// std::nullopt when there is no such file (Modules.cpp).
  std::optional<Value> importSibling(llvm::StringRef name, unsigned level,
                                     Node at);
  /// The local module or package \p qualified (dotted), its packages
  /// loaded first; std::nullopt when its first name is not next to the
  /// analysed file, an exception when a later one is missing.
  std::optional<Value> loadLocalModule(llvm::StringRef qualified, Node at);
  /// Parses and runs the file of local module \p m in its namespace.
  bool runModuleFile(ModuleObj *m, llvm::StringRef path, bool isPackage,
                     Node at);
  /// Parses \p text (named \p path) and runs it as module \p m.
  void runModuleSource(ModuleObj *m, llvm::StringRef text,
                       llvm::StringRef path, bool isPackage, Node at);
  /// `tilelang.intrinsics` names tlc models in Python
  /// (IntrinsicEmitters.cpp): the value of \p attr of module \p module
  /// (`TensorCoreIntrinEmitter`, `get_swizzle_layout` ...), its model run
  /// on first use; std::nullopt for names it does not model.
  std::optional<Value> intrinsicsAttr(llvm::StringRef module,
                                      llvm::StringRef attr, Node at);
  /// The model's module once run (IntrinsicEmitters.cpp).
  ModuleObj *intrinsicsModel = nullptr;
  /// The scalar TIR helpers of `tilelang.quantize` tlc models in Python
  /// (QuantizeHelpers.cpp): the value of \p attr (`_tir_...`) of module
  /// \p module, the model run on first use; std::nullopt for other names.
  std::optional<Value> quantizeAttr(llvm::StringRef module,
                                    llvm::StringRef attr, Node at);
  /// The quantize model's module once run (QuantizeHelpers.cpp).
  ModuleObj *quantizeModel = nullptr;
  /// The dotted package relative imports of the code at \p at start from
  /// ("" for the analysed file and modules next to it).
  std::string packageOf(Node at) const;
  /// `from <local module m> import name` (Statements.cpp).
  Value importFromLocal(ModuleObj *m, llvm::StringRef name, Node alias);
  /// `from m import *` of an imported module: binds its public names.
  void importStar(ModuleObj *m);
  /// True for `with T.If(cond), T.Then():` (the T.Then nested in the T.If).
  static bool isIfThenPair(Node withStmt);
  /// True when \p n belongs to a file imported by the analysed one.
  bool isForeign(Node n) const { return n && n.getTree() != &tree; }
  /// While code of an imported file runs, diagnostics, IR locations and
  /// hints use the range of the analysed file that entered it.
  class ForeignScope {
  public:
    ForeignScope(Interpreter &in, Node code, TextRange entry,
                 llvm::StringRef module = "");
    ~ForeignScope();

  private:
    Interpreter &in;
    bool entered = false;
  };
  /// Runs module-level code (a global of the analysed file resolved on first
  /// use, the top level of an imported module) in namespace \p globals,
  /// outside whatever kernel, instance, loop nest or trace is in progress,
  /// with new IR at the end of the module. The destructor restores all of it.
  class TopLevelScope {
  public:
    TopLevelScope(Interpreter &in, Env *globals);
    ~TopLevelScope();
    TopLevelScope(const TopLevelScope &) = delete;
    TopLevelScope &operator=(const TopLevelScope &) = delete;

  private:
    Interpreter &in;
    Env *savedEnv;
    InstanceCtx *savedInstance;
    KernelCtx *savedKernel;
    bool savedTraced;
    llvm::SmallVector<LoopCtx, 8> savedLoops;
    std::optional<mlir::OpBuilder::InsertPoint> savedInsertPoint;
  };
  Value moduleAttr(ModuleObj *m, llvm::StringRef attr, Node at);
  /// Whether `obj.attr` names nothing in `tilelang.language` (not a
  /// builtin, native or dtype spelling): what moduleAttr raises for.
  bool isUnknownTName(Value obj, llvm::StringRef attr);
  /// Raises TileLang's AttributeError for reading the unknown `T.<attr>`
  /// at \p at (the attribute, or a direct call of it as a whole), with the
  /// closest known name.
  Value raiseUnknownTName(llvm::StringRef attr, Node at);
  bool isTileLangModule(llvm::StringRef name);

  //===--------------------------------------------------------------------===//
  // TileLang primitives (Primitives.cpp)
  //===--------------------------------------------------------------------===//

  Value callPrimitive(const lang::BuiltinInfo &info, CallArgs &args, Node at);
  /// Kernel-level primitives (KernelOps.cpp); nullopt if \p p is not one.
  std::optional<Value> callKernelPrimitive(const PArgs &p);
  /// The frame of T.Kernel / T.ClusterKernel / T.CUDASourceCodeKernel
  /// (KernelFrames.cpp).
  Value makeKernelFrame(const PArgs &p);
  /// `with` frames other than T.Kernel, launch-frame queries and
  /// T.Persistent (Frames.cpp); nullopt if \p p is not one.
  std::optional<Value> callFramePrimitive(const PArgs &p);
  /// Executes the body of a `with` over a FrameObj (Frames.cpp).
  Flow execFrame(FrameObj *frame, Node withNode, Node target);
  /// T.SimtVF, T.SimdVF and T.PerCoreTask: frames of TileLang's Ascend back
  /// end (BuiltinsAscend.def), analysed as their bodies.
  static bool isAscendFrame(lang::BuiltinId id);
  /// Records in the kernel, at \p at, that it is written for Ascend NPUs
  /// (`tlc.ascend`, \p what the name): building it is refused
  /// (tile::checkBuildable).
  void markAscend(Node at, llvm::StringRef what);
  /// Records in the kernel, at \p at, an operation-free marker intrinsic
  /// \p callee with option `what` = \p what, which the back ends refuse
  /// at build time (--check accepts it).
  void markUnbuildable(Node at, llvm::StringRef callee, llvm::StringRef what);
  /// An Ascend frame entered in the same `with` as T.Kernel, marked at
  /// the start of the kernel's body.
  FrameObj *ascendKernelFrame = nullptr;
  /// The index a raw TIR launch of a thread or block dimension binds
  /// (\p isThread, \p dim; its \p extent), opening the function's launch
  /// at the first one (Frames.cpp).
  Value rawLaunchIndex(bool isThread, unsigned dim, Value extent, Node at);
  /// Ends the launch raw TIR opened in the current instance, if any: the
  /// tile.kernel gets its final grid and block (Frames.cpp).
  void closeRawLaunch();
  /// The answer of a device query (`driver.get_num_sms()`,
  /// `torch.cuda.get_device_properties(0)`) from the target's device table
  /// (DeviceQueries.cpp); nullopt when \p qualified is not one.
  std::optional<Value> callDeviceQuery(llvm::StringRef qualified,
                                       CallArgs &args, Node at);
  /// Calls of TVM's expression builders (`tvm.tir.const`,
  /// `tvm.tir.reinterpret`, `tvm.tir.Cast`, ...) as their TileLang
  /// spellings; std::nullopt for any other name.
  std::optional<Value> callTirBuilder(llvm::StringRef qualified,
                                      CallArgs &args, Node at);
  /// tilelang.quantize's helpers that tlc models (Quantize.cpp: the
  /// decoders of get_lop3_intrin_group and get_mxfp_intrin_group, as
  /// portable source); nullopt for the others.
  std::optional<Value> callQuantizeHelper(llvm::StringRef qualified,
                                          CallArgs &args, Node at);
  /// A torch tensor of \p shape: an int per known size, an opaque value
  /// for the others (TorchShapes.cpp).
  Value torchTensor(llvm::ArrayRef<Value> shape);
  /// The shaped tensor a torch factory (`torch.randn`, `torch.arange`,
  /// `torch.cat`, ...) named \p qualified returns; nullopt for any other
  /// name (TorchShapes.cpp).
  std::optional<Value> callTorchFactory(llvm::StringRef qualified,
                                        CallArgs &args, Node at);
  /// Attribute \p attr of the shaped tensor \p t (`shape`, `ndim`, `T`, a
  /// method whose result's shape is known); nullopt for the others.
  std::optional<Value> tensorAttr(OpaqueObj *t, llvm::StringRef attr);
  /// The dtype of the torch tensor \p t as far as tlc follows it (a
  /// factory's `dtype=`, a conversion, a copy), if known.
  std::optional<lang::DType> torchTensorDType(OpaqueObj *t) const {
    auto it = torchDTypes.find(t);
    return it == torchDTypes.end() ? std::nullopt
                                   : std::optional<lang::DType>(it->second);
  }
  /// \p t, a new torch tensor, with the dtype a factory's `dtype=`
  /// (\p dtype, when given) or the tensor it copies (\p inherited) gave it.
  Value withDType(Value t, const Value *dtype,
                  std::optional<lang::DType> inherited);
  /// Records the call signature of the prim_func \p pf, traced from \p fn
  /// whose parameters were annotated with \p types (KernelCalls.cpp).
  /// \p names and \p kernel replace the function's parameter names and
  /// name when given (T.build_prim_func).
  void recordPrimFuncSig(PrimFuncObj *pf, FunctionObj *fn,
                         llvm::ArrayRef<Value> types,
                         llvm::ArrayRef<std::string> names = {},
                         llvm::StringRef kernel = "");
  /// The compiled kernel (`JITKernel`) of \p primFunc with `out_idx`
  /// \p outIdx, named \p name in its call errors; a plain opaque value when
  /// \p primFunc is not a traced prim_func.
  Value compiledKernel(Value primFunc, Value outIdx, llvm::StringRef name);
  /// A call of a compiled kernel (`kernel(a, b)`, `kernel(a, b, c)`,
  /// `kernel(a, out=c)`): the outputs, or what the call raises; nullopt
  /// when \p callee is not one whose signature is known.
  std::optional<Value> callCompiledKernel(OpaqueObj *callee, CallArgs &args,
                                          Node at);
  /// Calls tensor method \p name of a tensor of \p m's shape.
  Value callTensorMethod(OpaqueObj *m, llvm::StringRef name, CallArgs &args,
                         Node at);
  /// `t[idx]` of the shaped tensor \p t.
  Value tensorItem(OpaqueObj *t, Value idx);
  /// torch's `(values, indices)` named tuple of sort, topk, max and min.
  Value valuesIndices(Value values, Value indices);
  /// The tensor `torch.einsum(spec, *operands)` returns (\p args as given).
  Value einsumShape(CallArgs &args);
  /// The tensor `torch.nn.functional.pad(t, amounts)` returns.
  Value padShape(OpaqueObj *t, CallArgs &args);
  /// Special allocations, pointer tensors and views (Buffers.cpp); nullopt
  /// if \p p is not one.
  std::optional<Value> callBufferPrimitive(const PArgs &p);
  /// Trace-time objects: layouts, WS schedules, comm_reducer, the
  /// persistent tile scheduler, vector builders (MetaObjects.cpp); nullopt
  /// if \p p is not one.
  std::optional<Value> callObjectPrimitive(const PArgs &p);
  /// `T.Layout(shape, fn)` / `T.Fragment(shape, ...)`: traces the index
  /// functions over symbolic coordinates into a layout (MetaObjects.cpp).
  Value makeLayoutObject(const PArgs &p);
  /// init / valid / next_tile / coord of a T.PersistentTileScheduler.
  Value callSchedulerMethod(NativeId id, CallArgs &args, Node at);
  /// The keyword hints the language module \p callee was read from does
  /// not declare (TypeError) and T.gemm's k_pack values (ValueError)
  /// (DialectKeywords.cpp); nullopt when the call may go on.
  std::optional<Value> checkDialectKeywords(Value callee, CallArgs &args,
                                            Node at);
  /// An attribute of a layout value: the Layout and Fragment methods
  /// (FragmentMethods.cpp).
  Value layoutAttr(Value obj, llvm::StringRef attr, Node at);
  /// repeat / replicate / condense_rep_var / get_thread_size /
  /// bind_thread_range of a T.Fragment value (FragmentMethods.cpp).
  Value callFragmentMethod(NativeId id, CallArgs &args, Node at);
  /// repeat / is_equal / get_input_shape / get_output_shape of a T.Layout
  /// value (LayoutMethods.cpp).
  Value callLayoutMethod(NativeId id, CallArgs &args, Node at);
  /// inverse / map_forward_index / get_forward_vars / get_forward_index /
  /// expand / reshape / a call of a layout value / map_forward_thread
  /// (LayoutIndexMaps.cpp).
  Value callLayoutMapMethod(NativeId id, CallArgs &args, Node at);
  /// A T.Fragment value's `thread` property: its thread expression over
  /// TileLang's placeholders `_i, _j, ..., _rep` (LayoutIndexMaps.cpp).
  Value fragmentThread(Value obj, Node at);
  /// Primitives built as one tile.intrinsic (Intrinsics.cpp); nullopt if
  /// \p p is not one.
  std::optional<Value> callIntrinsicPrimitive(const PArgs &p);
  /// T.clc_try_cancel(_multicast) / T.clc_is_canceled /
  /// T.clc_get_first_ctaid_*: their tile.clc_* op from the collected
  /// \p operands; nullopt for the other intrinsics.
  std::optional<Value> buildClcOp(const PArgs &p,
                                  llvm::ArrayRef<mlir::Value> operands,
                                  std::optional<lang::DType> result);
  /// `T.rng_init`, `T.rng_rand` and `T.rng_rand_float` (Random.cpp).
  Value callRngPrimitive(const PArgs &p);
  /// Records a call, made while a kernel is traced, of an object from
  /// outside TileLang whose effect tlc cannot model (a method of
  /// tilelang.intrinsics' TensorCoreIntrinEmitter, a TVM helper): a warning
  /// at \p call and a `tile.intrinsic "tlc.unmodelled_call"` holding the
  /// kernel data it was given, which no target builds (Intrinsics.cpp).
  void recordUnmodelledCall(Node call, CallArgs &args, bool warn = true);
  /// Meta-level and math primitives (MetaPrimitives.cpp).
  Value callMetaPrimitive(const PArgs &p);
  Value declareSymbols(const PArgs &p, int kind);
  Value unaryMath(const PArgs &p);
  Value selectValue(Value c, Value t, Value f, Node at);
  Value minMax(Value a, Value b, bool isMax, Node at);
  Value intDiv(Value a, Value b, SymKind kind, Node at);
  Value truncMod(Value a, Value b, Node at);
  /// The row-major coordinates of \p linear in a domain of extents \p dims
  /// (the first coordinate is not reduced modulo its extent).
  llvm::SmallVector<Value, 4> unflatten(Value linear,
                                        llvm::ArrayRef<Value> dims, Node at);
  Value castTo(Value v, lang::DType dtype, Node at);
  /// T.cast(v, dtype, round="rs", rbits=rbits): one `T.cast_rs`
  /// intrinsic (StochasticCast.cpp).
  Value castStochastic(Value v, lang::DType dtype, Value rbits,
                       const PArgs &p);
  /// `AutoTuner.from_kernel(kernel=f, configs=c)`: a jit of \p f tuned
  /// over \p c, as `@autotune(configs=c)` over `@tilelang.jit` makes it
  /// (Instances.cpp); opaque when the kernel is not a function.
  Value autotunerFromKernel(CallArgs &args, Node at);
  /// Applies tilelang.jit/autotune (with options in \p p) to \p fn.
  Value applyDecoratorValue(const PArgs &p, Value fn);
  /// Records that the current instance uses symbol \p name.
  void noteSymbolUse(llvm::StringRef name);
  /// noteSymbolUse() for every symbol in \p e.
  void noteSymbols(SymExpr e);
  /// Whether \p n is the symbol of one `T.dynamic` call: each call makes a
  /// distinct symbol (a negative unique id), as TileLang makes a fresh
  /// `tir.Var` per call whatever its name.
  static bool isDynamicDecl(const SymNode *n);
  /// The name symbol \p n has in the current instance's IR and hints: its
  /// own, except for a T.dynamic symbol whose name another symbol of the
  /// instance took first (`size_1`, `size_2`, ..., as TVM's printer names
  /// two Vars of one name apart; InstanceCtx::dynamicNames).
  llvm::StringRef symbolName(const SymNode *n);
  /// \p e with each T.dynamic symbol replaced by the plain symbol of its
  /// name in the current instance (symbolName): what the IR and the hints
  /// print.
  SymExpr instanceNamed(SymExpr e);
  Value primitiveAttr(const lang::BuiltinInfo &info, llvm::StringRef attr,
                      Node at);
  /// Converts a value to a dtype (DType value, string, torch dtype ...).
  /// A dtype parameter without a value (a symbol) is float32 with a
  /// warning at \p at when \p at is given.
  std::optional<lang::DType> toDType(Value v, Node at = Node());
  /// Converts a shape argument to dims; false on error (reported).
  bool toShape(Value v, llvm::SmallVectorImpl<SymExpr> &dims, Node at);
  /// Evaluates a T.Tensor-like annotation into a global buffer.
  Value makeTensorFromAnnotation(Value ann, llvm::StringRef name, Node at);
  /// Tensor types whose dtype is `typing.Any` (`T.Tensor[[int, int], Any]`,
  /// TileLang's: the argument's dtype). A parameter of such a type takes
  /// its dtype from the binding `-D NAME.dtype=...` (what the package passes
  /// from the argument), else it is analysed as float32 with a warning.
  llvm::DenseSet<const BufferObj *> anyDTypeTensors;
  /// Tensor types whose dtype tlc could not evaluate and analyses as
  /// float32 (toDType's fallback).
  llvm::DenseSet<const BufferObj *> assumedDTypeTensors;
  /// The symbol each opaque extent (BufferObj::opaqueExtents) of an
  /// instance's parameters became, keyed by instance and opaque value: the
  /// first parameter's `NAME_shapeD`, shared by every later parameter whose
  /// extent is the same value.
  llvm::DenseMap<std::pair<const void *, const Obj *>, llvm::StringRef>
      opaqueExtentSymbols;
  /// Creates a buffer value (+ IR op) and its hint.
  BufferObj *makeBuffer(llvm::StringRef name, llvm::ArrayRef<SymExpr> shape,
                        lang::DType dtype, lang::MemoryScope scope, Node at,
                        bool isParam, mlir::Value init = {});
  /// Enters a `with T.Kernel(...)` region and executes \p body.
  Flow execKernel(KernelFrameObj *frame, Node withNode, Node target);
  /// Executes an IR loop over a LoopFrame: the body of \p owner (a `for`
  /// or `with` statement) with the loop variables assigned to \p target
  /// (null: not bound).
  Flow execIRLoop(LoopFrameObj *loop, Node owner, Node target);
  /// `with <loop frame> as vars:` outside any traced function (TVM's
  /// IRBuilder form): the body once, the loop variables unknown.
  Flow execLoopFrameOutsideKernel(LoopFrameObj *loop, Node withNode,
                                  Node target);
  /// Element read, arithmetic etc. on IR values.
  Value irBinary(syntax::BinaryOp op, Value l, Value r, Node at);
  Value irUnary(syntax::UnaryOp op, Value v, Node at);
  Value irCompare(syntax::CmpOp op, Value l, Value r, Node at);
  /// Stores \p v into an element reference / local.var buffer.
  Flow irStore(Value target, Value v, Node at);
  /// The indices of every element of \p r in row-major order; false (with
  /// an error at \p at) unless its extents are constants.
  bool regionElements(
      RegionObj *r, Node at,
      llvm::SmallVectorImpl<llvm::SmallVector<mlir::Value, 4>> &elements);
  /// `name: T.float32x4 = A[0, 0:4]`: loads the region's elements into a
  /// local buffer of \p type's lanes (BufferObj::vectorLet).
  Value vectorLet(RegionObj *r, lang::DType type, Node at);
  /// Builds an IR `if` whose condition is \p cond.
  Flow execIRIf(Value cond, Node ifNode);
  /// Reports a kernel `if` / `assert` whose condition \p c is not boolean.
  void checkBooleanCondition(const Scalar &c, Node test, llvm::StringRef stmt);
  /// A tile.while over \p whileNode's body; the condition is \p condNode
  /// (the `while` test when null), re-evaluated every iteration.
  Flow execIRWhile(Node whileNode, Node condNode = Node());
  /// Materializes a value as a scalar IR value; \p hint is the wanted type
  /// for Python numbers (null: i32/f32). Reports and returns null on error.
  Scalar toScalar(Value v, Node at, mlir::Type hint = {});
  /// Wraps a scalar IR value.
  Value wrapScalar(const Scalar &s);
  /// An `index` IR value of an Int, Sym or IR integer.
  mlir::Value toIndex(Value v, Node at);
  /// An index as an OpFoldResult (static for Python ints).
  mlir::OpFoldResult toFold(Value v, Node at);
  /// The buffer value of a tile operand (tile.region for regions).
  mlir::Value regionValue(RegionObj *r, Node at);
  /// Region of a buffer subscript.
  Value makeRegion(BufferObj *buf, Value index, Node at);
  /// The Region view of a tile operand (buffer, region, element ref).
  RegionObj *asRegion(Value v, Node at);
  /// Names an anonymous buffer after the variable it is assigned to.
  void nameBuffer(BufferObj *buf, llvm::StringRef name, Node target);
  /// Reports a tile operation used inside T.Parallel; true if so.
  bool checkNotInParallel(llvm::StringRef what, Node at);
  /// Reports a kernel-only operation outside T.Kernel; true if outside.
  bool checkInKernel(llvm::StringRef what, Node at);
  /// Emits a hint.
  void addHint(TextRange range, llvm::StringRef name, llvm::StringRef kind,
               llvm::ArrayRef<SymExpr> shape, std::optional<lang::DType> dtype,
               std::optional<lang::MemoryScope> scope, std::string detail);
  /// The target of the code being evaluated: the one the instance's file
  /// asks for, unless the user chose one (EvalOptions::targetExplicit).
  TargetInfo target() const;
  /// The tlc target a TileLang target value names (`"cuda"`,
  /// `"cuda -arch=sm_100a"`, `"hip"`, `"cpu"`); empty for `"auto"` and
  /// values tlc cannot read.
  std::string fileTarget(Value v) const;
  /// True when an IR function is being traced.
  bool tracing() const { return instance != nullptr; }
  /// While tracing a kernel, warns that condition \p test evaluated to a
  /// value tlc cannot know (torch, numpy, I/O ...) and says what
  /// \p assumption was made. Outside kernels (test harness code) it is quiet.
  void warnUnknownCondition(Value c, Node test, llvm::StringRef assumption);
  /// Checks that a buffer used at \p at belongs to the current kernel.
  void checkBufferUse(BufferObj *buf, Node at);
  /// True when the T.alloc_var \p buf was declared in a region that is
  /// still open at the builder's insertion point (always for other
  /// buffers). A var declared in a loop body or branch that has ended is
  /// out of scope: assigning its name binds a new value (TileLang's fresh
  /// binding) instead of storing into a variable the generated code no
  /// longer declares.
  bool varInScope(BufferObj *buf);
  /// varInScope for a read or store through \p at; otherwise an error
  /// located there (and a note at the declaration), false.
  bool checkVarInScope(BufferObj *buf, Node at);
  /// False, with an error at \p at, when \p value (what the name \p name
  /// is bound to) is the target of a loop that has ended: a block argument
  /// of a block that does not enclose the builder's insertion point. Python
  /// keeps a loop target bound after its loop; the generated code has no
  /// such variable there (it was C++ naming an undeclared one).
  bool checkLoopTargetInScope(mlir::Value value, llvm::StringRef name,
                              Node at);
  /// True when IR may refer to \p buf here (global, or allocated in the
  /// current kernel region).
  bool usable(const BufferObj *buf) const {
    return !buf->kernelId || (kernel && kernel->id == buf->kernelId);
  }
  /// Shared memory budget check at the end of a kernel region.
  /// Checks the kernel's shared memory against the target budget, counting
  /// pipeline multi-buffering; returns the total when every shared buffer
  /// has a static shape.
  std::optional<int64_t> checkSharedMemory(KernelCtx &k);

  //===--------------------------------------------------------------------===//
  // Instances (Instances.cpp, InstanceDefines.cpp, InstanceTracing.cpp,
  // TestFunctions.cpp)
  //===--------------------------------------------------------------------===//

  /// The kernel T.build_prim_func(name, parameters, body) describes: its
  /// name and its parameters' names and annotations, in order.
  struct PrimFuncSpec {
    std::string name;
    llvm::SmallVector<std::pair<std::string, Value>, 4> params;
  };
  /// Traces a @T.prim_func definition now; with \p spec, the kernel
  /// T.build_prim_func builds, whose body \p fn is called with the
  /// parameters.
  Value tracePrimFunc(FunctionObj *fn, Node at,
                      const PrimFuncSpec *spec = nullptr);
  /// T.build_prim_func(name, parameters, body) (InstanceTracing.cpp).
  Value buildPrimFunc(const PArgs &p);
  /// Binds \p spec's parameters in the current instance and calls \p fn
  /// with them.
  void traceBuiltPrimFunc(PrimFuncObj *pf, FunctionObj *fn, Node at,
                          const PrimFuncSpec &spec);
  /// Handles a call of a jit function (trace an instance).
  Value callJit(JitFunctionObj *jit, CallArgs &args, Node at, bool compile);
  /// Traces an eager jit function body for bound arguments.
  void traceEager(JitFunctionObj *jit, CallArgs &args, Node at,
                  const std::string &label);
  /// Makes the label of an instance.
  std::string makeLabel(llvm::StringRef fnName, CallArgs &args);
  /// \p label, told apart from an instance of another definition of \p fn
  /// with the same label whose closure holds other values (a factory
  /// defined inside a function called twice): `label [block=256]`.
  std::string closureLabel(FunctionObj *fn, const std::string &label);
  /// `tilelang.testing.main()`: runs the file's `test*` functions that need
  /// no fixtures, each with the first case of its parametrize decorators.
  Value runTestFunctions(Node at);
  /// Runs the `test*` functions (no required parameters) that call, by
  /// name, a jit kernel no call site has instantiated, so that it is traced
  /// with the arguments a test gives it rather than alone with symbols.
  void runTestsCallingUntracedKernels();
  /// Analyses kernels that no call site instantiated.
  void traceDefaultInstances();
  /// Reports a --kernel that names no kernel of the file, listing those
  /// it has (otherwise nothing would be analysed or built, silently).
  void checkKernelFilter();
  /// True once runTestFunctions() ran.
  bool ranTests = false;
  /// `os.environ`: a dict of the variables EvalOptions::environ sets (the
  /// program is analysed as run with only those set), made on first use
  /// and shared by every later use, so `os.environ.setdefault(...)` and
  /// `os.environ[name] = ...` are seen by later reads and `os.getenv`.
  Value osEnviron();
  Value osEnvironDict;
  /// Records a read of the variable \p key when \p dict is `os.environ`
  /// (`os.environ.get(key)`, `os.getenv(key)`, `os.environ[key]`,
  /// `key in os.environ`); a key that is not a string counts as reading
  /// every variable. Other dicts are ignored.
  void noteEnvironRead(Value dict, Value key);
  /// The environment variables read so far, in first-read order
  /// (FileAnalysis::environReads).
  std::vector<std::string> environReads;
  /// True once `os.environ` was used other than by one of those keyed
  /// reads (iterated, copied, bound to a name, passed along): the
  /// evaluation may depend on every variable.
  bool environReadAll = false;
  /// The first call, in the module-level code or test running now, of a
  /// TVM IR visitor (`tvm.tir.stmt_functor.post_order_visit`) whose
  /// callback tlc cannot run: it builds no TVM IR to walk. Null when none.
  Node irVisitCall;
  /// Reports the exception pending from \p where (module-level code or a
  /// test function named \p what): an AssertionError after an IR visitor
  /// tlc could not run (irVisitCall) is a warning that the assertion is not
  /// checked, not a failure of the program's (Instances.cpp).
  void reportUncaught(TextRange where, llvm::StringRef what);
  /// True while traceDefaultInstances() runs (parameters are symbols).
  bool tracingDefaults = false;
  /// While tracingDefaults: false when the instance being traced has every
  /// parameter bound (by -D, a config or its default), so what it raises is
  /// an error of the instance asked for, not a warning about symbols.
  bool defaultsSymbolic = true;
  /// Parses a -D value.
  Value parseDefine(llvm::StringRef text);
  /// The -D binding for \p name, if any.
  std::optional<Value> defineFor(llvm::StringRef name);
  /// Names of options.defines that bound something so far.
  llvm::StringSet<> usedDefines;
  /// Begins/ends an instance (tile.func).
  InstanceCtx *beginInstance(llvm::StringRef kernel, llvm::StringRef label,
                             Node def);
  void endInstance(InstanceCtx *ctx);
  /// True when the instance was already traced (dedup under \p dedupKey,
  /// the kernel's name by default) or over the cap, or filtered out.
  bool shouldSkipInstance(llvm::StringRef kernel, llvm::StringRef label,
                          llvm::StringRef dedupKey = {});

  //===--------------------------------------------------------------------===//
  // State
  //===--------------------------------------------------------------------===//

  const syntax::SyntaxTree &tree;
  mlir::MLIRContext &mlirContext;
  const EvalOptions &options;
  FileAnalysis &out;
  Heap heap;
  SymContext syms;
  std::unique_ptr<IRGen> ir;

  /// The top-level statements this evaluation runs: the module's body, or
  /// the slice EvalOptions::statements selects.
  llvm::SmallVector<Node, 0> topLevel;
  Env *moduleEnv = nullptr;
  Env *env = nullptr;
  /// Modules imported from the analysed file's directory, by name, and the
  /// trees their nodes point into (Modules.cpp).
  llvm::StringMap<ModuleObj *> siblingModules;
  /// The classes typeOf made for types with no class value, by name.
  llvm::StringMap<NamespaceObj *> typeClasses;
  std::vector<std::shared_ptr<const syntax::SyntaxTree>> siblingTrees;
  /// The package of each of those trees (packageOf).
  llvm::DenseMap<const syntax::SyntaxTree *, std::string> treePackages;
  /// Nesting of code from imported files (ForeignScope); while non-zero,
  /// reports go to foreignAnchor, prefixed with foreignModule.
  unsigned foreignDepth = 0;
  TextRange foreignAnchor;
  llvm::StringRef foreignModule;
  /// Top-level statements that bind each global name (lazy resolution).
  llvm::DenseMap<llvm::StringRef, llvm::SmallVector<Node, 1>> globalDefs;
  llvm::DenseSet<llvm::StringRef> resolvingGlobals;
  /// Loads of names that no scope binds (NameCheck.cpp), reported as
  /// warnings at the end unless evaluation reached them.
  llvm::SmallVector<Node, 4> undefinedNames;
  /// Names some statement of the file binds, in any scope (NameCheck.cpp;
  /// shared by the slices of one file, EvalOptions::fileNames).
  std::shared_ptr<const FileNames> fileNames;
  /// Modules imported with `from M import *` that are opaque.
  bool hasOpaqueStarImport = false;
  /// TileLang modules imported with `from M import *`
  /// (`from tilelang.autotuner import *`): their names tlc knows
  /// (`autotune`) resolve to the builtins, the rest stay opaque.
  llvm::SmallVector<std::string, 2> tileLangStarImports;

  PendingException pending;
  Value returnValue;
  uint64_t steps = 0;
  /// The thread's CPU seconds (tlc::threadCpuSeconds) when the first step
  /// ran: the time budget's start.
  double startSeconds = 0;
  /// True once a budget stopped evaluation: the file's (for good), or the
  /// traced instance's (until InstanceBudget::finish()).
  bool budgetExhausted = false;
  /// The budgets of one traced kernel instance: half the file's steps,
  /// time and memory, counted from the instance's start. Over one, the
  /// instance stops with an error naming the budget and the file goes on
  /// with its other instances. Nested instances each have their own.
  class InstanceBudget {
  public:
    explicit InstanceBudget(Interpreter &in);
    ~InstanceBudget();
    /// Ends the instance: evaluation resumes when this instance's budget
    /// (not the file's) stopped it.
    void finish();
    /// The budget \p in's current instance has spent, or "".
    static std::string spent(Interpreter &in);
    /// Records that this instance's budget stopped evaluation.
    void markExhausted() { exhausted = true; }

  private:
    Interpreter &in;
    InstanceBudget *outer;
    uint64_t startSteps;
    double startSeconds;
    uint64_t startBytes;
    bool exhausted = false;
    bool finished = false;
  };
  InstanceBudget *instanceBudget = nullptr;
  unsigned callDepth = 0;
  /// Enclosing user-function calls (for instance labels).
  llvm::SmallVector<std::pair<FunctionObj *, CallArgs *>, 8> callStack;
  /// The jit instance whose factory is running: its kernel name, label and
  /// what its decorator asks of the build.
  struct JitFrame {
    std::string kernel, label;
    BuildConfigs build;
    /// The decorator's target, unless none or --target was given.
    std::optional<TargetInfo> target;
  };
  llvm::SmallVector<JitFrame, 2> jitContext;
  /// The eager @jit functions whose bodies are being traced, outermost
  /// first: a call of one of them from its own trace is a recursion
  /// TileLang never finishes.
  llvm::SmallVector<JitFunctionObj *, 2> eagerTraces;
  /// Owned instance contexts.
  std::vector<std::unique_ptr<InstanceCtx>> instances;

  /// True while executing traced code (prim_func/eager body, macro):
  /// `for ... in range(...)` builds IR loops there.
  bool traced = false;
  /// Current instance / kernel / loops while tracing.
  InstanceCtx *instance = nullptr;
  KernelCtx *kernel = nullptr;
  llvm::SmallVector<LoopCtx, 8> loops;
  /// For each loop the interpreter expands (a Python `for` over values, a
  /// `while` on a condition known at trace time) it is executing, innermost
  /// last: the number of IR loops around it. A `break`/`continue` under a
  /// condition on kernel data whose innermost loop is one of these has no
  /// loop to leave at run time.
  llvm::SmallVector<size_t, 4> expandedLoops;
  /// The T.comm_reducer objects of the enclosing `with T.attr(reducer,
  /// "reduce_scope", ...)` frames, innermost last (T.tvm_thread_allreduce).
  llvm::SmallVector<Value, 1> reduceScopes;
  /// The number of enclosing `with T.attr(..., "async_scope", ...)` frames:
  /// global-to-shared copies in them are cp.async (tile.async_copy).
  unsigned asyncScopes = 0;
  /// Jit functions and prim-func factories seen, for default instances.
  llvm::SmallVector<Value, 8> kernelsSeen;
  /// Kernel name -> traced labels.
  llvm::StringMap<llvm::SmallVector<std::string, 2>> tracedLabels;
  /// closureLabel: the closure values of each definition that made an
  /// instance, by kernel name and label.
  llvm::StringMap<llvm::SmallVector<std::string, 1>> closureSignatures;
  /// Call signatures (KernelCalls.cpp): of traced prim_funcs, of the
  /// compiled kernels made from them, and the dtypes torch factories gave
  /// tensors with `dtype=`. Keys are arena objects, never freed.
  std::vector<std::unique_ptr<KernelSig>> kernelSigs;
  llvm::DenseMap<const Obj *, KernelSig *> primFuncSigs, compiledKernels;
  /// The kernels `tilelang.compile(..., execution_backend=B)` built for a
  /// backend B other than tvm_ffi (its default): their adapters keep a
  /// dynamic_symbolic_map (getAttr).
  llvm::DenseSet<const Obj *> nonFfiKernels;
  llvm::DenseMap<const Obj *, lang::DType> torchDTypes;
  /// torch's default floating dtype (`torch.set_default_dtype`): what
  /// torch.randn / empty / zeros ... make without `dtype=`.
  lang::DType torchDefaultDType = lang::DType(lang::ScalarType::Float32);
  /// The `sids=` of each T.MixedKernel frame (KernelFrames.cpp).
  llvm::DenseMap<const Obj *, int64_t> mixedKernelSids;
  /// Kernels --kernel passed over: the names a --kernel could have chosen.
  llvm::StringSet<> filteredKernels;
  /// Diagnostics already reported (range begin, message hash) for dedup.
  llvm::DenseSet<std::pair<uint32_t, unsigned>> reported;
  /// Kind (tile::SymbolKind) of every named symbol created so far.
  llvm::StringMap<int> symbolKinds;
  /// The last unique id a T.dynamic symbol got (isDynamicDecl), counting
  /// down from -1.
  int64_t lastDynamicSymbol = 0;
  /// Top-level functions that were running when an instance began (a
  /// factory returning an inner function's prim_func, `return
  /// kernel_func(block_M)`): the program called them, so
  /// traceDefaultInstances makes no instance of them with symbols.
  llvm::StringSet<> factoriesRun;
  /// Enclosing `with T.If(...)` frames: the tile.if op (null when the
  /// condition was known while tracing) and the known truth.
  struct TIRIf {
    mlir::Operation *op;
    bool known;
  };
  llvm::SmallVector<TIRIf, 2> tirIfs;
  /// Last KernelCtx::id handed out.
  uint32_t lastKernelId = 0;
  /// Counter for unique names of symbols.
  unsigned nextLoopVar = 0;
};

} // namespace tlc::eval

#endif // TLC_LIB_EVAL_INTERPRETER_H
