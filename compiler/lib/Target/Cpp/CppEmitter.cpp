//===- CppEmitter.cpp - Tile IR to C++ for the CPU target -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Functions, kernels, allocations, element access, control flow and scalar
// (`arith`, `math`) operations. Tile operations are in CppEmitterTileOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

FileLineColRange tlc::target::detail::getFileLoc(Location loc) {
  return tile::getSourceLocation(loc);
}

bool tlc::target::detail::isSmallFloat(Type t) {
  return t.isF16() || t.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(t);
}

static bool isCppKeyword(StringRef s) {
  static const char *const keywords[] = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case",
      "catch", "char", "class", "const", "continue", "default", "delete", "do",
      "double", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long",
      "mutable", "namespace", "new", "not", "operator", "or", "private",
      "protected", "public", "register", "return", "short", "signed",
      "sizeof", "static", "struct", "switch", "template", "this", "throw",
      "true", "try", "typedef", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "while", "xor", "args", "st", "std",
      "tlc", "main", "exp", "exp2", "log", "sqrt", "max", "min", "abs"};
  for (const char *k : keywords)
    if (s == k)
      return true;
  return false;
}

Emitter::Emitter(tile::FuncOp func, const CppEmitOptions &options)
    : func(func), options(options), currentLoc(func.getLoc()) {}

