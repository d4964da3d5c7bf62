//===- Value.h - Trace-time values of the staged interpreter ----*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The values the evaluator computes. Python values (int, float, str, tuple,
// list, dict, functions ...) fold at trace time; IR values (scalar
// expressions, buffers, regions) stand for Tile IR that the evaluator builds.
//
// A Value is 16 bytes: a kind and an inline payload (bool, int64, double,
// dtype, symbolic expression) or a pointer to an object allocated in the
// session's Heap. Objects are never freed individually: a session (one file
// analysis) frees everything at once, so there is no per-node heap churn and
// no reference counting in hot paths.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_EVAL_VALUE_H
#define TLC_EVAL_VALUE_H

#include "tlc/Eval/BuildConfigs.h"
#include "tlc/Eval/SymExpr.h"
#include "tlc/Lang/Builtins.h"
#include "tlc/Lang/DType.h"
#include "tlc/Lang/Scope.h"
#include "tlc/Support/Diagnostic.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"

#include <cstdint>
#include <vector>

namespace tlc::eval {

/// Discriminates a Value.
enum class ValueKind : uint8_t {
  /// The result of an error that was already reported; absorbs every
  /// operation silently so one mistake gives one diagnostic.
  Poison,
  /// A Python exception is propagating (see Interpreter::pendingException).
  Exception,
  None,
  Bool,
  Int,
  /// A Python int outside the signed 64-bit range (a BigIntObj); values
  /// inside it are always Int.
  BigInt,
  Float,
  Str,
  Ellipsis,
  Tuple,
  List,
  Dict,
  /// A set or frozenset (a SetObj).
  Set,
  Range,
  Slice,
  /// A user function or lambda.
  Function,
  /// A native function of the interpreter (Python builtins, math, ...).
  NativeFn,
  /// A T.* / tilelang.* entry of the TLCLang registry.
  Primitive,
  /// A module (or package) the interpreter knows by name.
  Module,
  /// An unknown object (torch, numpy, file I/O ...).
  Opaque,
  /// A TileLang dtype.
  DType,
  /// A symbolic integer (unbound meta parameter, T.const, T.dynamic).
  Sym,
  /// An IR scalar expression.
  Expr,
  /// An IR buffer (tensor parameter or allocation).
  Buffer,
  /// A buffer region (slices) or element reference (all indices scalar).
  Region,
  /// Any other interpreter object (see ObjKind).
  Object,
};

/// Kinds of generic interpreter objects (ValueKind::Object).
enum class ObjKind : uint8_t {
  BoundMethod,  ///< A method of a value: `lst.append`, `parser.add_argument`.
  Partial,      ///< functools.partial(fn, *args, **kw).
  JitFunction,  ///< A function decorated with tilelang.jit / autotune.
  PrimFunc,     ///< A traced @T.prim_func.
  Macro,        ///< A @T.macro function.
  KernelFrame,  ///< The result of T.Kernel(...), entered by `with`.
  LoopFrame,    ///< T.Parallel/Pipelined/serial/unroll/vectorized(...).
  ArgParser,    ///< argparse.ArgumentParser.
  Namespace,    ///< An attribute bag (argparse.Namespace, SimpleNamespace).
  Layout,       ///< A layout object (T.Layout, make_swizzled_layout, ...).
  EnumMember,   ///< A member of a registry namespace (GemmWarpPolicy.FullRow).
  Class,        ///< A user class (attributes only).
  Instance,     ///< An instance of a user class.
  GenericFrame, ///< Another `with` frame (T.ws, T.If, T.attr ...).
  TensorType,   ///< T.Tensor(shape, dtype) used as a type (a BufferObj).
  Exception,    ///< An exception object (a NamespaceObj named by type).
  DictView,     ///< dict.keys() / values() / items() (a DictViewObj).
  Super,        ///< The result of super() (a SuperObj).
  Iterator,     ///< iter(x): the values of x and how many were read.
};

struct Obj;
struct StrObj;
struct SeqObj;
struct DictObj;
struct SetObj;
struct RangeObj;
struct SliceObj;
struct FunctionObj;
struct ModuleObj;
struct OpaqueObj;
struct ExprObj;
struct BufferObj;
struct RegionObj;

/// A trace-time value. Trivially copyable; 16 bytes.
class Value {
public:
  /// None.
  Value() : kind(ValueKind::None) { payload.i = 0; }

