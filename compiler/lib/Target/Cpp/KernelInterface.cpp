//===- KernelInterface.cpp - Launch interface of a tile.func --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Cpp/KernelInterface.h"

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Target/Artifact/ShapeExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <cstdlib>

using namespace mlir;
using namespace tlc;
using namespace tlc::target;

std::vector<std::string> tlc::target::collectKernelSymbols(tile::FuncOp func) {
  std::vector<std::string> names;
  if (auto decls = func.getSymbols())
    for (Attribute a : *decls)
      if (auto d = dyn_cast<tile::SymbolDeclAttr>(a))
        if (!llvm::is_contained(names, d.getName().getValue().str()))
          names.push_back(d.getName().getValue().str());
  // Symbols used by extents but not declared (defensive: the verifier
  // should have caught them).
  auto addFrom = [&](Type t) {
    auto bt = dyn_cast<tile::BufferType>(t);
    if (!bt)
      return;
    for (unsigned d = 0; d < bt.getRank(); ++d) {
      StringRef text = bt.getDimSymbol(d);
      if (text.empty())
        continue;
      auto e = artifact::ShapeExpr::parse(text);
      if (!e) {
        llvm::consumeError(e.takeError());
        continue;
      }
      e->collectSymbols(names);
    }
  };
  for (Type t : func.getArgumentTypes())
    addFrom(t);
  // Symbolic strides of the parameters (`tile.strides`).
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto strides = func.getArgAttrOfType<ArrayAttr>(i, "tile.strides"))
      for (Attribute a : strides)
        if (auto text = dyn_cast<StringAttr>(a)) {
          auto e = artifact::ShapeExpr::parse(text.getValue());
          if (e)
            e->collectSymbols(names);
          else
            llvm::consumeError(e.takeError());
        }
  func.walk([&](Operation *op) {
    if (auto s = dyn_cast<tile::SymbolOp>(op))
      if (!llvm::is_contained(names, s.getName().str()))
        names.push_back(s.getName().str());
    for (Type t : op->getResultTypes())
      addFrom(t);
    // Grid extents computed from integer parameters (`T.ceildiv(
    // max_seqlen_q, 64)`): the runtime evaluates them, so the parameters
    // are symbols too (the manifest's kind `param`).
    if (auto k = dyn_cast<tile::KernelOp>(op))
      for (OpFoldResult g : k.getMixedGrid())
        if (auto v = dyn_cast<Value>(g)) {
          FailureOr<artifact::Extent> e = getExtentOf(v);
          if (failed(e) || e->isStatic)
            continue;
          auto parsed = artifact::ShapeExpr::parse(e->expr);
          if (parsed)
            parsed->collectSymbols(names);
          else
            llvm::consumeError(parsed.takeError());
        }
  });
  return names;
}

/// The tile.make_tensor that views scalar parameter \p index of \p func
/// (a `T.ptr` address) when that view, in the function body, is the
/// parameter's only use: the parameter is then a tensor passed by address,
/// described in the manifest as the tensor the view makes. Null otherwise.
/// (CppEmitter.cpp's isPointerParam is the same rule.)
static tile::MakeTensorOp getPointerView(tile::FuncOp func, unsigned index) {
  Block &body = func.getBody().front();
  if (index >= body.getNumArguments())
    return {};
  BlockArgument arg = body.getArgument(index);
  if (!isa<IntegerType>(arg.getType()) || !arg.hasOneUse())
    return {};
  auto view = dyn_cast<tile::MakeTensorOp>(*arg.getUsers().begin());
  if (!view || view->getBlock() != &body)
    return {};
  return view;
}

