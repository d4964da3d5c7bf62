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
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>

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

/// The extents \p shape of parameter \p name evaluated with \p lookup.
static llvm::Expected<std::vector<int64_t>>
evaluateShape(const std::vector<artifact::Extent> &shape, llvm::StringRef name,
              llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>
                  lookup) {
  std::vector<int64_t> out;
  for (const artifact::Extent &e : shape) {
    if (e.isStatic) {
      out.push_back(e.value);
      continue;
    }
    auto expr = artifact::ShapeExpr::parse(e.expr);
    if (!expr)
      return expr.takeError();
    auto v = expr->evaluate(lookup);
    if (!v)
      return error("shape of '" + name + "': " + llvm::toString(v.takeError()));
    if (*v < 0)
      return error("shape of '" + name + "': extent '" + e.expr + "' is " +
                   std::to_string(*v));
    out.push_back(*v);
  }
  return out;
}

/// The element strides \p strides of parameter \p p (of extents \p shape)
/// evaluated with \p lookup: each non-negative, and for a parameter the
/// kernel writes no two elements at one offset.
static llvm::Expected<std::vector<int64_t>>
evaluateStrides(const artifact::Param &p, llvm::ArrayRef<int64_t> shape,
                llvm::function_ref<std::optional<int64_t>(llvm::StringRef)>
                    lookup) {
  std::vector<int64_t> out;
  for (const artifact::Extent &e : p.strides) {
    int64_t v = e.value;
    if (!e.isStatic) {
      auto expr = artifact::ShapeExpr::parse(e.expr);
      if (!expr)
        return expr.takeError();
      auto r = expr->evaluate(lookup);
      if (!r)
        return error("strides of '" + p.name +
                     "': " + llvm::toString(r.takeError()));
      v = *r;
    }
    if (v < 0)
      return error("strides of '" + p.name + "': stride '" + e.str() +
                   "' is " + std::to_string(v));
    out.push_back(v);
  }
  if (p.role == artifact::Role::In)
    return out;
  // Written: sorted by stride, each dimension must step past the whole
  // extent of the ones below it.
  std::vector<std::pair<int64_t, int64_t>> dims; // (stride, extent)
  for (auto [st, ext] : llvm::zip(out, shape))
    if (ext > 1)
      dims.push_back({st, ext});
  llvm::sort(dims);
  int64_t span = 1;
  for (auto [st, ext] : dims) {
    if (st < span)
      return error("strides of '" + p.name +
                   "' place two elements at one address, but the kernel "
                   "writes it (bind the stride symbols with -D)");
    span = st * ext;
  }
  return out;
}

/// Fills \p t, the data of parameter \p name: poisoned when the kernel
/// only writes it, else read from the inputs directory (recorded in
/// \p loaded) or random (stream \p stream).
static llvm::Error fillTensor(HostTensor &t, const artifact::Manifest &m,
                              llvm::StringRef name, llvm::StringRef dtype,
                              artifact::Role role, uint64_t stream,
                              const HostArgsOptions &options,
                              std::vector<std::string> &loaded) {
  if (role == artifact::Role::Out) {
    t.poison();
    return llvm::Error::success();
  }
  std::string file = findInputFile(options.inputsDir, m, name);
  if (file.empty()) {
    auto spec = options.fills.find(name);
    if (spec != options.fills.end())
      t.fill(spec->second, options.seed, stream);
    else
      t.fillRandom(options.seed, stream);
    return llvm::Error::success();
  }
  auto read = HostTensor::readNpy(file, t.dtype);
  if (!read)
    return read.takeError();
  if (read->shape != t.shape)
    return error(file + ": shape [" + joinShape(read->shape) +
                 "], but parameter '" + name + "' of kernel '" + m.name +
                 "' is " + dtype + "[" + joinShape(t.shape) + "]");
  t = std::move(*read);
  loaded.push_back(name.str());
  return llvm::Error::success();
}

/// Where a symbol's value came from, for messages.
struct Binding {
  int64_t value;
  std::string from;
};

/// The extents of parameter \p p as they are laid out in its `.npy` file:
/// its shape, or for a pointer table the table's length then the pointee's.
static std::vector<artifact::Extent> fileExtents(const artifact::Param &p) {
  if (!p.pointee)
    return p.shape;
  std::vector<artifact::Extent> out;
  if (!p.shape.empty())
    out.push_back(p.shape[0]);
  out.insert(out.end(), p.pointee->shape.begin(), p.pointee->shape.end());
  return out;
}

