//===- PassConfigs.cpp - What a kernel asks of its build ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/PassConfigs.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tlc;

static constexpr llvm::StringLiteral kConfigs = "tile.pass_configs";
static constexpr llvm::StringLiteral kFlags = "tile.compile_flags";
static constexpr llvm::StringLiteral kImports = "tile.imported_sources";

/// \p op itself when it is a function, else the function holding it.
static Operation *functionOf(Operation *op) {
  if (!op || isa<tile::FuncOp>(op))
    return op;
  return op->getParentOfType<tile::FuncOp>();
}

/// The strings of array attribute \p name of \p op's function.
static std::vector<std::string> stringsOf(Operation *op, StringRef name) {
  std::vector<std::string> out;
  if (Operation *func = functionOf(op))
    if (auto list = func->getAttrOfType<ArrayAttr>(name))
      for (Attribute a : list)
        if (auto s = dyn_cast<StringAttr>(a))
          out.push_back(s.getValue().str());
  return out;
}

void tile::setBuildConfigs(
    Operation *func,
    llvm::ArrayRef<std::pair<std::string, std::string>> configs,
    llvm::ArrayRef<std::string> compileFlags) {
  Builder b(func->getContext());
  if (!configs.empty()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, value] : configs)
      entries.push_back(b.getNamedAttr(key, b.getStringAttr(value)));
    func->setAttr(kConfigs, b.getDictionaryAttr(entries));
  }
  if (!compileFlags.empty()) {
    SmallVector<Attribute> flags;
    for (const std::string &f : compileFlags)
      flags.push_back(b.getStringAttr(f));
    func->setAttr(kFlags, b.getArrayAttr(flags));
  }
}

std::optional<llvm::StringRef> tile::getPassConfig(Operation *op,
                                                   llvm::StringRef key) {
  Operation *func = functionOf(op);
  if (!func)
    return std::nullopt;
  auto configs = func->getAttrOfType<DictionaryAttr>(kConfigs);
  if (!configs)
    return std::nullopt;
  auto value = dyn_cast_or_null<StringAttr>(configs.get(key));
  if (!value)
    return std::nullopt;
  return value.getValue();
}

bool tile::isPassConfigOn(Operation *op, llvm::StringRef key) {
  std::optional<llvm::StringRef> v = getPassConfig(op, key);
  if (!v)
    return false;
  if (*v == "True" || *v == "true")
    return true;
  long long n;
  return !v->getAsInteger(0, n) && n != 0;
}

std::vector<std::string> tile::getCompileFlags(Operation *op) {
  return stringsOf(op, kFlags);
}

void tile::setImportedSources(Operation *func,
                              llvm::ArrayRef<std::string> sources) {
  if (sources.empty())
    return;
  Builder b(func->getContext());
  SmallVector<Attribute> texts;
  for (const std::string &s : sources)
    texts.push_back(b.getStringAttr(s));
  func->setAttr(kImports, b.getArrayAttr(texts));
}

std::vector<std::string> tile::getImportedSources(Operation *op) {
  return stringsOf(op, kImports);
}
