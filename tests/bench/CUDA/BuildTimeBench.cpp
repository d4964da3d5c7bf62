//===- BuildTimeBench.cpp - DSL -> CUDA source -> cubin build times -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Times, in one process and with one reused MLIRContext, each stage of
// `tlc-build --target=cuda:sm_90a` for some examples: parse, evaluate +
// Tile IR (the evaluator builds the IR as it traces, so the two are one
// stage), layout
// inference, CUDA source (manifest description and the emitter), and the
// pipeline from text to CUDA source.
// Median and minimum of N runs after warm-up runs. Then, once per example:
// the nvcc step to a cubin with an empty content-hash cache (cold), the whole
// in-process build to a ready cubin when the cache has it (median), and, when
// a tlc-build binary is given, the same as separate tlc-build processes
// (cold and cache hit). Prints one table.
//
// Usage: tlc-cuda-build-bench [--runs N] [--warmup N] [--tlc-build PATH]
//                             [--no-nvcc] [EXAMPLE.py...]
// Defaults: examples/gemm.py and examples/flash_attention_fwd.py, 20 runs
// after 3 warm-ups. Goal of issue 6: DSL -> CUDA source <= 5 ms.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Driver/Driver.h"
#include "tlc/Eval/Eval.h"
#include "tlc/Syntax/Parser.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

using namespace tlc;

#ifndef TLC_EXAMPLES_DIR
#define TLC_EXAMPLES_DIR "examples"
#endif

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Median and minimum of a list of times.
struct Stat {
  double median = -1, min = -1;
  static Stat of(std::vector<double> v) {
    Stat s;
    if (v.empty())
      return s;
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.min = v.front();
    return s;
  }
};

/// One table row: stage name and its time per example.
struct Row {
  std::string stage;
  std::map<std::string, Stat> byExample;
  std::string note;
};

struct Table {
  std::vector<std::string> examples;
  std::vector<Row> rows;
  Row &row(const std::string &stage, const std::string &note = "") {
    for (Row &r : rows)
      if (r.stage == stage)
        return r;
    rows.push_back({stage, {}, note});
    return rows.back();
  }
  void print(llvm::raw_ostream &os) const {
    os << llvm::format("%-44s", "stage (ms: median / min)");
    for (const std::string &e : examples)
      os << llvm::format(" | %-24s", e.c_str());
    os << "\n" << std::string(44, '-');
    for (size_t i = 0; i < examples.size(); ++i)
      os << "-+-" << std::string(24, '-');
    os << "\n";
    for (const Row &r : rows) {
      os << llvm::format("%-44s", r.stage.c_str());
      for (const std::string &e : examples) {
        auto it = r.byExample.find(e);
        std::string cell = "-";
        if (it != r.byExample.end() && it->second.median >= 0) {
          cell = llvm::formatv("{0:f3}", it->second.median).str();
          if (it->second.min != it->second.median)
            cell += llvm::formatv(" / {0:f3}", it->second.min).str();
        }
        os << llvm::format(" | %-24s", cell.c_str());
      }
      if (!r.note.empty())
        os << "  " << r.note;
      os << "\n";
    }
  }
};

/// The result of one in-process pass from text to CUDA source.
struct PassTimes {
  double parse = 0, evalIR = 0, layouts = 0, source = 0;
  size_t sourceBytes = 0, kernels = 0;
  bool ok = true;
  std::string error;
};

/// Runs parse -> evaluate -> Tile IR -> layouts -> CUDA source once.
/// With \p keep, stops before the CUDA source (buildCudaArtifacts emits it)
/// and moves the analysis there.
PassTimes runPass(const std::string &path, llvm::StringRef text,
                  mlir::MLIRContext &ctx, eval::FileAnalysis *keep = nullptr) {
  PassTimes t;
  eval::EvalOptions opts;
  opts.target = *eval::TargetInfo::parse("cuda:sm_90a");

  auto t0 = Clock::now();
  std::shared_ptr<const syntax::SyntaxTree> tree = syntax::parse(text, path);
  t.parse = msSince(t0);

  t0 = Clock::now();
  eval::FileAnalysis analysis = eval::analyzeFile(*tree, ctx, opts);
  t.evalIR = msSince(t0);
  for (const Diagnostic &d : analysis.diagnostics)
    if (d.severity == Severity::Error) {
      t.ok = false;
      t.error = d.message;
      return t;
    }
  if (!analysis.module) {
    t.ok = false;
    t.error = "no Tile IR";
    return t;
  }

  t0 = Clock::now();
  driver::inferLayouts(analysis, *tree, opts.target.name);
  t.layouts = msSince(t0);
  if (keep) {
    *keep = std::move(analysis);
    return t;
  }

  // What buildCudaArtifacts does before nvcc: lower, describe and emit.
  t0 = Clock::now();
  if (failed(tile::runGpuLowering(*analysis.module))) {
    t.ok = false;
    t.error = "the GPU lowering passes failed";
    return t;
  }
  for (auto func : analysis.module->getOps<tile::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    auto manifest = target::describeKernel(func);
    auto kernel = target::emitCudaKernel(func);
    if (failed(manifest) || failed(kernel)) {
      t.ok = false;
      t.error = "the CUDA emitter failed";
      return t;
    }
    t.sourceBytes += kernel->source.size();
    ++t.kernels;
  }
  t.source = msSince(t0);
  return t;
}

