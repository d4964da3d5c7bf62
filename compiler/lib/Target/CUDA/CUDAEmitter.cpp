//===- CUDAEmitter.cpp - Tile IR to CUDA C++ ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA emitter's output (lines, indentation, source map), names, types
// and expressions, and its entry points. Functions, kernels, allocations and
// views are in CUDAEmitterKernel.cpp, statements and control flow in
// CUDAEmitterStatements.cpp, buffer addressing in CUDABufferAccess.cpp,
// scalar arithmetic in CUDAEmitterScalar.cpp, tile operations in
// CUDAEmitterTileOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Dialect/Tile/Transforms/SharedStoragePlan.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FileLineColRange tlc::target::cuda_detail::getFileLoc(Location loc) {
  return tile::getSourceLocation(loc);
}

static bool isSmallFloat(Type t) {
  return t.isF16() || t.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(t);
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

Emitter::Emitter(FuncOp func, const CudaEmitOptions &options)
    : lang(*options.language), ns(options.language->helpers.str()),
      func(func), options(options), currentLoc(func.getLoc()) {}

void Emitter::line(const Twine &text) {
  out.append(indent * 2, ' ');
  out += text.str();
  out += '\n';
  ++lineCount;
  if (FileLineColRange r = getFileLoc(currentLoc)) {
    auto [it, inserted] = fileIndex.try_emplace(r.getFilename().getValue(),
                                                result.files.size());
    if (inserted)
      result.files.push_back(r.getFilename().str());
    artifact::SourceMapEntry e;
    e.generatedLine = lineCount;
    e.fileIndex = it->second;
    e.line = r.getStartLine();
    e.column = r.getStartColumn();
    e.endLine = r.getEndLine();
    e.endColumn = r.getEndColumn();
    result.sourceMap.push_back(e);
  }
}

void Emitter::open(const Twine &text) {
  std::string t = text.str();
  line(t.empty() ? std::string("{") : t + " {");
  ++indent;
}

void Emitter::close(StringRef suffix) {
  --indent;
  line("}" + suffix);
}

void Emitter::beginOp(Operation *op, StringRef what) {
  currentLoc = op->getLoc();
  FileLineColRange r = getFileLoc(op->getLoc());
  if (options.locationComments) {
    std::string where;
    if (r)
      where = (llvm::sys::path::filename(r.getFilename().getValue()) + ":" +
               Twine(r.getStartLine()) + ":" + Twine(r.getStartColumn()))
                  .str();
    line("// " + what + (where.empty() ? "" : "  " + where));
  }
  if (options.lineDirectives && r) {
    // `#line` is not mapped itself: it names the next line.
    out += "#line " + std::to_string(r.getStartLine()) + " \"" +
           r.getFilename().str() + "\"\n";
    ++lineCount;
  }
}

//===----------------------------------------------------------------------===//
// Names, types, expressions
//===----------------------------------------------------------------------===//

std::string Emitter::fresh(StringRef hint) {
  std::string base;
  for (char c : hint)
    base += (isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (base.empty() || isdigit(static_cast<unsigned char>(base[0])))
    base = "v" + base;
  // Names the generated code uses, and C++ keywords (a Python buffer may
  // be called `do`, `new` or `this`: example_mha_bwd_bshd.py's `do`).
  static const char *reserved[] = {
      "int", "float", "double", "half", "char", "long", "short", "tid",
      "smem", "dim3", "min", "max", "float2", "float4", "uint4", "signed",
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch",
      "class", "const", "constexpr", "const_cast", "continue", "decltype",
      "default", "delete", "do", "dynamic_cast", "else", "enum", "explicit",
      "export", "extern", "false", "for", "friend", "goto", "if", "inline",
      "mutable", "namespace", "new", "noexcept", "nullptr", "operator",
      "private", "protected", "public", "register", "reinterpret_cast",
      "return", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try",
      "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "and", "or", "not",
      "xor", "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq",
      "not_eq", "tlc", "std"};
  for (const char *r : reserved)
    if (base == r)
      base += "_";
  std::string name = base;
  for (unsigned i = 1; !usedNames.insert(name).second; ++i)
    name = base + "_" + std::to_string(i);
  return name;
}

std::string Emitter::define(Value v, StringRef hint) {
  StringRef base = hint;
  Location loc = v.getLoc();
  if (auto n = dyn_cast<NameLoc>(loc))
    base = n.getName().getValue();
  else if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto n = dyn_cast<NameLoc>(arg.getLoc()))
      base = n.getName().getValue();
  std::string name = fresh(base);
  names[v] = name;
  return name;
}

std::string Emitter::expr(Value v) {
  // A view of a multi-buffered shared buffer addresses the stage the
  // source's name points to where it is used (a pipelined loop renames the
  // source to the stage it computes on or fills; emitView).
  if (auto view = v.getDefiningOp<ViewOp>();
      view && stagedBuffers.count(view.getSource()))
    if (FailureOr<std::string> t = storageType(
            cast<BufferType>(view.getType()).getElementType(), view);
        succeeded(t))
      return "((" + *t + " *)(" + expr(view.getSource()) + "))";
  auto it = names.find(v);
  if (it != names.end())
    return it->second;
  return "/*unknown value*/0";
}

FailureOr<std::string> Emitter::storageType(Type t, Operation *at) {
  // tfloat32 is stored in 32 bits, as float32 (what mma .tf32 reads).
  if (t.isF32() || t.isTF32())
    return std::string("float");
  if (t.isF64())
    return std::string("double");
  if (t.isF16())
    return ns + "half";
  if (t.isBF16())
    return ns + "bfloat16";
  // fp4 e2m1: one code a byte in registers; shared and global memory
  // hold packed pairs, addressed through tlc::fp4::E2M1Ref (lvalue()).
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType>(t))
    return std::string("uint8_t");
  // AMD's FNUZ fp8 (tilelang's float8_e4m3fnuz, what determine_fp8_type()
  // gives on gfx942): bytes converted by tlc_device/hip/convert.h.
  if (lang.isHip() && isa<Float8E4M3FNUZType, Float8E5M2FNUZType>(t))
    return std::string("uint8_t");
  // float8_e8m0fnu (the MX block scale, an exponent alone): bytes
  // converted by tlc_device/cuda/convert.h as the CPU target does.
  if (!lang.isHip() && isa<Float8E8M0FNUType>(t))
    return std::string("uint8_t");
  if (isa<IndexType>(t))
    return indexType();
  if (auto i = dyn_cast<IntegerType>(t)) {
    unsigned w = i.getWidth();
    if (w == 1)
      return std::string("bool");
    if (w == 8 || w == 16 || w == 32 || w == 64)
      return std::string(i.isUnsigned() ? "uint" : "int") + std::to_string(w) +
             "_t";
    // int4/uint4: one code a byte in registers, packed pairs in shared and
    // global memory (like fp4 e2m1).
    if (w == 4)
      return std::string("uint8_t");
  }
  InFlightDiagnostic diag = at->emitError()
                            << "the " << lang.name
                            << " target does not support element type " << t;
  if (auto v = dyn_cast<VectorType>(t))
    diag << " (TileLang's " << getDTypeName(t)
         << ": buffers of vector elements are not built; use a buffer of "
         << getDTypeName(v.getElementType())
         << " with the lanes as one more innermost dimension)";
  return failure();
}