/// The tile.make_tensor views of the addresses that parameter \p index of
/// \p func holds when it is a pointer table: a global int64 tensor of rank
/// one whose every element read is the address of a view, and at least one
/// is. Empty otherwise.
static SmallVector<tile::MakeTensorOp> getPointerTableViews(tile::FuncOp func,
                                                             unsigned index) {
  Block &body = func.getBody().front();
  if (index >= body.getNumArguments())
    return {};
  BlockArgument arg = body.getArgument(index);
  auto bt = dyn_cast<tile::BufferType>(arg.getType());
  if (!bt || bt.getRank() != 1 || !bt.getElementType().isInteger(64) ||
      bt.getScope() != tile::MemoryScope::Global)
    return {};
  SmallVector<tile::MakeTensorOp> views;
  for (Operation *user : arg.getUsers()) {
    auto load = dyn_cast<tile::LoadOp>(user);
    if (!load)
      return {};
    SmallVector<Value> worklist{load.getResult()};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *u : v.getUsers()) {
        if (auto view = dyn_cast<tile::MakeTensorOp>(u)) {
          views.push_back(view);
          continue;
        }
        if (!isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                 arith::IndexCastOp, arith::IndexCastUIOp>(u))
          return {};
        worklist.push_back(u->getResult(0));
      }
    }
  }
  return views;
}

std::string tlc::target::getParamName(tile::FuncOp func, unsigned index) {
  Block &body = func.getBody().front();
  if (index < body.getNumArguments())
    if (auto n = dyn_cast<NameLoc>(body.getArgument(index).getLoc()))
      return n.getName().getValue().str();
  return "arg" + std::to_string(index);
}

/// Whether operand \p index of \p op is a buffer the primitive only reads:
/// the operands of T.dp4a but its accumulator, T.any_of / T.all_of's
/// region, T.atomic_load's element, T.im2col's image, a read-only
/// T.access_ptr's buffer.
static bool isReadOnlyIntrinsicOperand(tile::IntrinsicOp op, unsigned index) {
  ArrayAttr params = op.getParams();
  if (index >= params.size())
    return false;
  StringRef param = cast<StringAttr>(params[index]).getValue();
  StringRef callee = op.getCallee();
  return (callee == "T.dp4a" && (param == "A" || param == "B")) ||
         ((callee == "T.any_of" || callee == "T.all_of") &&
          param == "buffer") ||
         (callee == "T.atomic_load" && param == "src") ||
         (callee == "T.im2col" && param == "img") ||
         (callee == "T.access_ptr" && param == "base" &&
          op.getOptionsAttr() &&
          op.getOptionsAttr().getAs<StringAttr>("access_type") &&
          op.getOptionsAttr().getAs<StringAttr>("access_type").getValue() ==
              "r");
}

/// Adds how the uses of \p buffer (and of regions of it) read or write it.
static void collectAccess(Value buffer, bool &reads, bool &writes) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    Value v = use.get();
    if (isa<tile::RegionOp, tile::ViewOp>(user)) {
      collectAccess(user->getResult(0), reads, writes);
      continue;
    }
    if (isa<tile::LoadOp, tile::PrintOp>(user)) {
      reads = true;
    } else if (isa<tile::StoreOp, tile::FillOp, tile::ClearOp>(user)) {
      writes = true;
    } else if (auto c = dyn_cast<tile::CopyOp>(user)) {
      (c.getSrc() == v ? reads : writes) = true;
    } else if (auto c = dyn_cast<tile::CumSumOp>(user)) {
      if (c.getSrc() == v)
        reads = true;
      if (c.getDst() == v)
        writes = true;
    } else if (auto g = dyn_cast<tile::GemmOp>(user)) {
      reads = true;
      if (g.getC() == v)
        writes = true;
    } else if (auto r = dyn_cast<tile::ReduceOp>(user)) {
      reads = true;
      if (r.getDst() == v)
        writes = true;
    } else if (auto a = dyn_cast<tile::AtomicAddOp>(user)) {
      reads = true;
      if (a.getDst() == v)
        writes = true;
    } else if (isa<tile::AnnotateLayoutOp>(user)) {
      // No access.
    } else if (auto i = dyn_cast<tile::IntrinsicOp>(user);
               i && isReadOnlyIntrinsicOperand(i, use.getOperandNumber())) {
      reads = true;
    } else {
      reads = writes = true; // unknown: assume both
    }
  }
}