  static Value none() { return Value(); }
  static Value poison() { return make(ValueKind::Poison); }
  static Value exception() { return make(ValueKind::Exception); }
  static Value ellipsis() { return make(ValueKind::Ellipsis); }
  static Value boolean(bool b) {
    Value v = make(ValueKind::Bool);
    v.payload.b = b;
    return v;
  }
  static Value integer(int64_t i) {
    Value v = make(ValueKind::Int);
    v.payload.i = i;
    return v;
  }
  static Value floating(double d) {
    Value v = make(ValueKind::Float);
    v.payload.f = d;
    return v;
  }
  static Value dtype(lang::DType t) {
    Value v = make(ValueKind::DType);
    v.payload.dt.scalar = static_cast<uint8_t>(t.getScalarType());
    v.payload.dt.lanes = t.getLanes();
    return v;
  }
  static Value sym(SymExpr e) {
    Value v = make(ValueKind::Sym);
    v.payload.sym = e.getNode();
    return v;
  }
  /// A TileLang builtin, read from the language module \p dialect
  /// (LanguageDialect: which backend's `language` module it came from).
  static Value primitive(const lang::BuiltinInfo *info, uint8_t dialect = 0) {
    Value v = make(ValueKind::Primitive);
    v.payload.prim = info;
    v.aux = dialect;
    return v;
  }
  static Value native(uint32_t id) {
    Value v = make(ValueKind::NativeFn);
    v.payload.i = id;
    return v;
  }
  /// A value holding heap object \p o with kind \p k.
  static Value object(ValueKind k, Obj *o) {
    Value v = make(k);
    v.payload.obj = o;
    return v;
  }

  ValueKind getKind() const { return kind; }
  bool is(ValueKind k) const { return kind == k; }
  bool isPoison() const { return kind == ValueKind::Poison; }
  bool isException() const { return kind == ValueKind::Exception; }
  /// Poison or Exception: stop computing with this value.
  bool isAbrupt() const {
    return kind == ValueKind::Poison || kind == ValueKind::Exception;
  }
  bool isNone() const { return kind == ValueKind::None; }
  bool isInt() const { return kind == ValueKind::Int; }
  bool isBool() const { return kind == ValueKind::Bool; }
  bool isFloat() const { return kind == ValueKind::Float; }
  bool isStr() const { return kind == ValueKind::Str; }
  /// Int or Bool (Python bool is an int).
  bool isIntLike() const { return isInt() || isBool(); }
  /// Int, Bool or Float.
  bool isNumber() const { return isIntLike() || isFloat(); }
  /// Tuple or List.
  bool isSequence() const {
    return kind == ValueKind::Tuple || kind == ValueKind::List;
  }
  /// Expr, Region (element reference) or Buffer: values that build IR.
  bool isIR() const {
    return kind == ValueKind::Expr || kind == ValueKind::Buffer ||
           kind == ValueKind::Region;
  }

  bool getBool() const { return payload.b; }
  int64_t getInt() const { return kind == ValueKind::Bool ? payload.b : payload.i; }
  double getFloat() const {
    return kind == ValueKind::Float ? payload.f : double(getInt());
  }
  lang::DType getDType() const {
    return lang::DType(static_cast<lang::ScalarType>(payload.dt.scalar),
                       payload.dt.lanes);
  }
  SymExpr getSym() const { return SymExpr(payload.sym); }
  const lang::BuiltinInfo *getPrimitive() const { return payload.prim; }
  /// For a Primitive: the LanguageDialect of the module it was read from.
  uint8_t getDialect() const { return aux; }
  uint32_t getNativeId() const { return uint32_t(payload.i); }
  Obj *getObj() const { return payload.obj; }
  template <typename T> T *as() const { return static_cast<T *>(payload.obj); }
  /// The ObjKind of an Object value.
  ObjKind getObjKind() const;
  /// True for an Object of kind \p k.
  bool isObj(ObjKind k) const {
    return kind == ValueKind::Object && getObjKind() == k;
  }