FailureOr<std::string> Emitter::valueType(Type t, Operation *at) {
  if (isSmallFloat(t))
    return std::string("float");
  // int4/uint4 values are computed in int (fromStorage/toStorage).
  if (t.isInteger(4))
    return std::string("int");
  if (auto i = dyn_cast<IntegerType>(t); i && i.isUnsigned())
    return storageType(IntegerType::get(t.getContext(), i.getWidth()), at);
  return storageType(t, at);
}

std::string Emitter::fromStorage(Type t, StringRef raw) {
  if (t.isF16() || t.isBF16())
    return (Twine(ns) + "toFloat(" + raw + ")").str();
  if (isa<Float8E4M3FNType>(t))
    return (Twine(ns) + "fp8E4M3ToFloat(" + raw + ")").str();
  if (isa<Float8E5M2Type>(t))
    return (Twine(ns) + "fp8E5M2ToFloat(" + raw + ")").str();
  if (isa<Float8E4M3FNUZType>(t))
    return (Twine(ns) + "fp8E4M3FnuzToFloat(" + raw + ")").str();
  if (isa<Float8E5M2FNUZType>(t))
    return (Twine(ns) + "fp8E5M2FnuzToFloat(" + raw + ")").str();
  if (isa<Float8E8M0FNUType>(t))
    return (Twine(ns) + "fp8E8M0ToFloat(" + raw + ")").str();
  if (isa<Float4E2M1FNType>(t))
    return ("tlc::fp4::e2m1ToFloat(" + raw + ")").str();
  if (t.isInteger(4))
    return (Twine(t.isUnsignedInteger() ? "tlc::fp4::uint4FromCode("
                                        : "tlc::fp4::int4FromCode(") +
            raw + ")")
        .str();
  return raw.str();
}