artifact::Role tlc::target::inferParamRole(tile::FuncOp func, unsigned index) {
  if (auto attr = func.getArgAttrOfType<StringAttr>(index, "tile.role")) {
    if (attr.getValue() == "out")
      return artifact::Role::Out;
    if (attr.getValue() == "inout")
      return artifact::Role::InOut;
    return artifact::Role::In;
  }
  bool reads = false, writes = false;
  collectAccess(func.getBody().front().getArgument(index), reads, writes);
  if (writes)
    return reads ? artifact::Role::InOut : artifact::Role::Out;
  return artifact::Role::In;
}

/// Extent text of an index value, or failure.
static FailureOr<std::string> extentText(Value v, unsigned depth = 0) {
  if (depth > 64)
    return failure();
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return std::to_string(c.getSExtValue());
  Operation *def = v.getDefiningOp();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // An integer parameter of the function, by its name.
    auto func = dyn_cast<tile::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || !isa<IntegerType>(arg.getType()) ||
        getPointerView(func, arg.getArgNumber()))
      return failure();
    return getParamName(func, arg.getArgNumber());
  }
  if (!def)
    return failure();
  if (auto s = dyn_cast<tile::SymbolOp>(def))
    return s.getName().str();
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return extentText(def->getOperand(0), depth + 1);
  if (def->getNumOperands() != 2)
    return failure();
  auto l = extentText(def->getOperand(0), depth + 1);
  auto r = extentText(def->getOperand(1), depth + 1);
  if (failed(l) || failed(r))
    return failure();
  auto bin = [&](const char *op) { return "(" + *l + " " + op + " " + *r + ")"; };
  auto call = [&](const char *fn) {
    return std::string(fn) + "(" + *l + ", " + *r + ")";
  };
  if (isa<arith::AddIOp>(def))
    return bin("+");
  if (isa<arith::SubIOp>(def))
    return bin("-");
  if (isa<arith::MulIOp>(def))
    return bin("*");
  if (isa<arith::FloorDivSIOp, arith::DivSIOp, arith::DivUIOp>(def))
    return bin("//");
  if (isa<arith::RemSIOp, arith::RemUIOp>(def))
    return bin("%");
  if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def))
    return call("ceildiv");
  if (isa<arith::MinSIOp, arith::MinUIOp>(def))
    return call("min");
  if (isa<arith::MaxSIOp, arith::MaxUIOp>(def))
    return call("max");
  return failure();
}

FailureOr<artifact::Extent> tlc::target::getExtentOf(Value value) {
  auto text = extentText(value);
  if (failed(text))
    return failure();
  auto parsed = artifact::ShapeExpr::parse(*text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return failure();
  }
  if (auto c = parsed->getConstant())
    return artifact::Extent::of(*c);
  return artifact::Extent::symbolic(*text);
}

static FailureOr<artifact::Extent> extentOf(OpFoldResult r) {
  if (auto v = dyn_cast<Value>(r))
    return getExtentOf(v);
  return artifact::Extent::of(cast<IntegerAttr>(cast<Attribute>(r)).getInt());
}

static std::string locText(Location loc) {
  if (FileLineColRange r = tlc::target::detail::getFileLoc(loc))
    return (r.getFilename().getValue() + ":" + Twine(r.getStartLine()) + ":" +
            Twine(r.getStartColumn()))
        .str();
  return "";
}

std::optional<std::vector<artifact::Extent>>
tlc::target::getManifestShape(tile::BufferType type, unsigned *unknownDim) {
  std::vector<artifact::Extent> shape;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    tile::Dim dim = type.getDim(d);
    if (dim.isStatic()) {
      shape.push_back(artifact::Extent::of(dim.getValue()));
    } else if (dim.isSymbolic()) {
      shape.push_back(
          artifact::Extent::symbolic(dim.getSymbol().getValue().str()));
    } else {
      if (unknownDim)
        *unknownDim = d;
      return std::nullopt;
    }
  }
  return shape;
}