CppKernel Emitter::takeResult() {
  result.source = std::move(out);
  return std::move(result);
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

void Emitter::line(const Twine &text) {
  ++lineCount;
  if (FileLineColRange r = getFileLoc(currentLoc)) {
    StringRef file = r.getFilename().getValue();
    auto [it, inserted] = fileIndex.try_emplace(file, result.files.size());
    if (inserted)
      result.files.push_back(file.str());
    result.sourceMap.push_back({lineCount, it->second, r.getStartLine(),
                                r.getStartColumn(), r.getEndLine(),
                                r.getEndColumn()});
  }
  out.append(2 * indent, ' ');
  out += text.str();
  out += '\n';
}

void Emitter::open(const Twine &text) {
  line(text + " {");
  ++indent;
}

void Emitter::close(StringRef suffix) {
  --indent;
  line("}" + suffix);
}

void Emitter::comment(Operation *op, StringRef what) {
  if (!options.locationComments)
    return;
  std::string loc;
  if (FileLineColRange r = getFileLoc(op->getLoc()))
    loc = (llvm::sys::path::filename(r.getFilename().getValue()) + ":" +
           Twine(r.getStartLine()) + ":" + Twine(r.getStartColumn()))
              .str();
  line("// " + what + (loc.empty() ? "" : "  (" + loc + ")"));
}

std::string Emitter::locLiteral(Location loc) {
  std::string s = "\"?\"";
  if (FileLineColRange r = getFileLoc(loc)) {
    std::string text = (r.getFilename().getValue() + ":" +
                        Twine(r.getStartLine()) + ":" +
                        Twine(r.getStartColumn()))
                           .str();
    s = "\"";
    for (char c : text) {
      if (c == '"' || c == '\\')
        s += '\\';
      s += c;
    }
    s += "\"";
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Names and types
//===----------------------------------------------------------------------===//

std::string Emitter::fresh(StringRef hint) {
  std::string base;
  for (char c : hint)
    base += (llvm::isAlnum(c) || c == '_') ? c : '_';
  if (base.empty() || llvm::isDigit(base[0]))
    base = "v" + base;
  if (isCppKeyword(base) || StringRef(base).starts_with("__"))
    base += "_";
  std::string name = base;
  for (unsigned i = 1; usedNames.contains(name); ++i)
    name = base + "_" + std::to_string(i);
  usedNames.insert(name);
  return name;
}

std::string Emitter::define(Value v, StringRef hint) {
  std::string h = hint.str();
  if (auto n = dyn_cast<NameLoc>(v.getLoc()))
    h = n.getName().getValue().str();
  std::string name = fresh(h);
  names[v] = name;
  return name;
}

std::string Emitter::expr(Value v) {
  auto it = names.find(v);
  if (it != names.end())
    return it->second;
  return "/*<unemitted value>*/0";
}

std::string Emitter::arith(Value v) {
  if (isSmallFloat(v.getType()))
    return "float(" + expr(v) + ")";
  return expr(v);
}

FailureOr<std::string> Emitter::valueType(Type t, Operation *at) {
  if (t.isIndex())
    return std::string("int64_t");
  if (t.isInteger(1))
    return std::string("bool");
  if (auto it = dyn_cast<IntegerType>(t)) {
    unsigned w = it.getWidth();
    if (w == 8 || w == 16 || w == 32 || w == 64)
      return (it.isUnsigned() ? "uint" : "int") + std::to_string(w) + "_t";
    // int4/uint4: two a byte in memory (tlc::cpu::View's references).
    if (w == 4)
      return std::string(it.isUnsigned() ? "tlc::cpu::u4" : "tlc::cpu::i4");
  }
  if (t.isF32() || t.isTF32())
    return std::string("float");
  if (t.isF64())
    return std::string("double");
  if (t.isF16())
    return std::string("tlc::cpu::f16");
  if (t.isBF16())
    return std::string("tlc::cpu::bf16");
  if (isa<Float8E4M3FNType>(t))
    return std::string("tlc::cpu::f8e4m3");
  if (isa<Float8E5M2Type>(t))
    return std::string("tlc::cpu::f8e5m2");
  if (isa<Float8E4M3FNUZType>(t))
    return std::string("tlc::cpu::f8e4m3fnuz");
  if (isa<Float8E5M2FNUZType>(t))
    return std::string("tlc::cpu::f8e5m2fnuz");
  if (isa<Float8E8M0FNUType>(t))
    return std::string("tlc::cpu::f8e8m0");
  // Two a byte in memory (tlc::cpu::View's element references).
  if (isa<Float4E2M1FNType>(t))
    return std::string("tlc::cpu::f4e2m1");
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  InFlightDiagnostic diag =
      at->emitError() << "the CPU target does not support values of type "
                      << s;
  if (auto v = dyn_cast<VectorType>(t))
    diag << " (TileLang's " << tile::getDTypeName(t)
         << ": buffers of vector elements are not built; use a buffer of "
         << tile::getDTypeName(v.getElementType())
         << " with the lanes as one more innermost dimension)";
  return failure();
}

FailureOr<std::string> Emitter::storageType(Type t, Operation *at) {
  return valueType(t, at);
}

/// The rank of the view a buffer of type \p t gets: a rank-0 tensor or
/// on-chip buffer is a one-element view, addressed as element 0 like on the GPU targets.
static unsigned viewRank(tile::BufferType t) {
  return std::max<unsigned>(t.getRank(), 1);
}

FailureOr<std::string> Emitter::viewType(tile::BufferType t, Operation *at) {
  auto elem = storageType(t.getElementType(), at);
  if (failed(elem))
    return failure();
  return "tlc::cpu::View<" + *elem + ", " + std::to_string(viewRank(t)) + ">";
}

FailureOr<std::string> Emitter::splitExtents(tile::BufferType t,
                                             unsigned dim, Operation *at,
                                             std::vector<std::string> &outer) {
  for (unsigned d = 0; d < t.getRank(); ++d) {
    if (d == dim)
      continue;
    auto e = extent(t, d, at);
    if (failed(e))
      return failure();
    outer.push_back(*e);
  }
  return extent(t, dim, at);
}

FailureOr<std::string> Emitter::extent(tile::BufferType t, unsigned d,
                                       Operation *at) {
  tile::Dim dim = t.getDim(d);
  if (dim.isStatic())
    return std::to_string(dim.getValue());
  if (dim.isUnknown()) {
    at->emitError() << "the CPU target needs every extent of "
                    << t.getShapeString() << " (dimension " << d
                    << " is unknown)";
    return failure();
  }
  return symbolicExpr(dim.getSymbol().getValue(), at, "extent");
}

FailureOr<std::string> Emitter::symbolicExpr(StringRef text, Operation *at,
                                             StringRef what) {
  auto parsed = artifact::ShapeExpr::parse(text);
  if (!parsed) {
    at->emitError() << llvm::toString(parsed.takeError());
    return failure();
  }
  std::string s, missing;
  llvm::raw_string_ostream os(s);
  parsed->printCpp(os, [&](raw_ostream &o, StringRef name) {
    auto it = symbolNames.find(name);
    if (it == symbolNames.end()) {
      missing = name.str();
      o << name;
      return;
    }
    o << it->second;
  });
  if (!missing.empty()) {
    at->emitError() << what << " '" << text << "' uses '" << missing
                    << "', which is not a symbol of the kernel";
    return failure();
  }
  return s;
}

FailureOr<std::string> Emitter::extentList(tile::BufferType t, Operation *at) {
  if (t.getRank() == 0)
    return std::string("{1}");
  std::string s = "{";
  for (unsigned d = 0; d < t.getRank(); ++d) {
    auto e = extent(t, d, at);
    if (failed(e))
      return failure();
    s += (d ? ", " : "") + *e;
  }
  return s + "}";
}

std::string Emitter::foldResult(OpFoldResult r) {
  if (auto v = dyn_cast<Value>(r))
    return expr(v);
  return std::to_string(cast<IntegerAttr>(cast<Attribute>(r)).getInt());
}

Guard Emitter::guardOf(Value buffer) {
  auto t = cast<tile::BufferType>(buffer.getType());
  return t.getScope() == tile::MemoryScope::Global ? Guard::Global
                                                   : Guard::Checked;
}

/// The index list \p items in braces; the one element of a rank-0 buffer
/// (a view of rank 1, viewRank) is index {0}.
static std::string braced(ArrayRef<std::string> items) {
  if (items.empty())
    return "{0}";
  return "{" + llvm::join(items, ", ") + "}";
}

std::string Emitter::loadExpr(Value buffer, ArrayRef<std::string> indices,
                              Operation *at, Guard guard) {
  std::string idx = braced(indices);
  std::string view = expr(buffer);
  switch (guard) {
  case Guard::Global: {
    // T.annotate_safe_value: reads outside the tensor give its value.
    Value root = buffer;
    while (Operation *def = root.getDefiningOp()) {
      if (auto r = dyn_cast<tile::RegionOp>(def))
        root = r.getSource();
      else if (auto v = dyn_cast<tile::ViewOp>(def))
        root = v.getSource();
      else
        break;
    }
    // T.annotate_padding: reads into a padded buffer give its pad.
    if (auto pad = paddedReads.find(at); pad != paddedReads.end()) {
      auto t = cast<tile::BufferType>(root.getType());
      FailureOr<std::string> st = storageType(t.getElementType(), at);
      std::string literal;
      llvm::raw_string_ostream os(literal);
      os << llvm::format("%.17g", pad->second);
      if (succeeded(st))
        return "tlc::cpu::loadOr(" + view + ", " + idx + ", tlc::cpu::cast<" +
               *st + ">(" + literal + "))";
    }
    auto safe = safeValues.find(root);
    if (safe != safeValues.end())
      return "tlc::cpu::loadOr(" + view + ", " + idx + ", " + safe->second +
             ")";
    return "tlc::cpu::load(" + view + ", " + idx + ")";
  }
  case Guard::Checked:
    return "tlc::cpu::loadChecked(st, " + locLiteral(at->getLoc()) + ", " +
           view + ", " + idx + ")";
  case Guard::None:
    return view + ".at(" + idx + ")";
  }
  llvm_unreachable("unknown guard");
}

std::string Emitter::storeStmt(Value buffer, ArrayRef<std::string> indices,
                               StringRef valueExpr, Operation *at,
                               Guard guard) {
  std::string idx = braced(indices);
  std::string view = expr(buffer);
  switch (guard) {
  case Guard::Global:
    return ("tlc::cpu::store(" + view + ", " + idx + ", " + valueExpr + ");")
        .str();
  case Guard::Checked:
    return ("tlc::cpu::storeChecked(st, " + locLiteral(at->getLoc()) + ", " +
            view + ", " + idx + ", " + valueExpr + ");")
        .str();
  case Guard::None:
    return (view + ".at(" + idx + ") = " + valueExpr + ";").str();
  }
  llvm_unreachable("unknown guard");
}

std::vector<std::string> Emitter::openLoops(ArrayRef<std::string> extents,
                                            StringRef hint) {
  std::vector<std::string> vars;
  for (size_t d = 0; d < extents.size(); ++d) {
    std::string v = fresh((hint + Twine(d)).str());
    vars.push_back(v);
    open("for (int64_t " + v + " = 0; " + v + " < " + extents[d] + "; ++" +
         v + ")");
  }
  return vars;
}

void Emitter::closeLoops(size_t n) {
  for (size_t i = 0; i < n; ++i)
    close();
}

//===----------------------------------------------------------------------===//
// Function and kernels
//===----------------------------------------------------------------------===//

/// Whether scalar parameter \p index of \p func is a `T.ptr` address the
/// body views once with T.make_tensor (KernelInterface.cpp's
/// getPointerView, the rule the manifest describes it by): the runtime
/// passes such a parameter as a tensor, by address.
static bool isPointerParam(tile::FuncOp func, unsigned index) {
  Block &body = func.getBody().front();
  if (index >= body.getNumArguments())
    return false;
  BlockArgument arg = body.getArgument(index);
  if (!isa<IntegerType>(arg.getType()) || !arg.hasOneUse())
    return false;
  Operation *user = *arg.getUsers().begin();
  return isa<tile::MakeTensorOp>(user) && user->getBlock() == &body;
}

LogicalResult Emitter::emitFunction() {
  std::string entry = fresh("tlc_" + func.getSymName().str());
  result.entry = entry;
  result.symbols = collectKernelSymbols(func);
  Block &body = func.getBody().front();
  auto argTypes = func.getArgumentTypes();

  currentLoc = func.getLoc();
  line("// Kernel instance @" + func.getSymName() + " (CPU reference target).");
  open("extern \"C\" int " + entry + "(const tlc_cpu_args *args)");
  line("if (!tlc::cpu::checkArgs(args, " + Twine(argTypes.size()) + ", " +
       Twine(result.symbols.size()) + "))");
  line("  return 1;");
  line("tlc::cpu::Status st;");
  line("st.message = args->error;");
  line("st.size = args->errorSize;");
  for (auto [i, sym] : llvm::enumerate(result.symbols)) {
    std::string name = fresh(sym);
    symbolNames[sym] = name;
    line("const int64_t " + name + " = args->symbols[" + Twine(i) + "];");
  }
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    currentLoc = arg.getLoc();
    std::string name = fresh(getParamName(func, i));
    names[arg] = name;
    Operation *at = func;
    if (auto bt = dyn_cast<tile::BufferType>(arg.getType())) {
      auto view = viewType(bt, at);
      auto elem = storageType(bt.getElementType(), at);
      auto shape = extentList(bt, at);
      if (failed(view) || failed(elem) || failed(shape))
        return failure();
      std::string data = "static_cast<" + *elem + " *>(args->params[" +
                         std::to_string(i) + "])";
      // A parameter with `tile.strides` (a transposed or padded view) is
      // addressed with them; every other one is dense row-major.
      if (ArrayAttr strides = tile::getParamStrides(arg);
          strides && int64_t(strides.size()) == bt.getRank() &&
          bt.getRank() > 0) {
        std::string list;
        for (Attribute a : strides) {
          std::string st;
          if (auto c = dyn_cast<IntegerAttr>(a)) {
            st = std::to_string(c.getInt());
          } else {
            FailureOr<std::string> e =
                symbolicExpr(cast<StringAttr>(a).getValue(), at, "stride");
            if (failed(e))
              return failure();
            st = *e;
          }
          list += (list.empty() ? "" : ", ") + st;
        }
        line("const " + *view + " " + name + " = tlc::cpu::stridedView<" +
             *elem + ", " + Twine(viewRank(bt)) + ">(" + data + ", " + *shape +
             ", {" + list + "});");
        continue;
      }
      line("const " + *view + " " + name + " = tlc::cpu::denseView<" + *elem +
           ", " + Twine(viewRank(bt)) + ">(" + data + ", " + *shape + ");");
      continue;
    }
    auto t = valueType(arg.getType(), at);
    if (failed(t))
      return failure();
    if (isPointerParam(func, i)) {
      // A `T.ptr` parameter: the runtime passes the tensor's address.
      line("const " + *t + " " + name + " = reinterpret_cast<" + *t +
           ">(args->params[" + Twine(i) + "]);");
      continue;
    }
    line("const " + *t + " " + name + " = *static_cast<const " + *t +
         " *>(args->params[" + Twine(i) + "]);");
  }
  if (failed(emitBlock(body)))
    return failure();
  currentLoc = func.getLoc();
  line("return st.hasFailed() ? 1 : 0;");
  close();
  return success();
}

LogicalResult Emitter::emitKernel(tile::KernelOp op) {
  if (inKernel)
    return op.emitError("the CPU target cannot emit a T.Kernel nested in "
                        "another");
  auto grid = op.getMixedGrid();
  auto threads = op.getMixedThreads();
  std::string threadText;
  for (OpFoldResult t : threads)
    threadText += (threadText.empty() ? "" : " x ") + foldResult(t);
  if (failed(collectSafeValues(op)))
    return failure();
  lazySelects = collectLazySelects(op);
  comment(op, "T.Kernel #" + std::to_string(kernelCount++) + ": " +
                  std::to_string(grid.size()) + "-D grid, " + threadText +
                  " threads per block (one host executor per block)");
  std::string g[3] = {"1", "1", "1"};
  for (auto [i, e] : llvm::enumerate(grid))
    g[i] = foldResult(e);
  std::string params;
  const char *defaults[3] = {"bx", "by", "bz"};
  auto blockArgs = op.getBlockIndices();
  for (unsigned i = 0; i < 3; ++i) {
    params += i ? ", int64_t " : "int64_t ";
    if (i < blockArgs.size())
      params += define(blockArgs[i], defaults[i]);
    else
      params += std::string("/*") + defaults[i] + "*/";
  }
  // A grid-wide barrier (T.sync_grid) needs every block at once: a
  // cooperative launch, each block on its own host thread.
  bool cooperative =
      op.walk([](tile::IntrinsicOp i) {
          return i.getCallee() == "T.sync_grid" ? WalkResult::interrupt()
                                                : WalkResult::advance();
        }).wasInterrupted();
  // Thread-block clusters whose blocks synchronise or ask their rank: the
  // blocks of a cluster at once (tlc::cpu::launchClusters).
  SmallVector<int64_t, 3> cluster(3, 1);
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>("cluster_dims"))
    for (auto [i, d] : llvm::enumerate(attr.asArrayRef()))
      if (i < 3)
        cluster[i] = d;
  bool clustered = needsClusterLaunch(op);
  if (cooperative && clustered) {
    op.emitError("the CPU target runs either a cooperative launch "
                 "(T.sync_grid) or synchronising clusters, not both");
    return failure();
  }
  if (cooperative)
    open("tlc::cpu::launchCooperative(st, " + locLiteral(op.getLoc()) + ", " +
         g[0] + ", " + g[1] + ", " + g[2] + ", [&](" + params + ")");
  else if (clustered)
    open("tlc::cpu::launchClusters(st, " + locLiteral(op.getLoc()) + ", " +
         g[0] + ", " + g[1] + ", " + g[2] + ", " +
         std::to_string(cluster[0]) + ", " + std::to_string(cluster[1]) +
         ", " + std::to_string(cluster[2]) + ", [&](" + params + ")");
  else
    open("tlc::cpu::launch(st, args->numWorkers, " + g[0] + ", " + g[1] +
         ", " + g[2] + ", [&](" + params + ")");
  inKernel = true;
  clusterKernel = clustered;
  planPrivateLocals(op);
  bool perThread = hasPerThreadCode(op);
  // One generator per thread where the block's threads run one by one;
  // one for the block otherwise (every thread's would be the same).
  if (!perThread)
    declareRngStates(op, "1");
  LogicalResult r =
      perThread ? emitThreadedBody(op) : emitBlock(op.getBody().front());
  rngStates.clear();
  privateLoops.clear();
  privateLocals.clear();
  inKernel = false;
  clusterKernel = false;
  currentLoc = op.getLoc();
  close(");");
  line("if (st.hasFailed())");
  line("  return 1;");
  return r;
}

LogicalResult Emitter::emitAlloc(tile::AllocOp op) {
  auto bt = cast<tile::BufferType>(op.getType());
  if (tile::isBarrierScope(bt.getScope())) {
    // mbarriers (tlc::cpu::mbarrierInit: the PTX ISA's state in the 64-bit
    // word), initialised with their arrival counts.
    if (!bt.isStatic() || bt.getRank() != 1)
      return op.emitError("an mbarrier allocation needs a static count");
    auto counts = op->getAttrOfType<DenseI64ArrayAttr>("arrive_counts");
    std::string name = define(op.getResult(), "bar");
    std::string mem = fresh(name + "_mem");
    int64_t n = bt.getShape()[0];
    comment(op, "T.alloc_barrier: " + std::to_string(n) + " mbarrier(s)");
    line("tlc::cpu::Local<uint64_t, 1> " + mem + "({" + std::to_string(n) +
         "});");
    line("const tlc::cpu::View<uint64_t, 1> " + name + " = " + mem + ".view;");
    for (int64_t i = 0; i < n; ++i) {
      int64_t c = counts && !counts.empty()
                      ? counts[std::min<int64_t>(i, counts.size() - 1)]
                      : 1;
      if (c <= 0 || c > 0xFFFFF)
        return op.emitError()
               << "mbarrier arrival count " << c << " is outside 1..2^20-1";
      line("tlc::cpu::mbarrierInit(&" + name + ".at({" + std::to_string(i) +
           "}), " + std::to_string(c) + ");");
    }
    if (clusterKernel && failed(publishToCluster(op, mem)))
      return failure();
    return success();
  }
  auto view = viewType(bt, op);
  auto elem = storageType(bt.getElementType(), op);
  auto shape = extentList(bt, op);
  if (failed(view) || failed(elem) || failed(shape))
    return failure();
  std::string name = define(op.getResult(), "buf");
  std::string mem = fresh(name + "_mem");
  bool perThread = threaded && !inThreadLoop &&
                   (bt.getScope() == tile::MemoryScope::Local ||
                    bt.getScope() == tile::MemoryScope::LocalVar);
  bool privatised = !threaded && privateLocals.contains(op.getResult());
  if (perThread || privatised) {
    // One copy per thread (the leading dimension); each thread loop reads
    // its own (a loop dealt out by a fragment: its owning thread's,
    // CppEmitterPrivateLocals.cpp).
    std::string all = fresh(name + "_all");
    std::string lanesShape =
        "{" + (perThread ? threadCount : std::to_string(privateThreads)) +
        ", " + shape->substr(1);
    line("// " + name + ": " + tile::getDTypeName(bt.getElementType()) + " " +
         bt.getShapeString() + ", " +
         tile::stringifyMemoryScope(bt.getScope()).str() + ", one per thread");
    line("tlc::cpu::Local<" + *elem + ", " + Twine(viewRank(bt) + 1) + "> " +
         mem + "(" + lanesShape + ");");
    line("const tlc::cpu::View<" + *elem + ", " + Twine(viewRank(bt) + 1) +
         "> " + all + " = " + mem + ".view;");
    names[op.getResult()] = "tlc::cpu::lane(" + all + ", tlc_t)";
    perThreadStorage[op.getResult()] = all;
    if (Value init = op.getInit()) {
      if (!isBlockValue(init))
        return op.emitError("the CPU target needs the initial value of a "
                            "per-thread T.alloc_var to be the same in every "
                            "thread; assign it after the allocation");
      auto elemVal = tile::getElementValueType(bt.getElementType());
      std::string v = expr(init);
      if (elemVal != bt.getElementType())
        v = "tlc::cpu::cast<" + *elem + ">(" + v + ")";
      line("std::fill(" + mem + ".data.begin(), " + mem + ".data.end(), " + v +
           ");");
    }
    return success();
  }
  line("// " + name + ": " + tile::getDTypeName(bt.getElementType()) + " " +
       bt.getShapeString() + ", " +
       tile::stringifyMemoryScope(bt.getScope()).str());
  line("tlc::cpu::Local<" + *elem + ", " + Twine(viewRank(bt)) + "> " + mem +
       "(" + *shape + ");");
  line("const " + *view + " " + name + " = " + mem + ".view;");
  if (Value init = op.getInit()) {
    auto elemVal = tile::getElementValueType(bt.getElementType());
    std::string v = expr(init);
    if (elemVal != bt.getElementType())
      v = "tlc::cpu::cast<" + *elem + ">(" + v + ")";
    line(name + ".at({0}) = " + v + ";");
  }
  // Shared memory and tensor memory, which other blocks of the cluster
  // may reach.
  if (clusterKernel &&
      (tile::isSharedScope(bt.getScope()) ||
       bt.getScope() == tile::MemoryScope::TensorMemory) &&
      failed(publishToCluster(op, mem)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Blocks and statements
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(&op)))
      return failure();
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  currentLoc = op->getLoc();
  // Run by the lazy select they feed (emitLazySelect).
  if (lazySelects.deferred.contains(op))
    return success();
  if (lazySelects.sides.contains(op))
    return emitLazySelect(op);
  if (auto k = dyn_cast<tile::KernelOp>(op))
    return emitKernel(k);
  if (auto a = dyn_cast<tile::AllocOp>(op))
    return emitAlloc(a);
  if (auto s = dyn_cast<tile::SymbolOp>(op)) {
    auto it = symbolNames.find(s.getName());
    if (it == symbolNames.end())
      return op->emitError() << "symbol '" << s.getName()
                             << "' is not declared by the kernel";
    names[s.getResult()] = it->second;
    return success();
  }
  if (auto r = dyn_cast<tile::RegionOp>(op)) {
    auto bt = cast<tile::BufferType>(r.getType());
    auto view = viewType(bt, op);
    auto shape = extentList(bt, op);
    if (failed(view) || failed(shape))
      return failure();
    std::vector<std::string> offs;
    for (OpFoldResult o : r.getMixedOffsets())
      offs.push_back(foldResult(o));
    std::string name = define(r.getResult(), "region");
    line("const " + *view + " " + name + " = tlc::cpu::region(" +
         expr(r.getSource()) + ", " + braced(offs) + ", " + *shape + ");");
    return success();
  }
  if (auto mk = dyn_cast<tile::MakeTensorOp>(op)) {
    // T.make_tensor / T.Tensor.from_ptr: a dense tensor at the address a
    // `T.ptr` parameter holds.
    auto bt = cast<tile::BufferType>(mk.getType());
    auto view = viewType(bt, op);
    auto elem = storageType(bt.getElementType(), op);
    auto shape = extentList(bt, op);
    if (failed(view) || failed(elem) || failed(shape))
      return failure();
    std::string name = define(mk.getResult(), "tensor");
    line("const " + *view + " " + name + " = tlc::cpu::denseView<" + *elem +
         ", " + Twine(viewRank(bt)) + ">(reinterpret_cast<" + *elem + " *>(" +
         expr(mk.getPtr()) + "), " + *shape + ");");
    return success();
  }
  if (auto v = dyn_cast<tile::ViewOp>(op)) {
    // T.reshape / T.view: the same bytes with another shape or dtype
    // (checked to be a whole dense buffer when the program runs).
    auto src = cast<tile::BufferType>(v.getSource().getType());
    auto bt = cast<tile::BufferType>(v.getType());
    unsigned srcBits = tile::getElementBitWidth(src.getElementType());
    unsigned dstBits = tile::getElementBitWidth(bt.getElementType());
    if (src.getElementType() != bt.getElementType() &&
        (srcBits < 8 || dstBits < 8))
      return op->emitError()
             << "the CPU target stores sub-byte elements one per byte and "
                "cannot view their bits as another type";
    auto view = viewType(bt, op);
    auto elem = storageType(bt.getElementType(), op);
    auto shape = extentList(bt, op);
    if (failed(view) || failed(elem) || failed(shape))
      return failure();
    std::string name = define(v.getResult(), "view");
    line("const " + *view + " " + name + " = tlc::cpu::reshape<" + *elem +
         ", " + Twine(viewRank(bt)) + ">(st, " + locLiteral(op->getLoc()) +
         ", " + expr(v.getSource()) + ", " + *shape + ");");
    return success();
  }
  if (auto l = dyn_cast<tile::LoadOp>(op)) {
    auto bt = cast<tile::BufferType>(l.getBuffer().getType());
    auto t = valueType(l.getType(), op);
    if (failed(t))
      return failure();
    std::vector<std::string> idx;
    for (Value i : l.getIndices())
      idx.push_back(expr(i));
    if (idx.empty())
      idx.push_back("0");
    std::string e =
        loadExpr(l.getBuffer(), idx, op, guardOfAccess(op, l.getBuffer()));
    if (l.getType() != bt.getElementType())
      e = "tlc::cpu::cast<" + *t + ">(" + e + ")";
    line("const " + *t + " " + define(l.getResult(), "x") + " = " + e + ";");
    return success();
  }
  if (auto s = dyn_cast<tile::StoreOp>(op)) {
    auto bt = cast<tile::BufferType>(s.getBuffer().getType());
    std::vector<std::string> idx;
    for (Value i : s.getIndices())
      idx.push_back(expr(i));
    if (idx.empty())
      idx.push_back("0");
    std::string v = expr(s.getValue());
    if (s.getValue().getType() != bt.getElementType()) {
      auto st = storageType(bt.getElementType(), op);
      if (failed(st))
        return failure();
      v = "tlc::cpu::cast<" + *st + ">(" + v + ")";
    }
    line(
        storeStmt(s.getBuffer(), idx, v, op, guardOfAccess(op, s.getBuffer())));
    return success();
  }
  if (auto p = dyn_cast<tile::ParallelOp>(op))
    return emitParallel(p);
  if (auto p = dyn_cast<tile::PipelinedOp>(op)) {
    comment(op, "T.Pipelined(num_stages=" +
                    std::to_string(p.getNumStages()) +
                    "): a plain loop on the CPU");
    std::string v = define(p.getInductionVar(), "k");
    open("for (int64_t " + v + " = " + expr(p.getLowerBound()) + "; " + v +
         " < " + expr(p.getUpperBound()) + "; ++" + v + ")");
    if (failed(emitBlock(p.getBody().front())))
      return failure();
    currentLoc = op->getLoc();
    close();
    return success();
  }
  if (auto f = dyn_cast<tile::ForOp>(op)) {
    std::string v = define(f.getInductionVar(), "i");
    std::string step = expr(f.getStep());
    std::string cond;
    APInt stepValue;
    if (matchPattern(f.getStep(), m_ConstantInt(&stepValue)))
      cond = v + (stepValue.isNegative() ? " > " : " < ") +
             expr(f.getUpperBound());
    else
      cond = "(" + step + " > 0 ? " + v + " < " + expr(f.getUpperBound()) +
             " : " + v + " > " + expr(f.getUpperBound()) + ")";
    open("for (int64_t " + v + " = " + expr(f.getLowerBound()) + "; " + cond +
         "; " + v + " += " + step + ")");
    if (failed(emitBlock(f.getBody().front())))
      return failure();
    currentLoc = op->getLoc();
    close();
    return success();
  }
  if (auto i = dyn_cast<tile::IfOp>(op)) {
    open("if (" + expr(i.getCondition()) + ")");
    if (failed(emitBlock(*i.thenBlock())))
      return failure();
    currentLoc = op->getLoc();
    if (Block *e = i.elseBlock()) {
      --indent;
      line("} else {");
      ++indent;
      if (failed(emitBlock(*e)))
        return failure();
      currentLoc = op->getLoc();
    }
    close();
    return success();
  }
  if (auto w = dyn_cast<tile::WhileOp>(op)) {
    open("while (true)");
    for (Operation &c : w.getCond().front()) {
      if (auto cond = dyn_cast<tile::ConditionOp>(&c)) {
        currentLoc = c.getLoc();
        line("if (!" + expr(cond.getCondition()) + ")");
        line("  break;");
        continue;
      }
      if (failed(emitOp(&c)))
        return failure();
    }
    if (failed(emitBlock(w.getBody().front())))
      return failure();
    currentLoc = op->getLoc();
    close();
    return success();
  }
  if (isa<tile::SyncThreadsOp>(op)) {
    comment(op, "T.sync_threads(): no-op, one executor per block");
    return success();
  }
  if (isa<tile::UseSwizzleOp>(op)) {
    comment(op, "T.use_swizzle: block order does not matter on the CPU");
    return success();
  }
  if (isa<tile::AnnotateLayoutOp>(op)) {
    comment(op, "T.annotate_layout: layouts do not matter on the CPU");
    return success();
  }
  if (auto a = dyn_cast<tile::AssumeOp>(op)) {
    // T.assume: a promise the C++ compiler may use (a false one is
    // undefined behaviour, as in TileLang).
    comment(op, "T.assume");
    line("if (!(" + expr(a.getCondition()) + ")) __builtin_unreachable();");
    return success();
  }
  if (auto a = dyn_cast<tile::DeviceAssertOp>(op)) {
    std::string msg = "device assertion failed: " + a.getMsg().str();
    std::string lit;
    for (char c : msg) {
      if (c == '"' || c == '\\')
        lit += '\\';
      lit += (c == '\n') ? ' ' : c;
    }
    open("if (!" + expr(a.getCondition()) + ")");
    line("st.fail(" + locLiteral(op->getLoc()) + ", \"" + lit + "\");");
    line(returnStmt());
    close();
    return success();
  }
  if (auto c = dyn_cast<tile::CopyOp>(op))
    return emitCopy(c);
  if (auto g = dyn_cast<tile::GemmOp>(op))
    return emitGemm(g);
  if (auto f = dyn_cast<tile::FillOp>(op)) {
    auto bt = cast<tile::BufferType>(f.getDst().getType());
    auto st = storageType(bt.getElementType(), op);
    if (failed(st))
      return failure();
    std::string v = expr(f.getValue());
    if (f.getValue().getType() != bt.getElementType())
      v = "tlc::cpu::cast<" + *st + ">(" + v + ")";
    comment(op, "T.fill");
    return emitFill(op, f.getDst(), v);
  }
  if (auto c = dyn_cast<tile::ClearOp>(op)) {
    auto bt = cast<tile::BufferType>(c.getDst().getType());
    auto st = storageType(bt.getElementType(), op);
    if (failed(st))
      return failure();
    comment(op, "T.clear");
    if (clusterKernel && clearsPairAccumulator(c))
      return emitPairClear(c, *st + "()");
    return emitFill(op, c.getDst(), *st + "()");
  }
  if (auto r = dyn_cast<tile::ReduceOp>(op))
    return emitReduce(r);
  if (auto c = dyn_cast<tile::CumSumOp>(op))
    return emitCumSum(c);
  if (auto a = dyn_cast<tile::AtomicAddOp>(op))
    return emitAtomicAdd(a);
  if (auto p = dyn_cast<tile::PrintOp>(op))
    return emitPrint(p);
  if (auto i = dyn_cast<tile::IntrinsicOp>(op))
    return emitIntrinsic(i);
  if (auto c = dyn_cast<tile::ClcTryCancelOp>(op))
    return emitClcTryCancel(c);
  if (auto q = dyn_cast<tile::ClcQueryOp>(op))
    return emitClcQuery(q);
  if (auto tb = dyn_cast<tile::ThreadBindingOp>(op); tb && inThreadLoop) {
    int64_t d = tb.getDim();
    std::string e =
        d == 0 ? "tlc_t % " + threadExtent[0]
        : d == 1
            ? "tlc_t / " + threadExtent[0] + " % " + threadExtent[1]
            : "tlc_t / (" + threadExtent[0] + " * " + threadExtent[1] + ")";
    line("const int64_t " + define(tb.getResult(), "tx") + " = " + e + ";");
    return success();
  }
  if (isa<tile::ThreadBindingOp>(op))
    return op->emitError(
        "the CPU target runs each block as one executor and cannot emit "
        "T.get_thread_binding (per-thread code)");
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return emitScalar(op);
  return op->emitError() << "the CPU target cannot emit '" << op->getName()
                         << "'";
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

FailureOr<CppKernel> tlc::target::emitCpuKernel(tile::FuncOp func,
                                                const CppEmitOptions &options) {
  if (func.isDeclaration())
    return func.emitError("cannot emit a kernel declaration (no body)");
  auto withBarriers = withSharedMemoryBarriers(func);
  if (failed(withBarriers))
    return failure();
  tile::FuncOp emitted =
      *withBarriers ? *(*withBarriers)->getOps<tile::FuncOp>().begin() : func;
  Emitter emitter(emitted, options);
  if (failed(emitter.emitFunction()))
    return failure();
  CppKernel kernel = emitter.takeResult();
  // Header lines shift the body: prepend them and renumber the map.
  std::string header = "// Generated by tlc for the CPU reference target. "
                       "Do not edit.\n#include \"" +
                       options.headerName + "\"\n\n" +
                       importedSourceText(func, /*forCpu=*/true);
  unsigned shift = llvm::count(header, '\n');
  kernel.source = header + kernel.source;
  for (artifact::SourceMapEntry &e : kernel.sourceMap)
    e.generatedLine += shift;
  return kernel;
}

LogicalResult tlc::target::translateModuleToCpp(ModuleOp module,
                                                raw_ostream &os,
                                                const CppEmitOptions &options,
                                         llvm::StringRef kernelFilter) {
  os << "// Generated by tlc for the CPU reference target. Do not edit.\n"
     << "#include \"" << options.headerName << "\"\n";
  bool ok = true;
  for (auto func : module.getOps<tile::FuncOp>()) {
    if (skipUnbuildable(func, kernelFilter, ok))
      continue;
    auto withBarriers = withSharedMemoryBarriers(func);
    if (failed(withBarriers)) {
      ok = false;
      continue;
    }
    Emitter emitter(
        *withBarriers ? *(*withBarriers)->getOps<tile::FuncOp>().begin() : func,
        options);
    if (failed(emitter.emitFunction())) {
      ok = false;
      continue;
    }
    os << "\n"
       << importedSourceText(func, /*forCpu=*/true)
       << emitter.takeResult().source;
  }
  return success(ok);
}