std::string Emitter::toStorage(Type t, StringRef v) {
  if (t.isF16())
    return (Twine(ns) + "toHalf(" + v + ")").str();
  if (t.isBF16())
    return (Twine(ns) + "toBFloat16(" + v + ")").str();
  if (isa<Float8E4M3FNType>(t))
    return (Twine(ns) + "toFp8E4M3(" + v + ")").str();
  if (isa<Float8E5M2Type>(t))
    return (Twine(ns) + "toFp8E5M2(" + v + ")").str();
  if (isa<Float8E4M3FNUZType>(t))
    return (Twine(ns) + "toFp8E4M3Fnuz(" + v + ")").str();
  if (isa<Float8E5M2FNUZType>(t))
    return (Twine(ns) + "toFp8E5M2Fnuz(" + v + ")").str();
  if (isa<Float8E8M0FNUType>(t))
    return (Twine(ns) + "toFp8E8M0(" + v + ")").str();
  if (isa<Float4E2M1FNType>(t))
    return ("tlc::fp4::e2m1FromFloat(" + v + ")").str();
  if (t.isInteger(4))
    return ("tlc::fp4::int4ToCode(" + v + ")").str();
  return v.str();
}

FailureOr<std::string> Emitter::extent(BufferType t, unsigned d,
                                       Operation *at) {
  Dim dim = t.getDim(d);
  if (dim.isStatic())
    return std::to_string(dim.getValue());
  if (dim.isSymbolic())
    return symbolicExpr(dim.getSymbol().getValue(), at, "extent");
  at->emitError() << "the " << lang.name
                  << " target cannot address a buffer with an unknown extent";
  return failure();
}

FailureOr<std::string> Emitter::symbolicExpr(StringRef text, Operation *at,
                                             StringRef what) {
  auto it = symbolNames.find(text);
  if (it != symbolNames.end())
    return it->second;
  // An expression of the kernel's symbols (`M - 64`, `ceildiv(N, 128)`),
  // its divisions and min/max written out.
  auto parsed = artifact::ShapeExpr::parse(text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
  } else {
    std::string s, missing;
    llvm::raw_string_ostream os(s);
    parsed->printInline(os, [&](raw_ostream &o, StringRef name) {
      auto sym = symbolNames.find(name);
      if (sym == symbolNames.end())
        missing = name.str();
      else
        o << sym->second;
    });
    if (missing.empty())
      return "(" + s + ")";
  }
  at->emitError() << "the " << lang.name << " target needs " << what << " '"
                  << text
                  << "' to be an expression of the kernel's symbols";
  return failure();
}

