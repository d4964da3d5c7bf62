//===- Builtins.h - TileLang builtin registry -------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The single source of truth for the TileLang surface that tlc knows: every
// `T.*` primitive (tilelang.language) and the `tilelang.*` helpers a program
// uses (`tilelang.jit`, `tilelang.compile`, `tilelang.cdiv`, ...), with their
// Python parameter lists, a one-line signature, a short doc text and whether
// tlc implements them. The evaluator uses it for arity/keyword checks and the
// "not supported by tlc" diagnostic; the language server for hover and
// signature help. The table itself is Builtins.def; dtype attributes
// (`T.float16`, `T.half`, `T.float16x2`) are generated from DType.def.
//
// Names are stored qualified: `T.copy` for tilelang.language members and
// `tilelang.jit` for the top-level package. Resolving import aliases (`T`,
// `tl`, `from tilelang import jit`) to these spellings is the caller's job.
//
// Thread-safety: the registry is built once on first use (thread-safe static
// initialisation) and is immutable afterwards; all functions here may be
// called from any thread.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LANG_BUILTINS_H
#define TLC_LANG_BUILTINS_H

#include "tlc/Lang/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tlc {
namespace lang {

/// Identifies one row of Builtins.def (entries and aliases).
enum class BuiltinId : uint16_t {
#define TLC_BUILTIN(Id, ...) Id,
#define TLC_ALIAS(Id, ...) Id,
#include "tlc/Lang/Builtins.def"
  /// Shared by every generated dtype attribute entry (`T.float16`, ...);
  /// BuiltinInfo::dtype tells which.
  DTypeAttribute,
};

/// How a builtin is used syntactically.
enum class BuiltinKind : uint8_t {
  /// Called as an expression or statement: `T.copy(a, b)`.
  Function,
  /// Entered with `with`: `with T.Kernel(...) as bx:`.
  ContextManager,
  /// Iterated by `for`: `for i in T.Parallel(n):`.
  Loop,
  /// Used as a decorator, bare or called: `@T.prim_func`, `@tilelang.jit(...)`.
  Decorator,
  /// A value read as an attribute (`T.float16`, `T.GemmWarpPolicy.FullRow`);
  /// may also be callable (dtypes make typed constants).
  Value,
  /// A type used in annotations, callable or subscriptable:
  /// `T.Tensor((M, K), dtype)`, `T.Tensor[(M, K), dtype]`.
  Annotation,
  /// A class whose constructor returns an object (`T.Layout`, `T.Fragment`).
  Class,
  /// A namespace-like enum whose members are Value entries
  /// (`T.GemmWarpPolicy`, `tilelang.PassConfigKey`).
  Namespace,
};

/// What a builtin is about; groups hover docs and completion.
enum class BuiltinCategory : uint8_t {
  Kernel,     ///< Kernel definition: prim_func, macro, Kernel.
  Launch,     ///< Thread/block indices and warp specialisation.
  Type,       ///< Tensor/buffer annotation types and pointers.
  Meta,       ///< Trace-time helpers: const, dynamic, dtype.
  Alloc,      ///< Buffer allocation.
  Loop,       ///< Loop constructs and raw control frames.
  Copy,       ///< Data movement and views.
  Compute,    ///< Tile compute (gemm, fill, clear).
  Reduce,     ///< Tile reductions and scans.
  Atomic,     ///< Atomic memory operations.
  Math,       ///< Scalar math and expression builders.
  Warp,       ///< Warp-level shuffles and votes.
  Sync,       ///< Barriers and synchronisation.
  Debug,      ///< Device print and assert.
  Annotation, ///< Layout/schedule/compiler annotations.
  Layout,     ///< Layout objects and layout constructors.
  DType,      ///< Dtype attributes.
  Jit,        ///< tilelang.jit / compile / autotune and their helpers.
  Intrinsic,  ///< Low-level PTX/TIR intrinsics.
};

/// Whether tlc implements a builtin.
enum class SupportLevel : uint8_t {
  /// The evaluator builds IR for it (or folds it, or accepts it as a no-op
  /// annotation).
  Supported,
  /// Recognised, documented and arity-checked, but using it in a kernel
  /// gives a "not supported by tlc" diagnostic.
  NotSupportedByTlc,
};

/// The kind of one Python parameter.
enum class ParamKind : uint8_t {
  /// Before a `/` marker.
  PositionalOnly,
  /// An ordinary parameter.
  PositionalOrKeyword,
  /// After `*` or `*args`.
  KeywordOnly,
  /// `*args`.
  VarPositional,
  /// `**kwargs`.
  VarKeyword,
};

/// One parameter of a builtin, parsed from its Python parameter list.
struct ParamInfo {
  /// Parameter name without stars (`args` for `*args`).
  llvm::StringRef name;
  /// Default value as source text (`None`, `'shared.dyn'`); empty when the
  /// parameter is required (or is `*args`/`**kwargs`).
  llvm::StringRef defaultText;
  /// Positional/keyword classification.
  ParamKind kind = ParamKind::PositionalOrKeyword;