/// What the elements of pointer table \p index of \p func point at: the
/// one tensor type all its views make, with the role their accesses give.
/// Nullopt when it is no pointer table or its views disagree (the table is
/// then an int64 tensor like any other).
static std::optional<artifact::Pointee> getPointee(tile::FuncOp func,
                                                   unsigned index) {
  SmallVector<tile::MakeTensorOp> views = getPointerTableViews(func, index);
  if (views.empty())
    return std::nullopt;
  Type type = views.front().getType();
  bool reads = false, writes = false;
  for (tile::MakeTensorOp view : views) {
    if (view.getType() != type)
      return std::nullopt;
    collectAccess(view.getResult(), reads, writes);
  }
  auto bt = cast<tile::BufferType>(type);
  std::optional<std::vector<artifact::Extent>> shape = getManifestShape(bt);
  if (!shape)
    return std::nullopt;
  artifact::Pointee p;
  p.dtype = tile::getDTypeName(bt.getElementType());
  p.shape = std::move(*shape);
  p.role = writes ? (reads ? artifact::Role::InOut : artifact::Role::Out)
                  : artifact::Role::In;
  return p;
}

FailureOr<artifact::Manifest> tlc::target::describeKernel(tile::FuncOp func) {
  artifact::Manifest m;
  m.name = func.getSymName().str();
  m.kernel = func.getSymName().str();
  if (auto k = func->getAttrOfType<StringAttr>("tile.kernel_name"))
    m.kernel = k.getValue().str();
  if (FileLineColRange r = tlc::target::detail::getFileLoc(func.getLoc()))
    m.sourceFile = r.getFilename().getValue().str();
  auto argTypes = func.getArgumentTypes();
  // The symbols the parameters' extents use, and those that are a whole
  // stride of some tensor parameter.
  std::vector<std::string> inShapes, asStrides;
  for (unsigned i = 0; i < argTypes.size(); ++i) {
    auto bt = dyn_cast<tile::BufferType>(argTypes[i]);
    if (!bt)
      continue;
    for (unsigned d = 0; d < bt.getRank(); ++d)
      if (StringRef text = bt.getDimSymbol(d); !text.empty()) {
        auto e = artifact::ShapeExpr::parse(text);
        if (e)
          e->collectSymbols(inShapes);
        else
          llvm::consumeError(e.takeError());
      }
    if (auto strides = func.getArgAttrOfType<ArrayAttr>(i, "tile.strides"))
      for (Attribute a : strides)
        if (auto text = dyn_cast<StringAttr>(a))
          asStrides.push_back(text.getValue().str());
  }
  for (const std::string &s : collectKernelSymbols(func)) {
    std::string kind = "dynamic";
    if (auto d = func.lookupSymbol(s))
      kind = tile::stringifySymbolKind(d.getKind()).str();
    else
      for (unsigned i = 0; i < argTypes.size(); ++i)
        if (isa<IntegerType>(argTypes[i]) && getParamName(func, i) == s)
          kind = "param"; // the value of the integer parameter `s`
    // A T.dynamic that only a stride gives (`T.StridedTensor[(m, n),
    // (row_stride, 1)]`): the launcher reads it from that argument.
    if (kind == "dynamic" && !llvm::is_contained(inShapes, s) &&
        llvm::is_contained(asStrides, s))
      kind = "stride";
    m.symbols.push_back({s, kind});
  }
  // Gemms of float32 operands multiply at tf32 on every target tlc builds
  // for NVIDIA (mma .tf32, wgmma .tf32) and on the CPU target, which
  // models it as their reference: the kernel's float32 outputs are only
  // that precise (Param::precision).
  bool tf32Products = false;
  func.walk([&](tile::GemmOp gemm) {
    Type a = cast<tile::BufferType>(gemm.getA().getType()).getElementType();
    tf32Products |= a.isF32() || a.isTF32();
  });
  for (unsigned i = 0; i < argTypes.size(); ++i) {
    artifact::Param p;
    p.name = getParamName(func, i);
    Type t = argTypes[i];
    tile::MakeTensorOp pointerView = getPointerView(func, i);
    if (pointerView)
      t = pointerView.getType();
    if (auto bt = dyn_cast<tile::BufferType>(t)) {
      p.isTensor = true;
      p.dtype = tile::getDTypeName(bt.getElementType());
      unsigned unknownDim = 0;
      std::optional<std::vector<artifact::Extent>> shape =
          getManifestShape(bt, &unknownDim);
      if (!shape)
        return func.emitError() << "parameter '" << p.name
                                << "' has an unknown extent (?) in dimension "
                                << unknownDim << "; artifacts need every extent";
      p.shape = std::move(*shape);
      if (ArrayAttr strides =
              func.getArgAttrOfType<ArrayAttr>(i, "tile.strides");
          strides && !pointerView) {
        for (Attribute a : strides)
          p.strides.push_back(
              isa<IntegerAttr>(a)
                  ? artifact::Extent::of(cast<IntegerAttr>(a).getInt())
                  : artifact::Extent::symbolic(
                        cast<StringAttr>(a).getValue().str()));
      }
      p.role = inferParamRole(func, i);
      if (tf32Products && p.role != artifact::Role::In &&
          bt.getElementType().isF32())
        p.precision = "tfloat32";
      p.pointer = bool(pointerView);
      if (!pointerView)
        p.pointee = getPointee(func, i);
      if (pointerView) {
        bool reads = false, writes = false;
        collectAccess(pointerView.getResult(), reads, writes);
        p.role = writes ? (reads ? artifact::Role::InOut : artifact::Role::Out)
                        : artifact::Role::In;
      }
    } else {
      p.isTensor = false;
      p.dtype = tile::getDTypeName(t);
      if (t.isIndex())
        p.dtype = "int64";
      p.role = artifact::Role::In;
    }
    if (p.dtype.empty())
      return func.emitError() << "parameter '" << p.name
                              << "' has a type artifacts cannot describe";
    m.params.push_back(std::move(p));
  }
  bool ok = true;
  func.walk([&](tile::KernelOp k) {
    artifact::Launch l;
    l.location = locText(k.getLoc());
    for (OpFoldResult g : k.getMixedGrid()) {
      auto e = extentOf(g);
      if (failed(e)) {
        k.emitError("grid extent is not an expression of the kernel's "
                    "symbols; it cannot be recorded in the manifest");
        ok = false;
        return;
      }
      l.grid.push_back(*e);
    }
    for (OpFoldResult t : k.getMixedThreads()) {
      auto e = extentOf(t);
      if (failed(e)) {
        k.emitError("thread extent cannot be recorded in the manifest");
        ok = false;
        return;
      }
      l.block.push_back(*e);
    }
    k.walk([&](tile::AllocOp a) {
      auto bt = cast<tile::BufferType>(a.getType());
      if (bt.getScope() != tile::MemoryScope::SharedDyn || !bt.isStatic())
        return;
      int64_t n = 1;
      for (int64_t e : bt.getShape())
        n *= e;
      l.dynamicSharedMemory.value +=
          (n * tile::getElementBitWidth(bt.getElementType()) + 7) / 8;
    });
    m.launches.push_back(std::move(l));
  });
  if (!ok)
    return failure();
  return m;
}

