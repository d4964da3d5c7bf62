//===- Autotune.cpp - tlc-build --autotune on the target's device ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/HostArgs.h"
#include "tlc/runtime/HostTensor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace tlc;
using namespace tlc::build;
using namespace tlc::runtime;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// The manifests of \p kernel's instances in \p dir, by name.
std::vector<artifact::Manifest> findInstances(llvm::StringRef dir,
                                              llvm::StringRef kernel) {
  std::vector<artifact::Manifest> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (path::extension(it->path()) != ".json")
      continue;
    auto m = artifact::readManifest(it->path());
    if (!m) {
      llvm::consumeError(m.takeError());
      continue;
    }
    if (m->kernel == kernel)
      found.push_back(std::move(*m));
  }
  llvm::sort(found,
             [](const artifact::Manifest &a, const artifact::Manifest &b) {
               return a.name < b.name;
             });
  return found;
}

/// True when \p a and \p b take the same arguments (names, kinds, dtypes,
/// shapes and symbols), so one configuration's inputs serve the other.
bool sameArguments(const artifact::Manifest &a, const artifact::Manifest &b) {
  auto sameExtents = [](const std::vector<artifact::Extent> &x,
                        const std::vector<artifact::Extent> &y) {
    return llvm::equal(
        x, y, [](const artifact::Extent &e, const artifact::Extent &f) {
          return e.str() == f.str();
        });
  };
  return llvm::equal(a.params, b.params,
                     [&](const artifact::Param &p, const artifact::Param &q) {
                       return p.name == q.name && p.isTensor == q.isTensor &&
                              p.dtype == q.dtype && p.role == q.role &&
                              sameExtents(p.shape, q.shape);
                     }) &&
         llvm::equal(a.symbols, b.symbols,
                     [](const artifact::Symbol &x, const artifact::Symbol &y) {
                       return x.name == y.name;
                     });
}

/// Runs \p m from \p dir on \p dev: once for the outputs (copied back into
/// \p host), \p warmup more times, then \p runs timed runs; returns their
/// median in milliseconds.
llvm::Expected<double> runAndTime(Device &dev, const artifact::Manifest &m,
                                  llvm::StringRef dir, HostArgs &host,
                                  unsigned warmup, unsigned runs) {
  auto kernel = dev.loadKernel(m, dir);
  if (!kernel)
    return kernel.takeError();
  std::vector<double> times;
  RunOptions run;
  run.warmupRuns = warmup;
  run.timedRuns = std::max(1u, runs);
  run.timesMs = &times;
  if (llvm::Error e = runWithHostArgs(dev, **kernel, m, host, run))
    return std::move(e);
  llvm::sort(times);
  return times[times.size() / 2];
}

/// Why \p out does not match \p ref (empty when it does): outputs written
/// by the kernel, compared as TileLang's autotuner does.
std::string checkOutputs(const artifact::Manifest &m, const HostArgs &out,
                         const HostArgs &ref, const TuningOptions &options) {
  for (size_t i = 0; i < m.params.size(); ++i) {
    if (!getParamData(out, i) ||
        getParamDataRole(m.params[i]) == artifact::Role::In)
      continue;
    const HostTensor &o = *getParamData(out, i);
    const HostTensor &r = *getParamData(ref, i);
    if (o.shape != r.shape || o.dtype.size != r.dtype.size)
      return "output '" + m.params[i].name + "' differs in shape or dtype";
    Comparison c = compareTensors(o, r, options.rtol, options.atol);
    int64_t allowed =
        int64_t(options.maxMismatchedRatio * double(o.numElements()));
    if (c.nans > 0 || c.mismatches > allowed)
      return "output '" + m.params[i].name +
             "': " + std::to_string(c.mismatches) + " of " +
             std::to_string(o.numElements()) + " elements outside rtol/atol, " +
             std::to_string(c.nans) + " NaN (max abs error " +
             std::to_string(c.maxAbsError) + ")";
  }
  return "";
}