  /// Python type name for messages: `int`, `list`, `Buffer`, ...
  llvm::StringRef getTypeName() const;

private:
  static Value make(ValueKind k) {
    Value v;
    v.kind = k;
    return v;
  }
  ValueKind kind;
  /// Primitive values: their LanguageDialect (0 otherwise).
  uint8_t aux = 0;
  union {
    bool b;
    int64_t i;
    double f;
    struct {
      uint8_t scalar;
      uint32_t lanes;
    } dt;
    const SymNode *sym;
    const lang::BuiltinInfo *prim;
    Obj *obj;
  } payload;
};

//===----------------------------------------------------------------------===//
// Heap objects
//===----------------------------------------------------------------------===//

/// Base of every heap object. Objects live until their Heap is destroyed.
struct Obj {
  /// For ValueKind::Object values: which object.
  ObjKind objKind = ObjKind::Namespace;
};

inline ObjKind Value::getObjKind() const { return payload.obj->objKind; }

/// A Python int that does not fit in 64 signed bits: two's complement,
/// as many bits as it needs (Interpreter::makeInt keeps it minimal).
struct BigIntObj : Obj {
  llvm::APInt value;
};

/// A Python str.
struct StrObj : Obj {
  llvm::StringRef text;
};

/// A tuple or list.
struct SeqObj : Obj {
  llvm::SmallVector<Value, 4> elems;
  /// The field names of a named tuple (torch's `(values, indices)`), one
  /// per element; empty for a plain tuple.
  llvm::ArrayRef<llvm::StringLiteral> fieldNames;
};

/// A dict with insertion order; linear lookup (dicts here are small).
struct DictObj : Obj {
  llvm::SmallVector<std::pair<Value, Value>, 4> items;
};

/// A set or frozenset: CPython's open-addressing hash table (setobject.c),
/// so that iteration order, which is table order, is CPython's wherever the
/// element hashes are (Sets.cpp). The table has a power-of-two size of at
/// least 8; removed entries stay as dummies until the table is rebuilt.
struct SetObj : Obj {
  /// A slot of the table.
  struct Entry {
    Value key;
    int64_t hash = 0;
    enum : uint8_t { Empty, Active, Dummy } state = Empty;
  };
  std::vector<Entry> table = std::vector<Entry>(8);
  /// Active entries (`used`) and active plus dummy ones (`fill`).
  size_t used = 0, fill = 0;
  /// Where set.pop() starts looking.
  size_t finger = 0;
  /// True for a frozenset.
  bool frozen = false;