/// The symbol that extent \p e is, when it is one symbol alone.
static std::optional<std::string> plainSymbol(const artifact::Extent &e) {
  if (e.isStatic)
    return std::nullopt;
  auto expr = artifact::ShapeExpr::parse(e.expr);
  if (!expr) {
    llvm::consumeError(expr.takeError());
    return std::nullopt;
  }
  std::vector<std::string> names;
  expr->collectSymbols(names);
  if (names.size() != 1 || llvm::StringRef(e.expr).trim() != names[0])
    return std::nullopt;
  return names[0];
}

/// Binds the symbols not in \p bound that are whole extents of a
/// parameter with a file in the inputs directory (DIR/NAME.npy: inputs and
/// outputs alike, an output's file giving only its shape) from that file's
/// shape, and records every file's shape in \p fileShapes. A file of the
/// wrong rank, or whose extent disagrees with a symbol's value from -D or
/// from another file, is an error naming both.
static llvm::Error
bindFromInputFiles(const artifact::Manifest &m, llvm::StringRef dir,
                   llvm::StringMap<Binding> &bound,
                   std::vector<std::optional<std::vector<int64_t>>> &fileShapes) {
  fileShapes.assign(m.params.size(), std::nullopt);
  if (dir.empty())
    return llvm::Error::success();
  for (auto [index, p] : llvm::enumerate(m.params)) {
    if (!p.isTensor)
      continue;
    std::string file = findInputFile(dir, m, p.name);
    if (file.empty())
      continue;
    auto shape = HostTensor::readNpyShape(file);
    if (!shape)
      return shape.takeError();
    // Packed fp4 files hold two elements a byte of the last extent.
    if (std::optional<DType> dt = lookupDType(p.dtype);
        dt && dt->isPacked() && !shape->empty())
      shape->back() *= 2;
    std::vector<artifact::Extent> extents = fileExtents(p);
    std::vector<std::string> spelled;
    for (const artifact::Extent &e : extents)
      spelled.push_back(e.str());
    if (shape->size() != extents.size())
      return error(file + ": shape [" + joinShape(*shape) + "] has " +
                   std::to_string(shape->size()) + " dimensions, but " +
                   "parameter '" + p.name + "' of kernel '" + m.name +
                   "' has " + std::to_string(extents.size()) + ": [" +
                   llvm::join(spelled, ", ") + "]");
    for (auto [d, e] : llvm::enumerate(extents)) {
      std::optional<std::string> sym = plainSymbol(e);
      if (!sym)
        continue;
      std::string here = p.name + ".npy dimension " + std::to_string(d);
      auto it = bound.find(*sym);
      if (it == bound.end()) {
        bound[*sym] = {(*shape)[d], here};
        continue;
      }
      if (it->second.value != (*shape)[d])
        return error(file + ": shape [" + joinShape(*shape) +
                     "] gives symbol '" + *sym + "' of kernel '" + m.name +
                     "' the value " + std::to_string((*shape)[d]) + " (" +
                     here + "), but " + it->second.from + " gives " +
                     std::to_string(it->second.value));
    }
    fileShapes[index] = std::move(*shape);
  }
  return llvm::Error::success();
}

