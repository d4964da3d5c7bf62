//===- DialectKeywords.cpp - Backend keyword hints of the language modules ===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Newer TileLang splits its tile language into a target-neutral surface
// (`tilelang.language.common`, which the CPU, Metal and WebGPU modules
// use as is) and per-backend modules whose tile ops add that backend's
// knobs as keywords: the CUDA module (the default `tilelang.language`)
// adds TMA, cache and scheduling hints, the ROCm module adds T.gemm's
// k_pack. tlc models every module as one `tilelang.language` whose
// builtins take the union; a builtin read from a narrower module refuses
// the keywords that module does not declare, with Python's TypeError at
// the keyword, as TileLang's functions do.
//
// T.gemm's k_pack (where a module declares it) must be an int (else
// TypeError) equal to 1 or 2 (else ValueError), as TileLang checks it. The default module still takes k_pack: older TileLang
// declared it there and public AMD programs written with
// `import tilelang.language as T` pass it; only the explicit
// `tilelang.cuda.language` refuses it, as newer TileLang's CUDA dialect
// does.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

using namespace tlc;
using namespace tlc::eval;

/// The keywords the CUDA module's version of builtin \p name adds to the
/// neutral one.
static llvm::ArrayRef<llvm::StringRef> cudaOnlyKeywords(llvm::StringRef name) {
  static const llvm::StringRef copy[] = {"disable_tma", "eviction_policy",
                                         "prefer_instruction"};
  static const llvm::StringRef im2col[] = {"eviction_policy"};
  static const llvm::StringRef gemm[] = {"mbar"};
  static const llvm::StringRef gemmSp[] = {"wg_wait"};
  static const llvm::StringRef atomicAdd[] = {"use_tma"};
  static const llvm::StringRef parallel[] = {"prefer_async"};
  static const llvm::StringRef unroll[] = {"unroll_factor"};
  return llvm::StringSwitch<llvm::ArrayRef<llvm::StringRef>>(name)
      .Case("T.copy", copy)
      .Cases("T.im2col", "T.c2d_im2col", im2col)
      .Case("T.gemm", gemm)
      .Case("T.gemm_sp", gemmSp)
      .Case("T.atomic_add", atomicAdd)
      .Case("T.Parallel", parallel)
      .Cases({"T.unroll", "T.Unroll", "T.serial", "T.Serial"}, unroll)
      .Default({});
}

std::optional<Value> Interpreter::checkDialectKeywords(Value callee,
                                                       CallArgs &args,
                                                       Node at) {
  const lang::BuiltinInfo &info = *callee.getPrimitive();
  auto dialect = LanguageDialect(callee.getDialect());
  llvm::StringRef name = info.name;
  // The name Python reports: the function's own (`copy`, `Parallel`).
  llvm::StringRef shortName = name.rsplit('.').second;
  bool isGemm = name == "T.gemm";
  for (size_t k = 0; k < args.kw.size(); ++k) {
    llvm::StringRef kw = args.kw[k].first;
    Node where = k < args.kwNodes.size() ? args.kwNodes[k] : at;
    bool refused = false;
    if (dialect == LanguageDialect::Common ||
        dialect == LanguageDialect::Rocm)
      refused = llvm::is_contained(cudaOnlyKeywords(name), kw) ||
                (isGemm && kw == "k_pack" &&
                 dialect == LanguageDialect::Common);
    else if (dialect == LanguageDialect::Cuda)
      refused = isGemm && kw == "k_pack";
    if (refused)
      return raise("TypeError",
                   shortName + "() got an unexpected keyword argument '" + kw +
                       "'",
                   where);
    if (isGemm && kw == "k_pack") {
      Value v = args.kw[k].second;
      if (v.isAbrupt())
        return v;
      // A symbolic or opaque value is an int only known at run time.
      if (v.is(ValueKind::Sym) || v.is(ValueKind::Opaque))
        continue;
      // TileLang's two errors: TypeError for a value that is not an int
      // (bool included), ValueError for an int other than 1 and 2.
      if (!v.isInt())
        return raise("TypeError",
                     "T.gemm k_pack must be an int equal to 1 or 2, got " +
                         toString(v, true) + " (" + v.getTypeName() + ")",
                     where);
      if (v.getInt() != 1 && v.getInt() != 2)
        return raise("ValueError",
                     "T.gemm k_pack must be 1 or 2, got " +
                         std::to_string(v.getInt()),
                     where);
    }
  }
  return std::nullopt;
}
