//===- HostArgs.cpp - A kernel's arguments in host memory -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostArgs.h"

#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/runtime/DType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace tlc;
using namespace tlc::runtime;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The `.npy` file of input \p param of \p m under \p dir, or "" when
/// there is none: DIR/KERNEL/NAME.npy, else DIR/NAME.npy.
static std::string findInputFile(llvm::StringRef dir,
                                 const artifact::Manifest &m,
                                 llvm::StringRef param) {
  if (dir.empty())
    return "";
  for (llvm::StringRef sub : {llvm::StringRef(m.name), llvm::StringRef()}) {
    llvm::SmallString<256> p(dir);
    path::append(p, sub, param + ".npy");
    if (fs::exists(p))
      return p.str().str();
  }
  return "";
}

static std::string joinShape(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  for (int64_t e : shape)
    s += (s.empty() ? "" : ",") + std::to_string(e);
  return s;
}

llvm::Expected<HostArgs>
runtime::makeHostArgs(const artifact::Manifest &m,
                      const llvm::StringMap<std::string> &defs,
                      const HostArgsOptions &options) {
  HostArgs a;
  llvm::StringMap<int64_t> symbolValues;
  for (const artifact::Symbol &s : m.symbols) {
    auto it = defs.find(s.name);
    if (it == defs.end())
      return error("unbound symbol '" + s.name + "' of kernel '" + m.name +
                   "' (bind it with -D " + s.name + "=VALUE)");
    int64_t v;
    if (llvm::StringRef(it->second).getAsInteger(0, v))
      return error("-D " + s.name + "=" + it->second +
                   ": symbol values are integers");
    symbolValues[s.name] = v;
    a.symbols.push_back(v);
  }
  auto lookup = [&](llvm::StringRef name) -> std::optional<int64_t> {
    auto it = symbolValues.find(name);
    if (it == symbolValues.end())
      return std::nullopt;
    return it->second;
  };
  for (auto [index, p] : llvm::enumerate(m.params)) {
    std::optional<DType> dt = lookupDType(p.dtype);
    if (!dt)
      return error("parameter '" + p.name + "' has dtype '" + p.dtype +
                   "', which the runtime does not support");
    if (!p.isTensor) {
      auto it = defs.find(p.name);
      if (it == defs.end())
        return error("scalar parameter '" + p.name +
                     "' has no value (bind it with -D " + p.name + "=VALUE)");
      double v;
      if (llvm::StringRef(it->second).getAsDouble(v))
        return error("-D " + p.name + "=" + it->second + " is not a number");
      std::vector<uint8_t> bytes(dt->size);
      dt->store(bytes.data(), v);
      a.scalars.push_back(std::move(bytes));
      a.tensors.emplace_back();
      continue;
    }
    a.scalars.emplace_back();
    std::vector<int64_t> shape;
    for (const artifact::Extent &e : p.shape) {
      if (e.isStatic) {
        shape.push_back(e.value);
        continue;
      }
      auto expr = artifact::ShapeExpr::parse(e.expr);
      if (!expr)
        return expr.takeError();
      auto v = expr->evaluate(lookup);
      if (!v)
        return error("shape of '" + p.name +
                     "': " + llvm::toString(v.takeError()));
      if (*v < 0)
        return error("shape of '" + p.name + "': extent '" + e.expr + "' is " +
                     std::to_string(*v));
      shape.push_back(*v);
    }
    HostTensor t(*dt, shape);
    std::string file = p.role == artifact::Role::Out
                           ? std::string()
                           : findInputFile(options.inputsDir, m, p.name);
    if (p.role == artifact::Role::Out) {
      t.poison();
    } else if (file.empty()) {
      t.fillRandom(options.seed, index);
    } else {
      auto loaded = HostTensor::readNpy(file, *dt);
      if (!loaded)
        return loaded.takeError();
      if (loaded->shape != shape)
        return error(file + ": shape [" + joinShape(loaded->shape) +
                     "], but parameter '" + p.name + "' of kernel '" + m.name +
                     "' is " + p.dtype + "[" + joinShape(shape) + "]");
      t = std::move(*loaded);
      a.loaded.push_back(p.name);
    }
    a.tensors.push_back(std::move(t));
  }
  return a;
}

llvm::Error runtime::runWithHostArgs(Device &dev, Kernel &kernel,
                                     const artifact::Manifest &m,
                                     HostArgs &host,
                                     const RunOptions &options) {
  LaunchArgs args;
  args.symbols = host.symbols;
  args.numWorkers = options.numWorkers;
  std::vector<void *> owned;
  auto release = llvm::make_scope_exit([&] {
    for (void *p : owned)
      dev.release(p);
  });
  for (size_t i = 0; i < m.params.size(); ++i) {
    if (!host.tensors[i]) {
      args.params.push_back(host.scalars[i].data());
      continue;
    }
    HostTensor &t = *host.tensors[i];
    // A zero-size tensor still gets a distinct, valid pointer.
    auto mem = dev.allocate(std::max<size_t>(t.bytes.size(), 1));
    if (!mem)
      return mem.takeError();
    owned.push_back(*mem);
    if (llvm::Error e = dev.copyToDevice(*mem, t.bytes.data(), t.bytes.size()))
      return e;
    args.params.push_back(*mem);
  }
  if (llvm::Error e = kernel.run(args))
    return e;
  for (size_t i = 0; i < m.params.size(); ++i) {
    if (!host.tensors[i] || m.params[i].role == artifact::Role::In)
      continue;
    HostTensor &t = *host.tensors[i];
    if (llvm::Error e =
            dev.copyToHost(t.bytes.data(), args.params[i], t.bytes.size()))
      return e;
  }
  for (unsigned r = 0; r < options.warmupRuns; ++r)
    if (llvm::Error e = kernel.run(args))
      return e;
  for (unsigned r = 0; r < options.timedRuns; ++r) {
    auto ms = kernel.timeRun(args);
    if (!ms)
      return ms.takeError();
    if (options.timesMs)
      options.timesMs->push_back(*ms);
  }
  return llvm::Error::success();
}