  size_t mask() const { return table.size() - 1; }
};

/// range(start, stop, step).
struct RangeObj : Obj {
  int64_t start = 0, stop = 0, step = 1;
};

/// slice(lower, upper, step); None for absent parts.
struct SliceObj : Obj {
  Value lower, upper, step;
};

class Env;
struct NamespaceObj;

/// A user function, lambda or macro body.
struct FunctionObj : Obj {
  /// FunctionDef or Lambda node.
  syntax::Node def;
  /// The function's name (`<lambda>` for lambdas).
  llvm::StringRef name;
  /// Scope the function was defined in (its closure).
  Env *closure = nullptr;
  /// Defaults of the trailing positional parameters, in order.
  llvm::SmallVector<Value, 4> defaults;
  /// Defaults of keyword-only parameters (Poison when none), in order.
  llvm::SmallVector<Value, 2> kwDefaults;
  /// Flattened parameter list (posonly + args), kw-only, vararg, kwarg.
  llvm::SmallVector<syntax::Node, 6> params;
  llvm::SmallVector<syntax::Node, 2> kwOnly;
  syntax::Node vararg, kwarg;
  /// True for @T.macro (may build IR; inlined at call sites).
  bool isMacro = false;
  /// True for a @T.prim_func definition.
  bool isPrimFunc = false;
  /// The class whose body defined the function (what zero-argument
  /// `super()` starts after); null for other functions.
  NamespaceObj *ownerClass = nullptr;
  /// How the function binds as a class attribute (its decorator).
  enum MethodKind : uint8_t {
    PlainFunction,
    StaticMethod,
    ClassMethod,
    Property
  } methodKind = PlainFunction;
  /// `@pytest.mark.parametrize(names, values)` decorators, outermost first:
  /// Namespace objects with `argnames` and `argvalues`.
  llvm::SmallVector<Value, 1> parametrize;
};

/// A module known by its qualified name (`math`, `tilelang.language`).
struct ModuleObj : Obj {
  llvm::StringRef name;
  /// True for modules the interpreter does not model (torch, numpy ...):
  /// every attribute is opaque.
  bool opaque = false;
  /// The namespace of a module imported from the analysed file's directory
  /// (Modules.cpp); null for the others.
  Env *globals = nullptr;
  /// For such a module that is a package: its directory (empty otherwise).
  llvm::StringRef dir;
  /// For a backend's language module (`tilelang.cpu.language`, ...),
  /// modelled as tilelang.language: which one (LanguageDialect).
  uint8_t dialect = 0;
};

/// The language module a TileLang builtin was read from: each backend's
/// module declares its own keyword hints (DialectKeywords.cpp).
enum class LanguageDialect : uint8_t {
  /// `tilelang.language` (T), the CUDA dialect by default.
  Default = 0,
  /// `tilelang.cuda.language`.
  Cuda,
  /// `tilelang.language.common` and the CPU, Metal and WebGPU modules:
  /// the target-neutral surface.
  Common,
  /// `tilelang.rocm.language`: the neutral surface plus T.gemm's k_pack.
  Rocm,
};

/// An unknown object; remembers a short description for messages and,
/// for tensors made by torch factories, a known shape.
struct OpaqueObj : Obj {
  llvm::StringRef description;
  /// Shape of a torch tensor created with literal sizes (empty if unknown).
  llvm::SmallVector<Value, 4> shape;
  bool hasShape = false;
};

/// An IR scalar expression: an SSA value, its dtype and, for integer index
/// arithmetic, a symbolic form used for extent computations.
struct ExprObj : Obj {
  mlir::Value value;
  lang::DType dtype;
  /// Symbolic form (bx * 128 + i); null when not affine-ish.
  SymExpr sym;
};

/// A buffer: tensor parameter, T.empty output or allocation.
struct BufferObj : Obj {
  llvm::StringRef name;
  llvm::SmallVector<SymExpr, 4> shape;
  lang::DType dtype;
  lang::MemoryScope scope = lang::MemoryScope::Global;
  mlir::Value value;
  /// Where the buffer was declared.
  TextRange range;
  /// Identity of the kernel region it was allocated in (0 for global
  /// buffers).
  uint32_t kernelId = 0;
  /// Total pipeline stages of the innermost T.Pipelined that writes it (for
  /// the shared memory budget); 1 when not multi-buffered.
  int64_t stages = 1;
  /// The element strides of a `T.StridedTensor` (or `T.Buffer(strides=)`)
  /// annotation or parameter, one per dimension; empty when none were
  /// given or they are the dense row-major ones.
  llvm::SmallVector<SymExpr, 4> strides;
  /// For a tensor type (`T.Tensor(shape, dtype)`), the opaque value each
  /// extent tlc cannot evaluate came from (`UQ = q.shape[0]`), one per
  /// dimension (null elsewhere): parameters whose extents are one opaque
  /// value share one symbol.
  llvm::SmallVector<const Obj *, 4> opaqueExtents;
  /// Index of the buffer's hint in FileAnalysis::hints (-1 if none).
  int hintIndex = -1;
  /// A raw-TIR vector let (`b: T.float32x4 = A[0, 0:4]`): a local buffer
  /// holding the value of each of its lanes, which a store to a region of as
  /// many elements (`A[0, 4:8] = b`) writes back lane by lane.
  bool vectorLet = false;
  /// Allocated by T.auto_alloc: `scope` is the one inferred from the
  /// buffer's uses (AutoScope.cpp), and the primitives TileLang's frontend
  /// refuses on a buffer whose scope is still 'auto' (T.reduce_*, T.print)
  /// raise its ValueError.
  bool autoScope = false;
  /// For an Ascend MX scale-factor handle (T.alloc_l0a_sf / T.alloc_l0b_sf):
  /// the L0A / L0B data tile it is bound to; null for other buffers.
  BufferObj *sfDataTile = nullptr;
};

/// A buffer region `A[a:b, c]` or element reference `A[i, j]`.
struct RegionObj : Obj {
  BufferObj *buffer = nullptr;
  /// Start index per dimension (Int, Sym or Expr values).
  llvm::SmallVector<Value, 4> starts;
  /// Extent per dimension; constant 1 for scalar indices.
  llvm::SmallVector<SymExpr, 4> extents;
  /// Per dimension: true when given as a slice (keeps the dimension).
  llvm::SmallVector<bool, 4> sliced;
  /// Per dimension: the slice step of `A[lo:hi:step]` (1 for contiguous
  /// slices and scalar indices). A dimension with step s holds the elements
  /// lo, lo + s, ..., extent of them, like TVM's T.Ramp(lo, s, extent) index.
  llvm::SmallVector<int64_t, 4> steps;
  /// True when every index is a scalar (a BufferLoad / element ref).
  bool isElement = false;
  /// Source range of the subscript expression.
  TextRange range;