/// Runs \p args as a process; returns the wall time in ms (negative on
/// failure).
double timeProcess(llvm::ArrayRef<llvm::StringRef> args,
                   std::optional<llvm::ArrayRef<llvm::StringRef>> env) {
  std::string err;
  auto t0 = Clock::now();
  int rc = llvm::sys::ExecuteAndWait(args[0], args, env, {"", "", ""}, 0, 0,
                                     &err);
  double ms = msSince(t0);
  return rc == 0 ? ms : -1;
}

} // namespace

int main(int argc, char **argv) {
  int runs = 20, warmup = 3;
  bool nvcc = true;
  std::string tlcBuild;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--warmup" && i + 1 < argc)
      warmup = std::max(0, std::atoi(argv[++i]));
    else if (a == "--tlc-build" && i + 1 < argc)
      tlcBuild = argv[++i];
    else if (a == "--no-nvcc")
      nvcc = false;
    else if (a.starts_with("-")) {
      llvm::errs() << "usage: tlc-cuda-build-bench [--runs N] [--warmup N] "
                      "[--tlc-build PATH] [--no-nvcc] [EXAMPLE.py...]\n";
      return 2;
    } else
      files.push_back(a.str());
  }
  if (files.empty())
    files = {TLC_EXAMPLES_DIR "/gemm.py",
             TLC_EXAMPLES_DIR "/flash_attention_fwd.py"};

  llvm::SmallString<128> tmp;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("tlc-build-bench", tmp)) {
    llvm::errs() << "cannot create a temporary directory: " << ec.message()
                 << "\n";
    return 1;
  }
  std::string cacheDir = (tmp + "/cache").str();
  setenv("TLC_CACHE_DIR", cacheDir.c_str(), 1);
  unsetenv("TLC_NO_CACHE");

  Table table;
  int status = 0;
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer) {
      llvm::errs() << file << ": cannot read: " << buffer.getError().message()
                   << "\n";
      return 2;
    }
    std::string name = llvm::sys::path::filename(file).str();
    table.examples.push_back(name);
    llvm::StringRef text = (*buffer)->getBuffer();
    // A fresh context per example: its first pass is what a tlc-build
    // process sees (layout caches that live in the process stay warm for
    // the later examples).
    auto t0 = Clock::now();
    mlir::MLIRContext ctx(mlir::MLIRContext::Threading::DISABLED);
    eval::loadEvalDialects(ctx);
    double contextMs = msSince(t0);
    table.row("MLIRContext + dialects (once)").byExample[name] = {contextMs,
                                                                   contextMs};

    std::vector<double> parse, evalIR, layouts, source, total;
    PassTimes last;
    for (int r = 0; r < warmup + runs; ++r) {
      PassTimes t = runPass(file, text, ctx);
      if (!t.ok) {
        llvm::errs() << file << ": " << t.error << "\n";
        status = 1;
        break;
      }
      last = t;
      if (r == 0) {
        double first = t.parse + t.evalIR + t.layouts + t.source;
        table.row("DSL -> CUDA source, first pass").byExample[name] = {first,
                                                                      first};
      }
      if (r < warmup)
        continue;
      parse.push_back(t.parse);
      evalIR.push_back(t.evalIR);
      layouts.push_back(t.layouts);
      source.push_back(t.source);
      total.push_back(t.parse + t.evalIR + t.layouts + t.source);
    }
    table.row("parse").byExample[name] = Stat::of(parse);
    table.row("evaluate + Tile IR").byExample[name] = Stat::of(evalIR);
    table.row("layout inference").byExample[name] = Stat::of(layouts);
    table.row("CUDA source (describe + emit)").byExample[name] =
        Stat::of(source);
    table.row("DSL -> CUDA source, in process", "goal <= 5 ms")
        .byExample[name] = Stat::of(total);
    double bytes = static_cast<double>(last.sourceBytes);
    table.row("  (bytes of CUDA C++ emitted, not ms)").byExample[name] = {
        bytes, bytes};

    if (!nvcc || parse.empty())
      continue;
    auto nvccPath = target::findNvcc("");
    if (!nvccPath) {
      llvm::errs() << "nvcc: " << llvm::toString(nvccPath.takeError())
                   << "\n";
      continue;
    }
    // Cold: empty cache, nvcc runs. Then the whole in-process build again
    // with the cubin in the cache.
    std::string outDir = (tmp + "/" + name + ".out").str();
    // Cold: the artifact-writing step alone (nvcc and the files); a hit:
    // the whole build from the text.
    auto build = [&](bool useCache, bool cold,
                     target::CudaCompiler compiler =
                         target::CudaCompiler::Auto) -> double {
      eval::FileAnalysis analysis;
      auto start = Clock::now();
      PassTimes t = runPass(file, text, ctx, &analysis);
      if (!t.ok)
        return -1;
      target::CudaBuildOptions options;
      options.useCache = useCache;
      options.compiler = compiler;
      double front = msSince(start);
      auto n0 = Clock::now();
      bool ok = mlir::succeeded(
          target::buildCudaArtifacts(*analysis.module, outDir, options));
      double back = msSince(n0);
      if (!ok)
        return -1;
      return cold ? back : front + back;
    };
    // The cache directory is fresh: the first build is a miss (nvcc runs).
    double cold = build(/*useCache=*/true, /*cold=*/true);
    table.row("write artifacts + nvcc, cold (once)").byExample[name] = {
        cold, cold};
    std::vector<double> hits;
    for (int r = 0; r < std::min(runs, 10) && cold >= 0; ++r)
      hits.push_back(build(/*useCache=*/true, /*cold=*/false));
    table.row("DSL -> ready cubin, in process, cache hit").byExample[name] =
        Stat::of(hits);
    // NVRTC in process instead of an nvcc process (no cache: it compiles).
    auto nvrtc = target::getNvrtcVersion();
    bool haveNvrtc = static_cast<bool>(nvrtc);
    if (!haveNvrtc)
      llvm::consumeError(nvrtc.takeError());
    if (haveNvrtc) {
      double rtc = build(/*useCache=*/false, /*cold=*/true,
                         target::CudaCompiler::Nvrtc);
      table.row("write artifacts + NVRTC, in process (once)")
          .byExample[name] = {rtc, rtc};
    }

    if (tlcBuild.empty())
      continue;
    std::string procOut = (tmp + "/" + name + ".proc").str();
    llvm::StringRef args[] = {tlcBuild, file, "--target=cuda:sm_90a", "-o",
                              procOut};
    std::string noCache = "TLC_NO_CACHE=1";
    std::string cacheEnv = "TLC_CACHE_DIR=" + cacheDir;
    std::vector<llvm::StringRef> coldEnv, hitEnv;
    for (char **e = environ; *e; ++e) {
      coldEnv.push_back(*e);
      hitEnv.push_back(*e);
    }
    coldEnv.push_back(noCache);
    hitEnv.push_back(cacheEnv);
    double pcold = timeProcess(args, coldEnv);
    table.row("tlc-build process, cold (no cache, once)").byExample[name] = {
        pcold, pcold};
    std::vector<double> phits;
    for (int r = 0; r < std::min(runs, 10); ++r)
      phits.push_back(timeProcess(args, hitEnv));
    table.row("tlc-build process, cache hit").byExample[name] =
        Stat::of(phits);
    if (haveNvrtc) {
      llvm::StringRef rtcArgs[] = {tlcBuild, file, "--target=cuda:sm_90a",
                                   "--cuda-compiler=nvrtc", "-o", procOut};
      double prtc = timeProcess(rtcArgs, coldEnv);
      table.row("tlc-build process, NVRTC (no cache, once)")
          .byExample[name] = {prtc, prtc};
    }
  }
  llvm::outs() << "tlc CUDA build times (cuda:sm_90a; medians of " << runs
               << " runs after " << warmup
               << " warm-ups, one MLIRContext per example)\n";
  table.print(llvm::outs());
  llvm::sys::fs::remove_directories(tmp);
  return status;
}