llvm::Expected<HostArgs>
runtime::makeHostArgs(const artifact::Manifest &m,
                      const llvm::StringMap<std::string> &defs,
                      const HostArgsOptions &options) {
  HostArgs a;
  llvm::StringMap<int64_t> symbolValues;
  // A stride symbol nobody binds takes the dense row-major value of the
  // stride it is: the product of the later extents (given the symbols
  // bound so far).
  auto denseStride =
      [&](llvm::StringRef name,
          const llvm::StringMap<int64_t> &known) -> std::optional<int64_t> {
    for (const artifact::Param &p : m.params)
      for (size_t d = 0; d < p.strides.size() && d < p.shape.size(); ++d) {
        if (p.strides[d].isStatic || p.strides[d].expr != name)
          continue;
        int64_t v = 1;
        for (size_t k = d + 1; k < p.shape.size(); ++k) {
          int64_t e = p.shape[k].value;
          if (!p.shape[k].isStatic) {
            auto expr = artifact::ShapeExpr::parse(p.shape[k].expr);
            if (!expr) {
              llvm::consumeError(expr.takeError());
              return std::nullopt;
            }
            auto r = expr->evaluate([&](llvm::StringRef n) {
              auto it = known.find(n);
              return it == known.end() ? std::optional<int64_t>()
                                       : std::optional<int64_t>(it->second);
            });
            if (!r) {
              llvm::consumeError(r.takeError());
              return std::nullopt;
            }
            e = *r;
          }
          v *= std::max<int64_t>(e, 1);
        }
        return v;
      }
    return std::nullopt;
  };
  llvm::StringMap<Binding> bound;
  for (const artifact::Symbol &s : m.symbols) {
    auto it = defs.find(s.name);
    if (it == defs.end())
      continue;
    int64_t v;
    if (llvm::StringRef(it->second).getAsInteger(0, v))
      return error("-D " + s.name + "=" + it->second +
                   ": symbol values are integers");
    bound[s.name] = {v, "-D " + s.name + "=" + it->second};
  }
  // Extents the files of --inputs give (a varlen batch's total length is
  // the length of its Q_unpad.npy).
  std::vector<std::optional<std::vector<int64_t>>> fileShapes;
  if (llvm::Error e = bindFromInputFiles(m, options.inputsDir, bound,
                                         fileShapes))
    return std::move(e);
  for (const artifact::Symbol &s : m.symbols) {
    auto it = bound.find(s.name);
    if (it != bound.end()) {
      symbolValues[s.name] = it->second.value;
      continue;
    }
    // A stride symbol is bound after the others (their extents give the
    // dense value).
    if (s.kind == "stride")
      continue;
    return error("unbound symbol '" + s.name + "' of kernel '" + m.name +
                 "' (bind it with -D " + s.name + "=VALUE" +
                 (s.kind == "param"
                      ? std::string(")")
                      : std::string(", or give an input NAME.npy with "
                                    "--inputs DIR whose shape has it)")));
  }
  for (const artifact::Symbol &s : m.symbols) {
    if (symbolValues.count(s.name))
      continue;
    std::optional<int64_t> v = denseStride(s.name, symbolValues);
    if (!v)
      return error("unbound stride symbol '" + s.name + "' of kernel '" +
                   m.name + "' (bind it with -D " + s.name + "=VALUE)");
    symbolValues[s.name] = *v;
  }
  for (const artifact::Symbol &s : m.symbols)
    a.symbols.push_back(symbolValues[s.name]);
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
      a.pointees.emplace_back();
      a.strides.emplace_back();
      continue;
    }
    a.scalars.emplace_back();
    auto shape = evaluateShape(p.shape, p.name, lookup);
    if (!shape)
      return shape.takeError();
    auto strides = evaluateStrides(p, *shape, lookup);
    if (!strides)
      return strides.takeError();
    if (!strides->empty() && (p.pointee || p.pointer))
      return error("parameter '" + p.name +
                   "' has strides and is a pointer: not supported");
    if (!strides->empty() && dt->isPacked())
      return error("parameter '" + p.name +
                   "' is float4_e2m1fn with strides: the runtime passes "
                   "packed fp4 tensors dense only");
    a.strides.push_back(std::move(*strides));
    if (const auto &fs = fileShapes[index]) {
      // The file's shape against the evaluated one (affine extents, and
      // an output's file, which is not read).
      std::vector<int64_t> want = *shape;
      if (p.pointee) {
        auto inner = evaluateShape(p.pointee->shape, p.name, lookup);
        if (!inner)
          return inner.takeError();
        want.resize(std::min<size_t>(want.size(), 1));
        want.insert(want.end(), inner->begin(), inner->end());
      }
      if (*fs != want) {
        std::vector<artifact::Extent> extents = fileExtents(p);
        std::string diff;
        for (size_t d = 0; d < want.size() && d < fs->size(); ++d)
          if ((*fs)[d] != want[d])
            diff += (diff.empty() ? "" : "; ") + std::string("dimension ") +
                    std::to_string(d) + " is " + std::to_string((*fs)[d]) +
                    " in the file and " + extents[d].str() + " = " +
                    std::to_string(want[d]) + " in the kernel";
        return error(findInputFile(options.inputsDir, m, p.name) +
                     ": shape [" + joinShape(*fs) + "], but parameter '" +
                     p.name + "' of kernel '" + m.name + "' is " +
                     (p.pointee ? p.pointee->dtype : p.dtype) + "[" +
                     joinShape(want) + "]: " + diff);
      }
    }
    HostTensor t(*dt, *shape);
    if (!p.pointee) {
      if (llvm::Error e = fillTensor(t, m, p.name, p.dtype, p.role, index,
                                     options, a.loaded))
        return e;
      a.tensors.push_back(std::move(t));
      a.pointees.emplace_back();
      continue;
    }
    // A pointer table: the table gets addresses at launch; what it points
    // at is the parameter's data (stream `index` too: the table itself
    // draws nothing).
    std::optional<DType> pdt = lookupDType(p.pointee->dtype);
    if (!pdt)
      return error("pointer table '" + p.name + "' points at dtype '" +
                   p.pointee->dtype +
                   "', which the runtime does not support");
    auto inner = evaluateShape(p.pointee->shape, p.name, lookup);
    if (!inner)
      return inner.takeError();
    std::vector<int64_t> stacked{(*shape)[0]};
    stacked.insert(stacked.end(), inner->begin(), inner->end());
    HostTensor pointee(*pdt, stacked);
    // Tensors a table points at are the caller's memory, which a kernel
    // commonly writes in part (a grouped GEMM's views span the largest
    // group): written-only ones start random, not poisoned, so unwritten
    // elements keep values both runs share instead of counting as NaN.
    artifact::Role fill = p.pointee->role == artifact::Role::Out
                              ? artifact::Role::InOut
                              : p.pointee->role;
    if (llvm::Error e = fillTensor(pointee, m, p.name, p.pointee->dtype, fill,
                                   index, options, a.loaded))
      return e;
    a.tensors.push_back(std::move(t));
    a.pointees.push_back(std::move(pointee));
  }
  return a;
}