FailureOr<SmallVector<std::string>> Emitter::strides(Value root,
                                                     Operation *at) {
  SmallVector<std::string> out;
  if (ArrayAttr attr = getParamStrides(root)) {
    for (Attribute a : attr) {
      if (auto i = dyn_cast<IntegerAttr>(a)) {
        out.push_back(std::to_string(i.getInt()));
        continue;
      }
      FailureOr<std::string> e =
          symbolicExpr(cast<StringAttr>(a).getValue(), at, "stride");
      if (failed(e))
        return failure();
      out.push_back(*e);
    }
    return out;
  }
  return out;
}

LogicalResult Emitter::extents(BufferType t, Operation *at,
                               SmallVectorImpl<std::string> &shape,
                               std::string &numel) {
  for (unsigned d = 0; d < t.getRank(); ++d) {
    FailureOr<std::string> e = extent(t, d, at);
    if (failed(e))
      return failure();
    shape.push_back(*e);
    numel += (numel.empty() ? "" : " * ") + *e;
  }
  // A rank-0 buffer is one element.
  if (numel.empty())
    numel = "1";
  return success();
}

std::string Emitter::foldResult(OpFoldResult r) {
  if (auto attr = dyn_cast<Attribute>(r))
    return std::to_string(cast<IntegerAttr>(attr).getInt());
  return expr(cast<Value>(r));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// The identifiers of \p text, in order.
static SmallVector<StringRef> identifiers(StringRef text) {
  SmallVector<StringRef> ids;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (llvm::isAlpha(c) || c == '_') {
      size_t j = i + 1;
      while (j < text.size() && (llvm::isAlnum(text[j]) || text[j] == '_'))
        ++j;
      ids.push_back(text.slice(i, j));
      i = j;
    } else if (llvm::isDigit(c)) { // a literal: 1.0f, 0x7f800000, 32ll
      while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '.'))
        ++i;
    } else {
      ++i;
    }
  }
  return ids;
}

/// The name a line `const TYPE NAME = EXPR;` defines (one declarator), or
/// "".
static StringRef definedName(StringRef line) {
  line = line.trim();
  if (!line.consume_front("const ") || !line.ends_with(";"))
    return "";
  size_t eq = line.find(" = ");
  if (eq == StringRef::npos || line.substr(eq + 3).contains(" = "))
    return "";
  StringRef lhs = line.take_front(eq);
  if (lhs.contains(','))
    return "";
  SmallVector<StringRef> ids = identifiers(lhs);
  return ids.size() >= 2 ? ids.back() : "";
}

void Emitter::pruneUnusedDefinitions() {
  SmallVector<StringRef> lines;
  StringRef(out).split(lines, '\n');
  llvm::StringMap<unsigned> uses;
  SmallVector<SmallVector<StringRef>> ids;
  for (StringRef l : lines) {
    ids.push_back(identifiers(l));
    for (StringRef id : ids.back())
      ++uses[id];
  }
  llvm::StringMap<unsigned> definedAt;
  SmallVector<unsigned> work;
  for (auto [i, l] : llvm::enumerate(lines)) {
    StringRef name = definedName(l);
    if (name.empty())
      continue;
    definedAt[name] = i;
    if (uses[name] == 1)
      work.push_back(i);
  }
  // A removed definition may leave the names it used unused in turn.
  std::vector<bool> removed(lines.size(), false);
  while (!work.empty()) {
    unsigned i = work.pop_back_val();
    if (removed[i])
      continue;
    removed[i] = true;
    for (StringRef id : ids[i]) {
      if (--uses[id] != 1)
        continue;
      auto it = definedAt.find(id);
      if (it != definedAt.end() && !removed[it->second])
        work.push_back(it->second);
    }
  }
  if (llvm::none_of(removed, [](bool r) { return r; }))
    return;
  // Keep the lines, and renumber the source map (1-based lines of `out`).
  std::string kept;
  SmallVector<unsigned> newLine(lines.size() + 1, 0);
  unsigned n = 0;
  for (auto [i, l] : llvm::enumerate(lines)) {
    if (removed[i])
      continue;
    newLine[i + 1] = ++n;
    kept += l;
    if (i + 1 < lines.size())
      kept += '\n';
  }
  std::vector<artifact::SourceMapEntry> map;
  for (artifact::SourceMapEntry e : result.sourceMap) {
    if (e.generatedLine == 0 || e.generatedLine > lines.size() ||
        !newLine[e.generatedLine])
      continue;
    e.generatedLine = newLine[e.generatedLine];
    map.push_back(e);
  }
  result.sourceMap = std::move(map);
  out = std::move(kept);
}