  /// The step of dimension \p d (1 where none was given).
  int64_t getStep(unsigned d) const {
    return d < steps.size() ? steps[d] : 1;
  }
  /// True when some dimension has a step other than 1.
  bool isStrided() const {
    return llvm::any_of(steps, [](int64_t s) { return s != 1; });
  }
};

/// A method bound to a receiver.
struct BoundMethodObj : Obj {
  Value self;
  /// Native method id (see NativeId in Interpreter).
  uint32_t method = 0;
  llvm::StringRef name;
};

/// functools.partial.
struct PartialObj : Obj {
  Value fn;
  llvm::SmallVector<Value, 4> args;
  llvm::SmallVector<std::pair<llvm::StringRef, Value>, 2> kwargs;
};

/// A simple attribute bag (argparse.Namespace, user class, instance, enum).
struct NamespaceObj : Obj {
  llvm::StringRef name;
  llvm::SmallVector<std::pair<llvm::StringRef, Value>, 8> attrs;
  /// Class of an instance.
  NamespaceObj *cls = nullptr;
  /// For a class: its bases, as written, and its method resolution order
  /// (C3 linearization, the class first; `object` is left out).
  llvm::SmallVector<NamespaceObj *, 2> bases;
  llvm::SmallVector<NamespaceObj *, 4> mro;
  /// For a class: true when some base is not a user class tlc models (a
  /// torch.nn.Module, an opaque library class): attributes it lacks are
  /// opaque rather than missing.
  bool externalBase = false;
  /// For a `@dataclass` class: its fields in order, inherited ones first.
  llvm::SmallVector<llvm::StringRef, 4> fields;
  /// For a `@dataclass` class: its `field(default_factory=f)` fields.
  llvm::SmallVector<std::pair<llvm::StringRef, Value>, 1> factories;
  bool isDataclass = false;