/// Calls \p f(k, offset) for each element k (row-major) of \p t with its
/// element offset at \p strides.
template <typename F>
static void forEachStridedElement(const HostTensor &t,
                                  llvm::ArrayRef<int64_t> strides, F f) {
  int64_t n = t.numElements();
  std::vector<int64_t> idx(t.shape.size(), 0);
  int64_t at = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(k, at);
    // The next row-major index, its offset updated incrementally.
    for (int d = int(idx.size()) - 1; d >= 0; --d) {
      at += strides[d];
      if (++idx[d] < t.shape[d])
        break;
      at -= strides[d] * idx[d];
      idx[d] = 0;
    }
  }
}

/// The device bytes of \p t at \p strides: enough for its farthest
/// element, each element at its offset, every other byte 0xff (NaN for
/// floats, so that a kernel reading between the elements shows it).
static std::vector<uint8_t> stridedBytes(const HostTensor &t,
                                         llvm::ArrayRef<int64_t> strides) {
  int64_t last = 0;
  for (auto [st, ext] : llvm::zip(strides, t.shape))
    last += st * std::max<int64_t>(ext - 1, 0);
  size_t count = t.numElements() ? size_t(last + 1) : 0;
  std::vector<uint8_t> span(count * t.dtype.size, 0xff);
  forEachStridedElement(t, strides, [&](int64_t k, int64_t at) {
    std::memcpy(span.data() + at * t.dtype.size,
                t.bytes.data() + k * t.dtype.size, t.dtype.size);
  });
  return span;
}