CudaKernel Emitter::takeResult() {
  pruneUnusedDefinitions();
  result.source = std::move(out);
  return std::move(result);
}

FailureOr<CudaKernel> tlc::target::emitCudaKernel(FuncOp func,
                                                  const CudaEmitOptions &options) {
  Emitter emitter(func, options);
  if (failed(emitter.emitFunction()))
    return failure();
  CudaKernel kernel = emitter.takeResult();
  std::string header = "// Generated by tlc from " +
                       (kernel.files.empty() ? std::string("Tile IR")
                                             : kernel.files.front()) +
                       "; do not edit.\n#include \"" +
                       options.language->deviceHeader.str() + "\"\n\n";
  unsigned headerLines = 3;
  // The wgmma helpers (one per instruction shape) only where used; after
  // the blank line, so translateModuleToCuda keeps it with its function.
  if (emitter.anyWgmma || emitter.anyTma || emitter.anyGridSync ||
      emitter.anyCluster || emitter.anyTcgen05) {
    if (emitter.anyWgmma)
      header += "#include \"tlc_device/cuda/wgmma.h\"\n";
    if (emitter.anyTma) // TMA copies and mbarriers (tile-plan-tma)
      header += "#include \"tlc_device/cuda/tma.h\"\n";
    if (emitter.anyGridSync) // T.sync_grid (cooperative groups)
      header += "#include \"tlc_device/" +
                std::string(options.language->isHip() ? "hip" : "cuda") +
                "/grid.h\"\n";
    if (emitter.anyCluster) // thread-block clusters (sm_90)
      header += "#include \"tlc_device/cuda/cluster.h\"\n";
    if (emitter.anyTcgen05) // tensor memory, tcgen05.mma (sm_100a)
      header += "#include \"tlc_device/cuda/tcgen05.h\"\n";
    header += "\n";
    headerLines += 1 + int(emitter.anyWgmma) + int(emitter.anyTma) +
                   int(emitter.anyGridSync) + int(emitter.anyCluster) +
                   int(emitter.anyTcgen05);
  }
  // The program's own device source, after every header it may use.
  std::string imported = importedSourceText(func, /*forCpu=*/false);
  header += imported;
  headerLines += llvm::count(imported, '\n');
  for (artifact::SourceMapEntry &e : kernel.sourceMap)
    e.generatedLine += headerLines;
  kernel.source = header + kernel.source;
  return kernel;
}

LogicalResult tlc::target::translateModuleToCuda(ModuleOp module,
                                                 llvm::raw_ostream &os,
                                                 const CudaEmitOptions &options,
                                         llvm::StringRef kernelFilter) {
  if (failed(tile::runGpuLowering(module)))
    return failure();
  bool ok = true, first = true;
  for (FuncOp func : module.getOps<FuncOp>()) {
    if (skipUnbuildable(func, kernelFilter, ok, /*needsKernel=*/true))
      continue;
    FailureOr<CudaKernel> k = emitCudaKernel(func, options);
    if (failed(k)) {
      ok = false;
      continue;
    }
    StringRef source = k->source;
    if (!first) // one #include for the whole text
      source = source.drop_front(source.find("\n\n") + 2);
    os << source;
    first = false;
  }
  return success(ok);
}