  /// True when a call may omit the parameter.
  bool isOptional() const {
    return !defaultText.empty() || kind == ParamKind::VarPositional ||
           kind == ParamKind::VarKeyword;
  }
  /// True when the parameter can receive a positional argument.
  bool acceptsPositional() const {
    return kind == ParamKind::PositionalOnly ||
           kind == ParamKind::PositionalOrKeyword;
  }
  /// True when the parameter can be named by a keyword argument.
  bool acceptsKeyword() const {
    return kind == ParamKind::PositionalOrKeyword ||
           kind == ParamKind::KeywordOnly;
  }
};

/// Everything tlc knows about one builtin name. Owned by the registry; the
/// pointers stay valid for the lifetime of the program.
struct BuiltinInfo {
  /// Row identifier.
  BuiltinId id = BuiltinId::DTypeAttribute;
  /// Qualified name as written in programs: `T.copy`, `tilelang.jit`.
  llvm::StringRef name;
  /// Syntactic use.
  BuiltinKind kind = BuiltinKind::Function;
  /// Topic.
  BuiltinCategory category = BuiltinCategory::Kernel;
  /// Implementation status in tlc.
  SupportLevel support = SupportLevel::Supported;
  /// The Python parameter list as source text, without parentheses
  /// (`src, dst, *, coalesced_width=None`). Empty for values and bare
  /// decorators.
  llvm::StringRef paramText;
  /// What a call returns, for hover (`Buffer`, `PrimExpr`); empty if None.
  llvm::StringRef returns;
  /// One to three sentences of documentation.
  llvm::StringRef doc;
  /// One-line signature for hover/signature help:
  /// `T.copy(src, dst, *, coalesced_width=None, ...)`,
  /// `T.alloc_shared(shape, dtype, scope='shared.dyn') -> Buffer`,
  /// `@T.prim_func`, `T.float16: dtype`.
  llvm::StringRef signature;
  /// The parsed parameters, in order.
  llvm::ArrayRef<ParamInfo> params;
  /// For an alias (`T.Serial`), the canonical entry (`T.serial`); null
  /// otherwise.
  const BuiltinInfo *aliasOf = nullptr;
  /// True for deprecated spellings (`T.symbolic`, `T.Buffer`).
  bool deprecated = false;
  /// For dtype attribute entries, the dtype they denote.
  std::optional<DType> dtype;