  /// Looks up \p attr; null when absent.
  Value *find(llvm::StringRef attr) {
    for (auto &kv : attrs)
      if (kv.first == attr)
        return &kv.second;
    return nullptr;
  }
  /// Sets \p attr (adds it when absent).
  void set(llvm::StringRef attr, Value v) {
    if (Value *slot = find(attr))
      *slot = v;
    else
      attrs.push_back({attr, v});
  }
};

/// A live view of a dict: `d.keys()`, `d.values()` or `d.items()`.
struct DictViewObj : Obj {
  enum Which : uint8_t { Keys, Values, Items };
  DictObj *dict = nullptr;
  Which which = Keys;
};

/// `iter(x)`: the values x yielded when iter() was called, and how many of
/// them `next()` and loops have read since (Python's iterator state).
struct IteratorObj : Obj {
  llvm::SmallVector<Value, 8> items;
  size_t pos = 0;
};

/// `super()` (or `super(cls, obj)`): attribute lookups search the method
/// resolution order of \p self's class after \p after.
struct SuperObj : Obj {
  NamespaceObj *after = nullptr;
  /// The instance (or, in a classmethod, the class) methods bind to.
  Value self;
};

/// argparse.ArgumentParser: the defaults of every add_argument.
struct ArgParserObj : Obj {
  llvm::SmallVector<std::pair<llvm::StringRef, Value>, 8> defaults;
};

/// A function wrapped by @tilelang.jit (and optionally @autotune).
struct JitFunctionObj : Obj {
  FunctionObj *fn = nullptr;
  /// `out_idx=` of the decorator (None if absent).
  Value outIdx;
  /// True when the body contains a nested @T.prim_func (lazy factory).
  bool lazy = false;
  /// Autotune configs, when decorated with @tilelang.autotune(configs=...).
  Value autotuneConfigs;
  /// `pass_configs=` and `compile_flags=` of the decorator.
  BuildConfigs build;
  /// `target=` of the decorator as a tlc target (`hip:gfx942`); empty when
  /// absent or "auto".
  std::string target;
};

/// A traced or not-yet-traced prim_func.
struct PrimFuncObj : Obj {
  FunctionObj *fn = nullptr;
  /// Index of the traced instance in the session (-1 if not traced).
  int instance = -1;
};

/// The launch frame returned by T.Kernel(...).
struct KernelFrameObj : Obj {
  llvm::SmallVector<Value, 3> grid;
  llvm::SmallVector<Value, 3> threads;
  syntax::Node call;
  /// T.ClusterKernel: the cluster shape (empty for T.Kernel).
  llvm::SmallVector<int64_t, 3> clusterDims;
  /// T.CUDASourceCodeKernel: the source text or path (empty otherwise).
  llvm::StringRef sourceCode;
};

/// A `with` frame other than T.Kernel: T.ws, T.If/Then/Else, T.Assert,
/// T.sblock, T.attr, T.ws_op (GenericFrame). Which one is `id`.
struct FrameObj : Obj {
  lang::BuiltinId id;
  /// T.If / T.Assert: the condition.
  Value cond;
  /// T.Assert: the message.
  Value msg;
  /// T.ws: the warp-group ids.
  llvm::SmallVector<int64_t, 2> groups;
  syntax::Node call;
};

/// The loop kinds of TileLang.
enum class LoopKind : uint8_t { Serial, Parallel, Pipelined, Unroll, Vectorized };

/// The iterable returned by T.Parallel/T.Pipelined/T.serial/... or range().
struct LoopFrameObj : Obj {
  LoopKind loopKind = LoopKind::Serial;
  /// One (start, stop, step) per loop dimension (Parallel may have many).
  llvm::SmallVector<Value, 3> starts, stops, steps;
  /// T.Pipelined options (`group`: TileLang's runs of statements scheduled
  /// together, PipelineSchedules.cpp).
  int64_t numStages = 0;
  Value order, stage, group;
  /// T.serial / T.unroll(unroll_factor=n): the unroll hint n (tile.for's
  /// unroll_factor); none otherwise.
  std::optional<int64_t> unrollFactor;
  syntax::Node call;
  /// T.Persistent(domain, wave_size, index, group_size): the tile domain,
  /// the tiles per wave, this block's tile in a wave and the group of the
  /// last dimension visited together, clamped to [1, last extent] (empty
  /// domain otherwise).
  llvm::SmallVector<Value, 2> persistentDomain;
  Value waveSize, waveIndex, groupSize;
  /// `for tx in T.thread_binding(n, thread="threadIdx.x")`: the loop
  /// variable is this thread index and the body runs once (None otherwise).
  Value boundIndex;
  /// T.Parallel(loop_layout=F): the `#tile.fragment` of F, which places
  /// the iterations on threads (null otherwise), and the argument.
  mlir::Attribute loopLayout;
  syntax::Node loopLayoutArg;
};

/// A layout object (T.Layout, T.Fragment, tilelang.layout.make_*).
struct LayoutObj : Obj {
  /// The constructor's short name (`Fragment`, `make_swizzled_layout`).
  llvm::StringRef description;
  /// The `#tile.layout` / `#tile.fragment` attribute when tlc evaluated
  /// the index functions; null for constructors that depend on the buffer
  /// and target (they are resolved by layout inference).
  mlir::Attribute attr;
  /// Why `attr` is null for a T.Layout / T.Fragment (empty otherwise).
  std::string whyOpaque;
  /// For a T.Layout that maps two elements to one place: where (`on its
  /// shape`, or the extents of a symbolic shape it was found at); empty
  /// when injective or unknown.
  std::string notInjective;
  /// For a fragment made by `bind_thread_range(begin, extent)`: the block
  /// threads [begin, begin + extent) its thread numbers count from (`attr`
  /// numbers them from 0 within the range, as TileLang's fragments do).
  /// Empty otherwise.
  std::optional<std::pair<int64_t, int64_t>> threadRange;
};

/// A member of a registry namespace, e.g. T.GemmWarpPolicy.FullRow.
struct EnumMemberObj : Obj {
  const lang::BuiltinInfo *info = nullptr;
};

/// Allocates objects for one evaluation session; frees them all at once.
/// Not thread-safe.
class Heap {
public:
  Heap() = default;
  ~Heap();
  Heap(const Heap &) = delete;
  Heap &operator=(const Heap &) = delete;