llvm::Error runtime::runWithHostArgs(Device &dev, Kernel &kernel,
                                     const artifact::Manifest &m,
                                     HostArgs &host,
                                     const RunOptions &options) {
  LaunchArgs args;
  args.symbols = host.symbols;
  // The device tensors of each pointer table's elements.
  std::vector<std::vector<void *>> pointees(m.params.size());
  args.numWorkers = options.numWorkers;
  std::vector<void *> owned;
  const bool inPlace = dev.getKind() == "cpu" && options.warmupRuns == 0 &&
                       options.timedRuns == 0;
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
    if (host.pointees[i]) {
      // One device tensor per table element (each its own allocation, so
      // an access past one is out of bounds, not in its neighbour).
      HostTensor &all = *host.pointees[i];
      size_t count = t.numElements();
      size_t each = count ? all.bytes.size() / count : 0;
      for (size_t k = 0; k < count; ++k) {
        auto mem = dev.allocate(std::max<size_t>(each, 1));
        if (!mem)
          return mem.takeError();
        owned.push_back(*mem);
        if (llvm::Error e =
                dev.copyToDevice(*mem, all.bytes.data() + k * each, each))
          return e;
        int64_t address = int64_t(reinterpret_cast<uintptr_t>(*mem));
        std::memcpy(t.bytes.data() + k * sizeof(int64_t), &address,
                    sizeof(int64_t));
        pointees[i].push_back(*mem);
      }
    }
    if (i < host.strides.size() && !host.strides[i].empty()) {
      // A strided tensor: its elements at their offsets in a span of
      // 0xff bytes.
      std::vector<uint8_t> span = stridedBytes(t, host.strides[i]);
      auto mem = dev.allocate(std::max<size_t>(span.size(), 1));
      if (!mem)
        return mem.takeError();
      owned.push_back(*mem);
      if (llvm::Error e = dev.copyToDevice(*mem, span.data(), span.size()))
        return e;
      args.params.push_back(*mem);
      continue;
    }
    // The CPU device runs a single run on the host tensor itself: its
    // "device memory" would be a copy in host memory (gigabytes at the
    // corpus programs' sizes, copied in and out). Repeated runs
    // (--bench) get copies, so that an accumulating kernel's first result
    // stays what the host keeps.
    if (inPlace && !t.bytes.empty()) {
      args.params.push_back(t.bytes.data());
      continue;
    }
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
    if (host.pointees[i] && m.params[i].pointee->role != artifact::Role::In) {
      HostTensor &all = *host.pointees[i];
      size_t each = pointees[i].empty() ? 0
                                        : all.bytes.size() / pointees[i].size();
      for (size_t k = 0; k < pointees[i].size(); ++k)
        if (llvm::Error e = dev.copyToHost(all.bytes.data() + k * each,
                                           pointees[i][k], each))
          return e;
    }
    if (!host.tensors[i] || m.params[i].role == artifact::Role::In)
      continue;
    HostTensor &t = *host.tensors[i];
    if (i < host.strides.size() && !host.strides[i].empty()) {
      std::vector<uint8_t> span = stridedBytes(t, host.strides[i]);
      if (llvm::Error e =
              dev.copyToHost(span.data(), args.params[i], span.size()))
        return e;
      forEachStridedElement(t, host.strides[i], [&](int64_t k, int64_t at) {
        std::memcpy(t.bytes.data() + k * t.dtype.size,
                    span.data() + at * t.dtype.size, t.dtype.size);
      });
      continue;
    }
    if (args.params[i] == t.bytes.data()) // run in place
      continue;
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

llvm::Error runtime::runOnHostMemory(Device &dev, Kernel &kernel,
                                     const artifact::Manifest &m,
                                     const LaunchArgs &args) {
  if (args.params.size() != m.params.size() ||
      args.symbols.size() != m.symbols.size())
    return error("kernel '" + m.name + "' takes " +
                 llvm::Twine(m.params.size()) + " parameters and " +
                 llvm::Twine(m.symbols.size()) + " symbols, got " +
                 llvm::Twine(args.params.size()) + " and " +
                 llvm::Twine(args.symbols.size()));
  auto lookup = [&](llvm::StringRef name) -> std::optional<int64_t> {
    for (auto [s, v] : llvm::zip(m.symbols, args.symbols))
      if (s.name == name)
        return v;
    return std::nullopt;
  };
  LaunchArgs staged = args;
  std::vector<std::pair<size_t, size_t>> written; // (parameter, bytes)
  std::vector<void *> owned;
  llvm::scope_exit release([&] {
    for (void *p : owned)
      dev.release(p);
  });
  for (size_t i = 0; i < m.params.size(); ++i) {
    const artifact::Param &p = m.params[i];
    if (!p.isTensor || !args.params[i])
      continue;
    if (p.pointee)
      return error("kernel '" + m.name + "': parameter '" + p.name +
                   "' is a table of tensor addresses, which cannot be "
                   "copied from host memory");
    auto shape = evaluateShape(p.shape, p.name, lookup);
    if (!shape)
      return shape.takeError();
    // Elements up to the farthest one (row-major when dense).
    int64_t count = 1;
    if (p.strides.empty()) {
      for (int64_t e : *shape)
        count *= e;
    } else {
      auto strides = evaluateStrides(p, *shape, lookup);
      if (!strides)
        return strides.takeError();
      for (auto [st, ext] : llvm::zip(*strides, *shape))
        count += st * (ext - 1);
      if (llvm::is_contained(*shape, 0))
        count = 0;
    }
    std::optional<int64_t> bytes = artifact::getDTypeBytes(p.dtype, count);
    if (!bytes)
      return error("kernel '" + m.name + "': parameter '" + p.name +
                   "' has dtype '" + p.dtype + "' of unknown size");
    auto mem = dev.allocate(std::max<size_t>(size_t(*bytes), 1));
    if (!mem)
      return mem.takeError();
    owned.push_back(*mem);
    if (llvm::Error e = dev.copyToDevice(*mem, args.params[i], size_t(*bytes)))
      return e;
    staged.params[i] = *mem;
    if (p.role != artifact::Role::In)
      written.push_back({i, size_t(*bytes)});
  }
  if (llvm::Error e = kernel.run(staged))
    return e;
  for (auto [i, bytes] : written)
    if (llvm::Error e = dev.copyToHost(args.params[i], staged.params[i], bytes))
      return e;
  return llvm::Error::success();
}