  /// The unqualified name (`copy` for `T.copy`, `FullRow` for
  /// `T.GemmWarpPolicy.FullRow`).
  llvm::StringRef getShortName() const;
  /// True when tlc implements the builtin.
  bool isSupported() const { return support == SupportLevel::Supported; }
  /// The canonical entry: aliasOf if set, else this.
  const BuiltinInfo &getCanonical() const { return aliasOf ? *aliasOf : *this; }
  /// Index of the parameter named \p paramName (which must accept
  /// keywords or be positional-only), or -1.
  int findParam(llvm::StringRef paramName) const;
};

/// Looks up a qualified builtin name: `T.copy`, `T.GemmWarpPolicy.FullRow`,
/// `T.float16x2`, `tilelang.jit`, `tilelang.math.next_power_of_2`. The
/// prefixes `tilelang.language.` and `tilelang.cuda.language.` are accepted
/// as spellings of `T.`. Returns null for unknown names.
const BuiltinInfo *lookupBuiltin(llvm::StringRef qualifiedName);

/// The entry of a Builtins.def row. \p id must not be DTypeAttribute.
const BuiltinInfo &getBuiltin(BuiltinId id);

/// Every entry (table rows, aliases and generated dtype attributes), in a
/// stable order: Builtins.def order, then dtypes.
llvm::ArrayRef<BuiltinInfo> getAllBuiltins();

/// Entries whose qualified name is `prefix` + one more component, e.g.
/// all `T.*` members for prefix `T`, or the members of `T.GemmWarpPolicy`.
llvm::SmallVector<const BuiltinInfo *, 0>
getBuiltinMembers(llvm::StringRef prefix);

/// Lower-case name of a category (`alloc`, `copy`), for hover and tests.
llvm::StringRef getCategoryName(BuiltinCategory category);

/// Lower-case name of a kind (`function`, `context manager`).
llvm::StringRef getKindName(BuiltinKind kind);

/// The diagnostic text for using an unsupported builtin:
/// `'T.tma_copy' is not supported by tlc`.
std::string getNotSupportedMessage(const BuiltinInfo &info);

//===----------------------------------------------------------------------===//
// Matching call arguments against a parameter list
//===----------------------------------------------------------------------===//

/// Where one parameter gets its value from in a matched call.
struct ParamBinding {
  enum class Source : uint8_t {
    /// Positional argument `index`.
    Positional,
    /// Keyword argument `index` (index into the call's keyword list).
    Keyword,
    /// The parameter's default.
    Default,
    /// `*args`: positional arguments `index` .. end collected.
    VarPositional,
    /// `**kwargs`: see ArgumentMatch::extraKeywords.
    VarKeyword,
    /// No value (only in a failed match).
    Missing,
  };
  /// Origin of the value.
  Source source = Source::Missing;
  /// Argument index for Positional/Keyword/VarPositional.
  unsigned index = 0;
};

/// The argument that a matching error is about, so the caller can point
/// its diagnostic at it (the whole call when Kind is None).
struct ArgumentRef {
  enum class Kind : uint8_t { None, Positional, Keyword };
  /// Which list `index` refers to.
  Kind kind = Kind::None;
  /// Index into the positional or keyword arguments of the call.
  unsigned index = 0;
};

/// Result of matching a call against a BuiltinInfo.
struct ArgumentMatch {
  /// One binding per BuiltinInfo::params entry.
  llvm::SmallVector<ParamBinding, 8> bindings;
  /// Indices of keyword arguments collected by `**kwargs`.
  llvm::SmallVector<unsigned, 2> extraKeywords;
  /// Empty on success; otherwise a Python-style message such as
  /// `T.copy() got an unexpected keyword argument 'foo'`.
  std::string error;
  /// The offending argument when `error` is set.
  ArgumentRef errorArg;

  /// True when the call matches the parameter list.
  bool succeeded() const { return error.empty(); }
};

/// Matches a call with \p numPositional positional arguments and keyword
/// arguments named \p keywords (in call order) against \p info's parameters,
/// like CPython binds arguments. Starred call arguments must be expanded by
/// the caller first. \p displayName replaces info.name in messages when not
/// empty (e.g. to report the spelling the user wrote). Messages:
///   `T.gemm() missing required argument 'C'`
///   `T.gemm() missing required arguments 'B' and 'C'`
///   `T.tma_copy() missing required keyword-only argument 'barrier'`
///   `T.copy() takes at most 2 positional arguments (3 given)`
///   `T.sync_threads() takes no positional arguments (1 given)` (never for a
///       function with parameters; shown for the shape)
///   `T.copy() got an unexpected keyword argument 'foo'`
///       (+ `; did you mean 'dst'?` when one parameter name is close)
///   `T.copy() got multiple values for argument 'src'`
///   `T.f() got positional-only argument 'x' passed as keyword`
ArgumentMatch matchArguments(const BuiltinInfo &info, unsigned numPositional,
                             llvm::ArrayRef<llvm::StringRef> keywords,
                             llvm::StringRef displayName = {});

/// Parses a Python parameter list (`a, b=1, *, c=None, **kw`) into \p out.
/// The StringRefs point into \p text. Returns false (leaving \p out
/// partially filled) if the text is malformed. Exposed for tests.
bool parseParamList(llvm::StringRef text,
                    llvm::SmallVectorImpl<ParamInfo> &out);

} // namespace lang
} // namespace tlc

#endif // TLC_LANG_BUILTINS_H