std::string tlc::target::importedSourceText(tile::FuncOp func, bool forCpu) {
  std::vector<std::string> texts = tile::getImportedSources(func);
  if (texts.empty())
    return "";
  std::string out = "// Imported by the program (T.import_source, "
                    "T.Kernel(prelude=...)).\n";
  if (forCpu)
    for (StringRef q : {"__device__", "__host__", "__forceinline__"})
      out += ("#ifndef " + q + "\n#define " + q +
              (q == "__forceinline__" ? " inline" : "") + "\n#endif\n")
                 .str();
  if (forCpu)
    out += "#ifndef TL_DEVICE\n#define TL_DEVICE inline\n#endif\n";
  for (const std::string &t : texts) {
    out += t;
    if (t.empty() || t.back() != '\n')
      out += '\n';
  }
  return out + "\n";
}

/// The meta parameters of \p func (factory parameters no call site bound)
/// that a T.Kernel's thread count is computed from, in declaration order.
/// The CPU target runs such an instance with the count bound at run time;
/// the GPU targets need it when they compile.
static SmallVector<StringRef> getUnboundThreadParameters(tile::FuncOp func) {
  SmallVector<StringRef> meta, used;
  if (ArrayAttr symbols = func.getSymbolsAttr())
    for (Attribute a : symbols)
      if (auto decl = dyn_cast<tile::SymbolDeclAttr>(a))
        if (decl.getKind() == tile::SymbolKind::Meta)
          meta.push_back(decl.getName().getValue());
  if (meta.empty())
    return used;
  // The tile.symbol ops each thread extent is computed from.
  llvm::SmallPtrSet<Operation *, 8> visited;
  SmallVector<Value> work;
  func.walk([&](tile::KernelOp kernel) {
    for (Value v : kernel.getThreads())
      work.push_back(v);
  });
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !visited.insert(def).second)
      continue;
    if (auto symbol = dyn_cast<tile::SymbolOp>(def)) {
      if (llvm::is_contained(meta, symbol.getName()) &&
          !llvm::is_contained(used, symbol.getName()))
        used.push_back(symbol.getName());
      continue;
    }
    work.append(def->operand_begin(), def->operand_end());
  }
  llvm::sort(used, [&](StringRef a, StringRef b) {
    return llvm::find(meta, a) < llvm::find(meta, b);
  });
  return used;
}