  /// Constructs a T in the arena; its destructor runs when the heap dies.
  template <typename T, typename... Args> T *make(Args &&...args) {
    T *p = new (allocator.Allocate<T>()) T(std::forward<Args>(args)...);
    if constexpr (!std::is_trivially_destructible_v<T>)
      destructors.push_back({p, [](void *q) { static_cast<T *>(q)->~T(); }});
    return p;
  }
  /// Copies \p s into the arena.
  llvm::StringRef copyString(llvm::StringRef s);

  /// A str value holding a copy of \p s.
  Value str(llvm::StringRef s);
  /// A str value referring to \p s, which must outlive the heap.
  Value strNoCopy(llvm::StringRef s);
  /// A new tuple of \p elems.
  Value tuple(llvm::ArrayRef<Value> elems);
  /// A new list of \p elems.
  Value list(llvm::ArrayRef<Value> elems);
  /// A new empty dict.
  Value dict();
  /// An opaque object described by \p what.
  Value opaque(llvm::StringRef what);
  /// A generic object value of kind \p k.
  Value obj(ObjKind k, Obj *o) {
    o->objKind = k;
    return Value::object(ValueKind::Object, o);
  }
  /// Bytes allocated so far: the arena and the elements of the tuples and
  /// lists made by tuple() and list() (the memory budget counts these).
  size_t getBytesAllocated() const {
    return allocator.getBytesAllocated() + elementBytes;
  }
  /// Counts \p n bytes held outside the arena (a set's table).
  void countBytes(size_t n) { elementBytes += n; }

private:
  llvm::BumpPtrAllocator allocator;
  size_t elementBytes = 0;
  std::vector<std::pair<void *, void (*)(void *)>> destructors;
};

/// The text of a Str value.
inline llvm::StringRef getStr(Value v) { return v.as<StrObj>()->text; }
/// The elements of a Tuple or List value.
inline llvm::ArrayRef<Value> getElems(Value v) {
  return v.as<SeqObj>()->elems;
}

} // namespace tlc::eval

#endif // TLC_EVAL_VALUE_H