/// Why the outputs of \p m in \p host cannot serve as the reference (empty
/// when they can): a NaN is an element the kernel did not write (outputs
/// start poisoned), as tlc-run --verify treats it.
std::string checkWritten(const artifact::Manifest &m, const HostArgs &host) {
  for (size_t i = 0; i < m.params.size(); ++i) {
    if (!getParamData(host, i) ||
        getParamDataRole(m.params[i]) == artifact::Role::In)
      continue;
    const HostTensor &t = *getParamData(host, i);
    int64_t nans = 0;
    for (int64_t e = 0, n = t.numElements(); e < n; ++e)
      nans += std::isnan(t.get(e));
    if (nans)
      return "output '" + m.params[i].name + "' has " + std::to_string(nans) +
             " NaN (elements the kernel did not write)";
  }
  return "";
}

} // namespace

int tlc::build::tuneKernel(llvm::StringRef kernel,
                           llvm::ArrayRef<TunedConfig> configs,
                           const TuningOptions &options,
                           llvm::raw_ostream &os) {
  auto dev = openDevice(options.device);
  if (!dev) {
    os << "autotune: error: " << llvm::toString(dev.takeError()) << "\n";
    return 1;
  }
  // Instances of the kernel per configuration (several call sites give
  // several; each position is tuned on its own).
  std::vector<std::vector<artifact::Manifest>> instances;
  size_t positions = 0;
  for (const TunedConfig &c : configs) {
    instances.push_back(c.buildError.empty()
                            ? findInstances(c.dir, kernel)
                            : std::vector<artifact::Manifest>());
    positions = std::max(positions, instances.back().size());
  }
  if (positions == 0) {
    os << "autotune: " << kernel << ": no configuration built\n";
    for (const TunedConfig &c : configs)
      os << "  " << c.label << ": " << c.buildError << "\n";
    return 1;
  }
  bool anyPassed = false;
  for (size_t at = 0; at < positions; ++at) {
    std::optional<HostArgs> reference;
    // The inputs before the first run, reused while the arguments agree
    // (making random inputs is slower than running a kernel).
    std::optional<HostArgs> pristine;
    const artifact::Manifest *pristineFor = nullptr;
    std::optional<size_t> best;
    double bestMs = 0;
    for (auto [i, c] : llvm::enumerate(configs)) {
      os << "autotune: " << c.label << ": ";
      if (!c.buildError.empty()) {
        os << "build failed: " << c.buildError << "\n";
        continue;
      }
      if (at >= instances[i].size()) {
        os << "no instance\n";
        continue;
      }
      const artifact::Manifest &m = instances[i][at];
      llvm::Expected<HostArgs> host =
          pristineFor && sameArguments(m, *pristineFor)
              ? llvm::Expected<HostArgs>(*pristine)
              : makeHostArgs(m, options.values);
      if (!host) {
        os << "rejected: " << llvm::toString(host.takeError()) << "\n";
        continue;
      }
      if (!pristineFor || !sameArguments(m, *pristineFor)) {
        pristine = *host;
        pristineFor = &m;
      }
      auto ms =
          runAndTime(**dev, m, c.dir, *host, options.warmup, options.runs);
      if (!ms) {
        os << "rejected: " << llvm::toString(ms.takeError()) << "\n";
        continue;
      }
      if (reference) {
        std::string why = checkOutputs(m, *host, *reference, options);
        if (!why.empty()) {
          os << "rejected: " << why << "\n";
          continue;
        }
      } else {
        std::string why = checkWritten(m, *host);
        if (!why.empty()) {
          os << "rejected: " << why << "\n";
          continue;
        }
        reference = std::move(*host);
      }
      os << llvm::format("%.4f ms", *ms) << "\n";
      if (!best || *ms < bestMs) {
        best = i;
        bestMs = *ms;
      }
    }
    if (!best) {
      os << "autotune: " << kernel << ": no configuration passed\n";
      continue;
    }
    anyPassed = true;
    os << "autotune: best " << configs[*best].label << ": "
       << llvm::format("%.4f ms", bestMs) << " (" << configs[*best].dir
       << ")\n";
  }
  os.flush();
  return anyPassed ? 0 : 1;
}