bool tlc::target::skipUnbuildable(tile::FuncOp func, StringRef kernelFilter,
                                  bool &ok, bool needsKernel) {
  if (func.isDeclaration())
    return true;
  // Already diagnosed as impossible to lower.
  if (tile::hasLoweringFailed(func)) {
    ok = false;
    return true;
  }
  // The analysis keeps only the instances a --kernel filter selects, so
  // with a filter this instance is one the user asked for.
  bool named = !kernelFilter.empty();
  if (needsKernel &&
      !func.walk([](tile::KernelOp) { return WalkResult::interrupt(); })
           .wasInterrupted()) {
    InFlightDiagnostic d = named ? func.emitError() : func.emitWarning();
    d << "'" << func.getSymName()
      << "' is not built: it has no T.Kernel, so it launches nothing on the "
         "GPU";
    ok &= !named;
    return true;
  }
  SmallVector<StringRef> unbound = tile::getUnboundTileParameters(func);
  // The GPU targets (\p needsKernel) need the thread count at compile
  // time; the CPU target binds it at run time.
  bool onlyThreads = false;
  if (unbound.empty() && needsKernel) {
    unbound = getUnboundThreadParameters(func);
    onlyThreads = true;
  }
  if (unbound.empty())
    return false;
  InFlightDiagnostic d = named ? func.emitError() : func.emitWarning();
  d << "'" << func.getSymName() << "' is not built: its "
    << (onlyThreads ? "thread count depends" : "tile shapes depend") << " on "
    << (unbound.size() == 1 ? "the parameter " : "the parameters ")
    << llvm::join(unbound, ", ")
    << ", which no call site binds (bind them with -D name=value or call "
       "the factory)";
  ok &= !named;
  return true;
}

LogicalResult tlc::target::forEachKernelToBuild(
    Operation *module, StringRef kernelFilter,
    function_ref<WalkResult(tile::FuncOp, artifact::Manifest &)> build,
    bool needsKernel) {
  bool ok = true;
  for (Operation &op : module->getRegion(0).front()) {
    auto func = dyn_cast<tile::FuncOp>(op);
    if (!func || skipUnbuildable(func, kernelFilter, ok, needsKernel))
      continue;
    FailureOr<artifact::Manifest> manifest = describeKernel(func);
    if (failed(manifest)) {
      ok = false;
      continue;
    }
    if (!kernelFilter.empty() && kernelFilter != manifest->name &&
        kernelFilter != manifest->kernel)
      continue;
    WalkResult r = build(func, *manifest);
    if (r.wasInterrupted())
      return failure();
    if (r.wasSkipped())
      ok = false;
  }
  return success(ok);
}

/// \p compile with the cache key's name of the instance: its Tile IR
/// without locations.
static artifact::HostCompileOptions
keyedCompileOptions(tile::FuncOp func,
                    const artifact::HostCompileOptions &compile) {
  artifact::HostCompileOptions keyed = compile;
  llvm::raw_string_ostream os(keyed.instance);
  mlir::OpPrintingFlags flags;
  flags.assumeVerified();
  func->print(os, flags);
  return keyed;
}

struct KernelArtifactWriter::Pending {
  tile::FuncOp func;
  artifact::ArtifactBundle bundle;
  artifact::HostCompileOptions compile;
  /// Filled in by finish: the failure, and whether the binary was cached.
  std::optional<std::string> error;
  bool cached = false;

  void write(llvm::StringRef outDir) {
    if (llvm::Error e =
            artifact::writeArtifact(bundle, outDir, compile, &cached))
      error = llvm::toString(std::move(e));
  }
};

void KernelArtifactWriter::add(tile::FuncOp func,
                               artifact::ArtifactBundle bundle,
                               const artifact::HostCompileOptions &compile) {
  // The IR is printed here, on the calling thread: MLIR objects are not
  // touched while the compilations run.
  pending.push_back(std::make_shared<Pending>(
      Pending{func, std::move(bundle), keyedCompileOptions(func, compile),
              std::nullopt, false}));
}

LogicalResult KernelArtifactWriter::finish() {
  // At most one compilation a hardware thread, or $TLC_COMPILE_JOBS.
  unsigned threads = llvm::hardware_concurrency().compute_thread_count();
  if (const char *env = std::getenv("TLC_COMPILE_JOBS"))
    if (llvm::StringRef(env).trim().getAsInteger(10, threads) || !threads)
      threads = 1;
  threads = std::min<size_t>(threads, pending.size());
  bool inProcess = llvm::any_of(
      pending, [](const auto &p) { return bool(p->compile.inProcess); });
  if (threads <= 1 || inProcess) {
    for (const std::shared_ptr<Pending> &p : pending)
      p->write(outDir);
  } else {
    // The first file LLVM is asked to remove on a signal (writeToOutput's
    // temporaries) registers its signal handlers and gives the asking
    // thread an alternate signal stack. Ask on this thread: a pool thread
    // would end with a stack its runtime did not allocate (AddressSanitizer
    // fails to unmap it at the thread's exit).
    llvm::SmallString<128> probe(outDir);
    llvm::sys::path::append(probe, ".tlc-signal-handlers");
    llvm::sys::RemoveFileOnSignal(probe);
    llvm::sys::DontRemoveFileOnSignal(probe);
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    for (const std::shared_ptr<Pending> &p : pending)
      pool.async([p, this] { p->write(outDir); });
    pool.wait();
  }
  bool ok = true;
  for (const std::shared_ptr<Pending> &p : pending) {
    const artifact::Manifest &m = p->bundle.manifest;
    if (p->error) {
      mlir::InFlightDiagnostic diag = p->func.emitError()
                                      << "cannot write the " << targetName
                                      << " artifact of '" << m.name
                                      << "': " << *p->error;
      markToolFailure(*diag.getUnderlyingDiagnostic());
      ok = false;
      continue;
    }
    if (log) {
      llvm::SmallString<256> written(outDir);
      llvm::sys::path::append(written,
                              m.binary.empty() ? m.generatedSource : m.binary);
      *log << "wrote " << written
           << (m.binary.empty() ? " (no binary)"
               : p->cached      ? " (cached)"
                                : "")
           << "\n";
    }
  }
  pending.clear();
  return success(ok);
}

LogicalResult tlc::target::writeKernelArtifact(
    tile::FuncOp func, artifact::ArtifactBundle &bundle, StringRef outDir,
    const artifact::HostCompileOptions &compile, StringRef targetName,
    llvm::raw_ostream *log) {
  KernelArtifactWriter writer(outDir, targetName, log);
  writer.add(func, std::move(bundle), compile);
  return writer.finish();
}

/// The metadata string markToolFailure attaches (DiagnosticArgument keeps a
/// StringRef: a literal outlives every diagnostic).
static constexpr llvm::StringLiteral toolFailureMark = "tlc.tool-failure";

void tlc::target::markToolFailure(mlir::Diagnostic &diag) {
  diag.getMetadata().push_back(mlir::DiagnosticArgument(toolFailureMark));
}

bool tlc::target::isToolFailure(mlir::Diagnostic &diag) {
  return llvm::any_of(diag.getMetadata(), [](const auto &arg) {
    return arg.getKind() ==
               mlir::DiagnosticArgument::DiagnosticArgumentKind::String &&
           arg.getAsString() == toolFailureMark;
  });
}
