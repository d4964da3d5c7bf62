//===- tlc-build.cpp - The tlc build driver -------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Command line:
//
//   tlc-build [options] FILE.py...
//     --emit=ast     one line per statement, pre-order: `LINE:COL KIND`
//                    (1-based line, 0-based UTF-8 byte column, CPython `ast`
//                    class name). With several files, each file's output is
//                    preceded by a `==> FILE <==` header line.
//     --check, --emit=tile|hints, --verify-diagnostics   analysis (TLCDriver)
//     --emit=lowered  the IR after the target's lowering passes
//     --emit=cuda|hip|cpp the generated CUDA / HIP / CPU C++ of every
//                    instance, written nowhere
//     -o DIR         artifacts of every instance (source, binary, manifest)
//     --emit=layout-svg [--buffer=NAME] [-o DIR]   an SVG picture of every
//                    fragment and shared buffer's layout, into DIR (one
//                    file each); without -o the one matching buffer's SVG
//                    on stdout
//     --print-ir-after-all, --print-ir-after=PASS   with -o or
//                    --emit=lowered|cuda: the module after each lowering pass,
//                    on stderr
//     -j N           with -o, build N kernel instances at once (one child
//                    tlc-build per instance; output printed in order)
//     --autotune     build every configuration of each @tilelang.autotune
//                    kernel (-j at once), run them on the target's device,
//                    check each against the first, time them, print the best
//
// Exit status: 0 without errors, 1 when some file has errors (diagnostics
// `file:line:col: error: message` on stderr), 2 for bad usage.
//
// New emitters plug into `emitters` below: each is a name, a help line and a
// function from a parsed file to an exit status.
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"
#include "Configs.h"
#include "DiagnosticsFile.h"
#include "EmitModes.h"
#include "EnvironReport.h"
#include "Inputs.h"
#include "Jobs.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Driver/Driver.h"
#include "tlc/Driver/LayoutViews.h"
#include "tlc/Driver/Lowering.h"
#include "tlc/Support/Diagnostic.h"
#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/SyntaxTree.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"
#include "tlc/Target/CUDA/CUDATarget.h"
#include "tlc/Target/HIP/HIPTarget.h"
#include "tlc/Target/Cpp/CppEmitter.h"
#include "tlc/Target/Cpp/CpuTarget.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

using namespace tlc;
using namespace tlc::build;
namespace cl = llvm::cl;

namespace {

/// The target the kernels are analysed for. `cuda:A,B,...` (a fatbin for
/// several architectures) is analysed as its oldest architecture, with the
/// smallest shared-memory budget of the list, so the code fits all of them.
std::optional<eval::TargetInfo> analysisTarget(llvm::StringRef spec) {
  llvm::StringRef prefix = spec.starts_with("cuda:")  ? "cuda:"
                           : spec.starts_with("hip:") ? "hip:"
                                                      : "";
  if (prefix.empty() || !spec.contains(','))
    return eval::TargetInfo::parse(spec);
  llvm::SmallVector<llvm::StringRef, 4> archs;
  spec.drop_front(prefix.size()).split(archs, ',');
  std::optional<eval::TargetInfo> result;
  for (llvm::StringRef arch : archs) {
    std::optional<eval::TargetInfo> t =
        eval::TargetInfo::parse((prefix + arch.trim()).str());
    if (!t)
      return std::nullopt;
    if (!result) {
      result = t;
      continue;
    }
    int64_t shared = std::min(result->sharedMemoryBytes, t->sharedMemoryBytes);
    // "cuda:sm_80" < "cuda:sm_86" < "cuda:sm_90a"; "hip:gfx90a" < "hip:gfx942"
    if (t->name < result->name)
      result = t;
    result->sharedMemoryBytes = shared;
  }
  return result;
}

/// How `-o` builds: in this process, or fanned out to child builds.
struct BuildPlan {
  /// Child builds at once (`-j`); 1 builds here.
  unsigned jobs = 1;
  /// The options every child gets (everything but the inputs, -o, -j).
  std::vector<std::string> childArgs;
  /// In a child: the one instance to build (the parent printed the
  /// analysis diagnostics).
  std::string instance;
  /// `--replace-source`: the text compiled in place of the generated
  /// source of the one instance built.
  std::optional<std::string> sourceOverride;
  /// `--layouts-of`: whose fragment layouts a CPU build follows.
  std::string layoutsOf;
};

/// Removes every kernel instance but \p name from \p module.
void keepOnlyInstance(mlir::ModuleOp module, llvm::StringRef name) {
  for (tile::FuncOp f :
       llvm::make_early_inc_range(module.getOps<tile::FuncOp>()))
    if (!f.isDeclaration() && f.getSymName() != name)
      f.erase();
}

/// The instances of \p module a build would write, with the warnings (or
/// errors) for those it cannot, as the back ends report them.
std::vector<std::string> instancesToBuild(mlir::ModuleOp module,
                                          llvm::StringRef kernelFilter,
                                          bool &ok) {
  std::vector<std::string> names;
  for (tile::FuncOp f : module.getOps<tile::FuncOp>())
    if (!target::skipUnbuildable(f, kernelFilter, ok))
      names.push_back(f.getSymName().str());
  return names;
}

/// False, with an error for each, when two of the files \p results build a
/// kernel instance of the same name: both would write DIR/NAME.* (the
/// second overwrote the first without a word).
bool uniqueInstanceNames(llvm::MutableArrayRef<driver::FileResult> results,
                         llvm::StringRef outDir) {
  llvm::StringMap<std::string> owner;
  bool unique = true;
  for (driver::FileResult &r : results) {
    if (!r.analysis.module)
      continue;
    for (tile::FuncOp f : r.analysis.module->getOps<tile::FuncOp>()) {
      if (f.isDeclaration())
        continue;
      auto [it, fresh] = owner.try_emplace(f.getSymName(), r.path);
      if (fresh || it->second == r.path)
        continue;
      llvm::errs() << "tlc-build: error: " << r.path << " and " << it->second
                   << " both build a kernel instance named '" << f.getSymName()
                   << "', whose artifacts would be the "
                   << "same files in '" << outDir
                   << "'; build them into separate directories\n";
      unique = false;
    }
  }
  return unique;
}

int buildArtifactsOf(driver::Driver &drv,
                     std::vector<driver::FileResult> &results,
                     build::BuildDiagnostics &diags, llvm::StringRef outDir,
                     llvm::StringRef targetName, bool lineDirectives,
                     target::CudaCompiler cudaCompiler,
                     const driver::LoweringOptions &lowering,
                     const BuildPlan &plan);

/// `-o DIR`: analyses every file and writes the artifacts of every kernel
/// instance (source, binary, NAME.json) into \p outDir, and every
/// diagnostic to --diagnostics-file. Returns the exit status.
int buildArtifacts(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                   llvm::StringRef outDir, llvm::StringRef targetName,
                   bool lineDirectives, target::CudaCompiler cudaCompiler,
                   const driver::LoweringOptions &lowering,
                   const BuildPlan &plan) {
  bool isCuda = targetName.starts_with("cuda:");
  bool isHip = targetName.starts_with("hip:");
  if (targetName != "cpu" && !isCuda && !isHip) {
    llvm::errs()
        << "tlc-build: error: -o: --target=" << targetName
        << " does not write artifacts (cpu, cuda:sm_80, cuda:sm_86, "
           "cuda:sm_89, cuda:sm_90a, cuda:sm_100a, cuda:sm_120a, hip:gfx90a, "
           "hip:gfx942 and "
           "hip:gfx950 do)\n";
    return 2;
  }
  std::vector<std::string> archs;
  if (isCuda && !readCudaArchitectures("-o", targetName, archs))
    return 2;
  if (isHip && !readHipArchitectures("-o", targetName, archs))
    return 2;
  std::vector<driver::FileResult> results;
  if (!analyzeInputs(drv, inputs, results, !plan.instance.empty()))
    return 2;
  build::BuildDiagnostics diags;
  diags.analysis = plan.instance.empty();
  diags.target.resize(results.size());
  int status = buildArtifactsOf(drv, results, diags, outDir, targetName,
                                lineDirectives, cudaCompiler, lowering, plan);
  if (!reportFiles().diagnostics.empty()) {
    bool written =
        build::writeDiagnosticsFile(reportFiles().diagnostics, results, diags);
    for (const std::string &child : diags.childFiles)
      llvm::sys::fs::remove(child);
    if (!written)
      return std::max(status, 2);
  }
  return status;
}

/// buildArtifacts once \p results are analysed: collects the back ends'
/// diagnostics into \p diags. Returns the exit status.
int buildArtifactsOf(driver::Driver &drv,
                     std::vector<driver::FileResult> &results,
                     build::BuildDiagnostics &diags, llvm::StringRef outDir,
                     llvm::StringRef targetName, bool lineDirectives,
                     target::CudaCompiler cudaCompiler,
                     const driver::LoweringOptions &lowering,
                     const BuildPlan &plan) {
  const driver::DriverOptions &opts = drv.getOptions();
  bool isCuda = targetName.starts_with("cuda:");
  bool isHip = targetName.starts_with("hip:");
  if (!uniqueInstanceNames(results, outDir))
    return 1;
  bool anyError = false;
  // -j N: one child build per instance, N at once.
  std::vector<build::Job> jobs;
  for (auto [index, r] : llvm::enumerate(results)) {
    if (plan.jobs <= 1 || hasErrors(r.diagnostics) || !r.analysis.module)
      continue;
    BackendDiagnostics diagnostics(r.analysis.module->getContext(), r,
                                   opts.showSourceLines, &diags.target[index]);
    bool ok = true;
    for (const std::string &name :
         instancesToBuild(*r.analysis.module, opts.eval.kernelFilter, ok)) {
      build::Job job;
      job.args = plan.childArgs;
      job.args.insert(job.args.end(),
                      {r.path, "--build-instance=" + name, "-o", outDir.str()});
      // Each child writes its target's diagnostics to a file of its own;
      // this process merges them into --diagnostics-file.
      if (!reportFiles().diagnostics.empty()) {
        diags.childFiles.push_back(reportFiles().diagnostics + ".job" +
                                   std::to_string(jobs.size()));
        job.args.push_back("--diagnostics-file=" + diags.childFiles.back());
      }
      jobs.push_back(std::move(job));
    }
    anyError |= !ok;
  }
  if (plan.jobs > 1) {
    build::runJobs(jobs, plan.jobs);
    int worst = build::printJobs(jobs, llvm::outs(), llvm::errs());
    for (driver::FileResult &r : results)
      anyError |= hasErrors(r.diagnostics);
    return std::max(worst, anyError ? 1 : 0);
  }
  for (auto [index, r] : llvm::enumerate(results)) {
    if (hasErrors(r.diagnostics)) {
      anyError = true;
      continue;
    }
    if (!r.analysis.module)
      continue;
    if (!plan.instance.empty())
      keepOnlyInstance(*r.analysis.module, plan.instance);
    BackendDiagnostics diagnostics(r.analysis.module->getContext(), r,
                                   opts.showSourceLines, &diags.target[index]);
    if (mlir::failed(driver::lowerForTarget(*r.analysis.module, targetName,
                                            lowering))) {
      anyError = true;
      continue;
    }
    diagnostics.stage = build::TargetStage::Artifact;
    if (isHip) {
      target::HipBuildOptions build;
      build.arch = targetName.drop_front(4).str();
      build.emit.lineDirectives = lineDirectives;
      build.log = &llvm::outs();
      build.sourceOverride = plan.sourceOverride;
      anyError |= mlir::failed(
          target::buildHipArtifacts(*r.analysis.module, outDir, build));
      continue;
    }
    if (isCuda) {
      target::CudaBuildOptions build;
      build.arch = targetName.drop_front(5).str();
      build.emit.lineDirectives = lineDirectives;
      build.compiler = cudaCompiler;
      build.log = &llvm::outs();
      build.sourceOverride = plan.sourceOverride;
      anyError |= mlir::failed(
          target::buildCudaArtifacts(*r.analysis.module, outDir, build));
      continue;
    }
    target::CpuBuildOptions build;
    build.log = &llvm::outs();
    build.emit.layoutsOf = plan.layoutsOf;
    anyError |= mlir::failed(
        target::buildCpuArtifacts(*r.analysis.module, outDir, build));
  }
  return anyError ? 1 : 0;
}

/// Everything an emitter sees about one input file.
struct InputFile {
  std::string path;
  std::shared_ptr<const syntax::SyntaxTree> tree;
};

/// Prints the statement tree of `file` (see the file comment for the format).
void emitAst(const InputFile &file, llvm::raw_ostream &os) {
  const syntax::SyntaxTree &tree = *file.tree;
  syntax::walk(tree.root(), [&](syntax::Node node) {
    syntax::NodeKind kind = node.kind();
    if (syntax::isStatement(kind)) {
      LinePosition pos = tree.lines().toUtf8(node.range().begin);
      os << pos.line + 1 << ':' << pos.column << ' '
         << syntax::getNodeKindName(kind) << '\n';
    } else if (syntax::isExpression(kind) || syntax::isPattern(kind)) {
      // Expressions and patterns never contain statements.
      return syntax::WalkResult::Skip;
    }
    return syntax::WalkResult::Advance;
  });
}

/// One `--emit=` mode.
struct Emitter {
  const char *name;
  const char *help;
  void (*emit)(const InputFile &, llvm::raw_ostream &);
};

const Emitter emitters[] = {
    {"ast", "Print the statement tree: LINE:COL KIND per statement", emitAst},
};

} // namespace

int main(int argc, char **argv) {
  cl::OptionCategory category("tlc-build options");
  cl::list<std::string> inputs(cl::Positional, cl::desc("<FILE.py>..."),
                               cl::cat(category));
  std::string emitHelp = "What to print:";
  for (const Emitter &e : emitters)
    emitHelp += std::string(" ") + e.name + " (" + e.help + ")";
  cl::opt<std::string> emit("emit", cl::desc(emitHelp),
                            cl::value_desc("kind"), cl::init(""),
                            cl::cat(category));
  cl::opt<bool> noSourceLines(
      "no-source-lines",
      cl::desc("Print diagnostics without the source line and caret"),
      cl::init(false), cl::cat(category));
  // Analysis options (TLCDriver): --check, --emit=tile|hints,
  // --verify-diagnostics and their modifiers.
  emitHelp += " tile (Tile IR of every kernel instance) hints (buffer, tensor,"
              " launch and pipeline facts as JSON) lowered (the IR after the"
              " target's lowering passes) cuda|hip|cpp (the generated source of"
              " the CUDA, HIP or CPU target, written nowhere)"
              " layout-svg (an SVG picture of every fragment and shared"
              " buffer's layout: into -o DIR, or one buffer on stdout)";
  emit.setDescription(emitHelp);
  cl::opt<bool> check("check",
                      cl::desc("Parse, evaluate and check every kernel "
                               "instance; print diagnostics only"),
                      cl::init(false), cl::cat(category));
  cl::opt<bool> verifyDiags(
      "verify-diagnostics",
      cl::desc("Check diagnostics against '# expected-error@+N {{...}}' "
               "annotations"),
      cl::init(false), cl::cat(category));
  cl::opt<std::string> target(
      "target",
      cl::desc("cuda:sm_90a|cuda:sm_80|cuda:sm_86|cuda:sm_89|cuda:sm_100a|"
               "cuda:sm_120a|"
               "hip:gfx90a|"
               "hip:gfx942|cpu; with -o, several CUDA architectures as "
               "cuda:sm_80,sm_90a build one fatbin for all of them"),
      cl::init("cuda:sm_90a"), cl::cat(category));
  cl::opt<std::string> device(
      "device",
      cl::desc("The part programs query at trace time (SM count, device "
               "properties): h100, h200, a100, b200, mi300x ...; default: the "
               "target's usual part"),
      cl::init(""), cl::cat(category));
  cl::opt<std::string> kernelName(
      "kernel",
      cl::desc("Only analyse this kernel: the name of its @tilelang.jit "
               "function or prim_func factory"),
      cl::init(""), cl::cat(category));
  cl::list<std::string> defines(
      "D", cl::Prefix,
      cl::desc("name=value: bind a meta parameter, T.const or T.dynamic"),
      cl::cat(category));
  cl::list<std::string> environVars(
      "environ",
      cl::desc("NAME=VALUE: an environment variable of the program "
               "(os.environ.get / os.getenv of NAME give VALUE; every other "
               "variable is unset)"),
      cl::cat(category));
  cl::opt<bool> printDebugInfo(
      "mlir-print-debuginfo",
      cl::desc("With --emit=tile, print the source location of every op"),
      cl::init(false), cl::cat(category));
  cl::opt<std::string> format("format",
                              cl::desc("Diagnostics as text|json|sarif"),
                              cl::init("text"), cl::cat(category));
  cl::opt<std::string> diagsFile(
      "diagnostics-file",
      cl::desc("Also write every diagnostic of the build to this file as "
               "JSON (--format=json's form: an error TileLang raises as a "
               "Python exception has that type as its \"category\"; with "
               "-o, the target's refusals and failed compilations too, with "
               "a \"stage\")"),
      cl::value_desc("path"), cl::init(""), cl::cat(category));
  cl::opt<std::string> environReport(
      "environ-report",
      cl::desc("With -o or --emit=lowered|cuda|hip|cpp, also write the "
               "environment variables (--environ) the evaluation of each file "
               "and kernel instance read to this file as JSON"),
      cl::value_desc("path"), cl::init(""), cl::cat(category));
  cl::opt<std::string> outputDir(
      "o",
      cl::desc("Write the artifacts of every kernel instance (generated "
               "source, binary, NAME.json manifest) into this directory"),
      cl::value_desc("dir"), cl::init(""), cl::cat(category));
  cl::opt<std::string> bufferName(
      "buffer",
      cl::desc("With --emit=layout-svg, only the buffers of this name"),
      cl::init(""), cl::cat(category));
  cl::opt<bool> definesOnly(
      "defines-only",
      cl::desc("Make each kernel's instance from the -D bindings alone: "
               "do not run the __main__ block and do not instantiate "
               "kernels at their call sites (what the Python package uses)"),
      cl::init(false), cl::cat(category));
  cl::opt<bool> traceExpectedFailures(
      "trace-expected-failures",
      cl::desc("Evaluate the bodies of `with pytest.raises(...)` blocks too "
               "(skipped otherwise, as code meant to fail; the Python "
               "package checks a prim_func defined there with it); also "
               "TLC_TRACE_EXPECTED_FAILURES=1"),
      cl::init(false), cl::cat(category));
  cl::opt<double> evalTimeBudget(
      "eval-time-budget",
      cl::desc("CPU seconds of trace-time evaluation for the whole file "
               "before the rest of it is not analysed (default 10; the "
               "evaluating thread's CPU time, so a loaded machine analyses "
               "as much as an idle one)"),
      cl::init(10), cl::cat(category));
  cl::opt<unsigned> evalMemoryBudget(
      "eval-memory-budget",
      cl::desc("MiB of Python objects trace-time evaluation may create for "
               "the whole file (default 1024)"),
      cl::init(1024), cl::cat(category));
  cl::opt<unsigned> maxInstances(
      "max-instances",
      cl::desc("Trace at most N instances of each kernel (the others get a "
               "remark at their call site); default 0: every instance the "
               "file creates"),
      cl::value_desc("N"), cl::init(0), cl::cat(category));
  cl::opt<bool> noCache(
      "no-cache",
      cl::desc("With -o, neither use nor fill the content-hash build cache "
               "(also TLC_NO_CACHE=1 or TILELANG_DISABLE_CACHE=1)"),
      cl::init(false), cl::cat(category));
  cl::opt<bool> fastMath(
      "fast-math",
      cl::desc("Build every instance with fast math, as "
               "pass_configs={TL_ENABLE_FAST_MATH: True} does"),
      cl::init(false), cl::cat(category));
  cl::list<std::string> passConfigs(
      "pass-config",
      cl::desc("key=value: a TileLang pass config for every instance, over "
               "the source's (--pass-config=tl.disable_wgmma=True)"),
      cl::cat(category));
  cl::list<std::string> compileFlags(
      "compile-flag",
      cl::desc("A device-compiler flag for every instance, after the "
               "source's compile_flags (repeat for several)"),
      cl::cat(category));
  cl::opt<bool> lineDirectives(
      "line-directives",
      cl::desc("With -o and a CUDA target, put #line directives pointing at "
               "the DSL source into NAME.cu"),
      cl::init(false), cl::cat(category));
  cl::opt<std::string> layoutsOf(
      "layouts-of",
      cl::desc("With --target=cpu: follow this GPU target's fragment layouts "
               "(cuda:sm_90a, hip:gfx942; default cuda:sm_80) where a "
               "result depends on which thread holds which element; give "
               "the target the reference is to verify"),
      cl::value_desc("target"), cl::cat(category));
  cl::opt<target::CudaCompiler> cudaCompiler(
      "cuda-compiler",
      cl::desc("With -o and a CUDA target, what compiles NAME.cu"),
      cl::values(clEnumValN(target::CudaCompiler::Auto, "auto",
                            "nvcc when found, else NVRTC (default)"),
                 clEnumValN(target::CudaCompiler::Nvcc, "nvcc",
                            "nvcc: a cubin, or a fatbin for several "
                            "architectures"),
                 clEnumValN(target::CudaCompiler::Nvrtc, "nvrtc",
                            "NVRTC in process: a cubin for one "
                            "architecture"),
                 clEnumValN(target::CudaCompiler::None, "none",
                            "none: the source, headers and manifest "
                            "without a binary (for tlc-run --device sim)")),
      cl::init(target::CudaCompiler::Auto), cl::cat(category));
  cl::opt<bool> printIRAfterAll(
      "print-ir-after-all",
      cl::desc("With -o or --emit=lowered|cuda, print the module after every "
               "lowering pass (on stderr)"),
      cl::init(false), cl::cat(category));
  cl::list<std::string> printIRAfter(
      "print-ir-after", cl::CommaSeparated,
      cl::desc("With -o or --emit=lowered|cuda, print the module after these "
               "lowering passes (tile-plan-pipelines, ...; on stderr)"),
      cl::value_desc("pass"), cl::cat(category));
  cl::opt<unsigned> jobs(
      "j", cl::Prefix,
      cl::desc("With -o, --configs or --autotune, build this many kernel "
               "instances at once (child tlc-build processes; 0: one per "
               "hardware thread); default 1, --autotune: 0"),
      cl::value_desc("N"), cl::init(1), cl::cat(category));
  cl::opt<bool> autotune(
      "autotune",
      cl::desc("Build every configuration of each @tilelang.autotune kernel "
               "of FILE (into -o DIR/config-I), run them on the target's "
               "device with the same random inputs, check each against the "
               "first configuration (rtol = atol = 1e-2, at most 1% of the "
               "elements outside), time them and print the best"),
      cl::init(false), cl::cat(category));
  cl::opt<unsigned> autotuneRuns(
      "autotune-runs",
      cl::desc("With --autotune, timed runs per "
               "configuration (the median is reported)"),
      cl::init(10), cl::cat(category));
  cl::opt<unsigned> autotuneConfig(
      "autotune-config",
      cl::desc("Complete autotuned parameters from this configuration"),
      cl::init(0), cl::Hidden, cl::cat(category));
  cl::opt<std::string> replaceSource(
      "replace-source",
      cl::desc("With -o for a CUDA or HIP target and one kernel instance: "
               "compile this file in place of the generated source (a "
               "post-processed copy of it; the artifact's source is the "
               "file's text)"),
      cl::value_desc("file"), cl::init(""), cl::cat(category));
  cl::opt<std::string> configsFile(
      "configs",
      cl::desc("Build many instances of FILE in this process, one per line "
               "of this JSON-lines file: {\"defines\": [\"N=1\", ...], "
               "\"out\": DIR, \"diagnostics_file\", \"environ_report\", "
               "\"stdout\", \"stderr\": PATH}, each as -D... -o DIR would; "
               "prints {\"index\": I, \"status\": S} per line"),
      cl::value_desc("file"), cl::init(""), cl::cat(category));
  cl::opt<std::string> buildInstance(
      "build-instance",
      cl::desc("With -o, build only this instance (what -j's children do)"),
      cl::init(""), cl::Hidden, cl::cat(category));
  cl::HideUnrelatedOptions(category);

  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "tlc-build: the TileLang toolchain driver\n\n"
          "  Exit status: 0 when there are no errors, 1 when a file has "
          "errors, 2 for bad usage.\n"
          "  With several files, --emit output is preceded per file by a "
          "'==> FILE <==' line.\n",
          &llvm::errs()))
    return 2;
  reportFiles().diagnostics = diagsFile;
  reportFiles().environ = environReport;

  bool emitGeneratedKind = emit == "lowered" || emit == "cuda" ||
                           emit == "cpp" || emit == "hip";
  if (check || verifyDiags || emit == "tile" || emit == "hints" ||
      emit == "layout-svg" || emitGeneratedKind || !outputDir.empty() ||
      autotune || !configsFile.empty()) {
    driver::DriverOptions opts;
    opts.action = verifyDiags        ? driver::Action::VerifyDiagnostics
                  : emit == "tile"   ? driver::Action::EmitTile
                  : emit == "hints"  ? driver::Action::EmitHints
                                     : driver::Action::Check;
    opts.showSourceLines = !noSourceLines;
    opts.printLocations = printDebugInfo;
    std::optional<driver::DiagFormat> fmt = driver::parseDiagFormat(format);
    if (!fmt) {
      llvm::errs() << "tlc-build: error: unknown --format '" << format
                   << "' (text, json or sarif)\n";
      return 2;
    }
    opts.format = *fmt;
    std::optional<eval::TargetInfo> tgt = analysisTarget(target);
    if (!tgt) {
      llvm::errs() << "tlc-build: error: unknown --target '" << target
                   << "'\n";
      return 2;
    }
    if (!device.empty() && !tgt->selectDevice(device)) {
      llvm::errs() << "tlc-build: error: unknown --device '" << device
                   << "' for target '" << target << "'; known:";
      for (const lang::DeviceInfo &d : lang::getDevices())
        if (!tgt->device || d.platform == tgt->device->platform)
          llvm::errs() << " " << d.name;
      llvm::errs() << "\n";
      return 2;
    }
    opts.eval.target = *tgt;
    opts.eval.targetExplicit = target.getNumOccurrences() > 0;
    opts.eval.kernelFilter = kernelName;
    if (!(evalTimeBudget > 0) || evalMemoryBudget == 0) {
      llvm::errs() << "tlc-build: error: --eval-time-budget and "
                      "--eval-memory-budget must be positive\n";
      return 2;
    }
    opts.eval.timeBudgetSeconds = evalTimeBudget;
    opts.eval.memoryBudgetBytes = uint64_t(evalMemoryBudget) << 20;
    opts.eval.maxInstancesPerKernel =
        maxInstances ? unsigned(maxInstances)
                     : std::numeric_limits<unsigned>::max();
    if (definesOnly) {
      opts.eval.runMain = false;
      opts.eval.callSites = false;
    }
    opts.eval.autotuneConfig = autotuneConfig;
    opts.eval.fastMath = fastMath;
    for (llvm::StringRef c : passConfigs) {
      auto [key, value] = c.split('=');
      if (key.trim().empty() || !c.contains('=')) {
        llvm::errs() << "tlc-build: error: --pass-config expects key=value, "
                        "got '"
                     << c << "'\n";
        return 2;
      }
      opts.eval.build.set(key.trim(), value.trim());
    }
    opts.eval.build.compileFlags.assign(compileFlags.begin(),
                                        compileFlags.end());
    // The artifact library reads the switch from the environment, as it
    // does for TLC_NO_CACHE set by the user.
    if (noCache)
      ::setenv("TLC_NO_CACHE", "1", /*overwrite=*/1);
    if (traceExpectedFailures)
      ::setenv("TLC_TRACE_EXPECTED_FAILURES", "1", /*overwrite=*/1);
    for (const std::string &d : defines) {
      auto [name, value] = llvm::StringRef(d).split('=');
      if (name.empty() || !llvm::StringRef(d).contains('=')) {
        llvm::errs() << "tlc-build: error: -D expects name=value, got '" << d
                     << "'\n";
        return 2;
      }
      opts.eval.defines.push_back({name.trim().str(), value.trim().str()});
    }
    for (const std::string &e : environVars) {
      auto [name, value] = llvm::StringRef(e).split('=');
      if (name.empty() || !llvm::StringRef(e).contains('=')) {
        llvm::errs() << "tlc-build: error: --environ expects NAME=VALUE, got '"
                     << e << "'\n";
        return 2;
      }
      opts.eval.environ.push_back({name.str(), value.str()});
    }
    if (inputs.empty()) {
      llvm::errs() << "tlc-build: error: no input files (see --help)\n";
      return 2;
    }
    driver::Driver drv(std::move(opts));
    driver::LoweringOptions lowering;
    lowering.printAfterAll = printIRAfterAll;
    lowering.printAfter.assign(printIRAfter.begin(), printIRAfter.end());
    std::vector<std::string> passes = driver::getLoweringPasses(target);
    for (const std::string &p : lowering.printAfter) {
      if (llvm::is_contained(passes, p))
        continue;
      llvm::errs() << "tlc-build: error: --print-ir-after: no pass '" << p
                   << "' in the lowering of " << target << " (";
      if (passes.empty())
        llvm::errs() << "it has no lowering passes";
      else
        llvm::errs() << "its passes: " << llvm::join(passes, ", ");
      llvm::errs() << ")\n";
      return 2;
    }
    // What -j's and --autotune's children are given besides their input,
    // instance and -o.
    BuildPlan plan;
    // -j0 (and --autotune without -j): one child per hardware thread.
    unsigned hardwareThreads =
        llvm::hardware_concurrency().compute_thread_count();
    plan.jobs = lowering.printAfterAll || !lowering.printAfter.empty() ? 1
                : jobs == 0 || (autotune && jobs.getNumOccurrences() == 0)
                    ? hardwareThreads
                    : unsigned(jobs);
    plan.instance = buildInstance;
    if (layoutsOf.getNumOccurrences()) {
      if (!tile::parseLayoutTarget(layoutsOf)) {
        llvm::errs() << "tlc-build: error: --layouts-of='" << layoutsOf
                     << "' is not a GPU target with fragment layouts "
                        "(cuda:sm_80, cuda:sm_90a, cuda:sm_100a, hip:gfx942 "
                        "...)\n";
        return 2;
      }
      if (target != "cpu") {
        llvm::errs() << "tlc-build: error: --layouts-of applies to "
                        "--target=cpu only (a GPU target has its own "
                        "layouts)\n";
        return 2;
      }
      plan.layoutsOf = layoutsOf;
      plan.childArgs.push_back("--layouts-of=" + layoutsOf);
    }
    if (!replaceSource.empty()) {
      if (outputDir.empty() || (!llvm::StringRef(target).starts_with("cuda:") &&
                                !llvm::StringRef(target).starts_with("hip:"))) {
        llvm::errs() << "tlc-build: error: --replace-source replaces the "
                        "generated source of a CUDA or HIP build (-o DIR "
                        "with --target=cuda:... or hip:...)\n";
        return 2;
      }
      std::unique_ptr<llvm::MemoryBuffer> text = readInput(replaceSource);
      if (!text)
        return 2;
      plan.sourceOverride = text->getBuffer().str();
      plan.jobs = 1;
    }
    plan.childArgs = {
        "--target=" + target, "--format=" + format,
        "--cuda-compiler=" +
            std::string(cudaCompiler == target::CudaCompiler::Nvcc ? "nvcc"
                        : cudaCompiler == target::CudaCompiler::Nvrtc
                            ? "nvrtc"
                        : cudaCompiler == target::CudaCompiler::None
                            ? "none"
                            : "auto")};
    if (!device.empty())
      plan.childArgs.push_back("--device=" + device);
    if (!kernelName.empty())
      plan.childArgs.push_back("--kernel=" + kernelName);
    for (const std::string &d : defines)
      plan.childArgs.push_back("-D" + d);
    for (const std::string &e : environVars)
      plan.childArgs.push_back("--environ=" + e);
    // The children trace the file again: with the same limits, so that
    // they find the instances the parent listed.
    if (maxInstances)
      plan.childArgs.push_back("--max-instances=" +
                               std::to_string(maxInstances));
    if (evalTimeBudget.getNumOccurrences())
      plan.childArgs.push_back("--eval-time-budget=" +
                               std::to_string(evalTimeBudget));
    if (evalMemoryBudget.getNumOccurrences())
      plan.childArgs.push_back("--eval-memory-budget=" +
                               std::to_string(evalMemoryBudget));
    for (const std::string &c : passConfigs)
      plan.childArgs.push_back("--pass-config=" + c);
    for (const std::string &f : compileFlags)
      plan.childArgs.push_back("--compile-flag=" + f);
    for (auto [on, flag] :
         {std::pair{bool(definesOnly), "--defines-only"},
          std::pair{bool(noCache), "--no-cache"},
          std::pair{bool(lineDirectives), "--line-directives"},
          std::pair{bool(fastMath), "--fast-math"},
          std::pair{bool(noSourceLines), "--no-source-lines"}})
      if (on)
        plan.childArgs.push_back(flag);
    if (autotune) {
      if (inputs.size() != 1 || check || verifyDiags || !emit.empty()) {
        llvm::errs() << "tlc-build: error: --autotune takes one FILE and no "
                        "--check, --verify-diagnostics or --emit\n";
        return 2;
      }
      build::TuningOptions tuning;
      tuning.runs = autotuneRuns;
      for (const auto &[name, value] : drv.getOptions().eval.defines)
        tuning.values[name] = value;
      return build::autotuneFile(drv.getOptions(), inputs.front(), outputDir,
                                 target, plan.childArgs, plan.jobs,
                                 std::move(tuning));
    }
    if (!configsFile.empty()) {
      if (!outputDir.empty() || autotune || check || verifyDiags ||
          !emit.empty() || !replaceSource.empty() || !buildInstance.empty()) {
        llvm::errs() << "tlc-build: error: --configs gives each build its -o "
                        "directory; it takes no -o, --autotune, --check, "
                        "--verify-diagnostics, --emit or --replace-source\n";
        return 2;
      }
      // -j N: N child processes build contiguous parts of the list.
      if (plan.jobs > 1) {
        std::vector<std::string> args = plan.childArgs;
        args.insert(args.end(), inputs.begin(), inputs.end());
        return build::runConfigsInChildren(configsFile, plan.jobs, args);
      }
      return build::runConfigs(
          configsFile, [&](const build::ConfigEntry &config) {
            driver::DriverOptions o = drv.getOptions();
            for (const auto &[name, value] : config.defines)
              o.eval.defines.push_back({name, value});
            driver::Driver one(std::move(o));
            reportFiles().diagnostics = config.diagnosticsFile;
            reportFiles().environ = config.environReport;
            return buildArtifacts(one, inputs, config.outDir, target,
                                  lineDirectives, cudaCompiler, lowering, plan);
          });
    }
    if (emit == "layout-svg" && !check && !verifyDiags)
      return emitLayoutSvg(drv, inputs, outputDir, bufferName, target);
    if (emitGeneratedKind && !check && !verifyDiags)
      return emitGenerated(drv, inputs, emit, target, lineDirectives,
                           lowering, plan.layoutsOf);
    if (!outputDir.empty() && !check && !verifyDiags && emit.empty())
      return buildArtifacts(drv, inputs, outputDir, target, lineDirectives,
                            cudaCompiler, lowering, plan);
    int status = drv.run(inputs, llvm::outs(), llvm::errs());
    llvm::outs().flush();
    return status;
  }

  const Emitter *emitter = nullptr;
  if (!emit.empty()) {
    for (const Emitter &e : emitters)
      if (emit == e.name)
        emitter = &e;
    if (!emitter) {
      llvm::errs() << "tlc-build: error: unknown --emit kind '" << emit
                   << "'\n";
      return 2;
    }
  }
  if (inputs.empty()) {
    llvm::errs() << "tlc-build: error: no input files (see --help)\n";
    return 2;
  }

  DiagnosticPrintOptions printOptions;
  printOptions.showSourceLine = !noSourceLines;
  bool anyError = false;
  llvm::raw_ostream &os = llvm::outs();
  for (const std::string &path : inputs) {
    std::unique_ptr<llvm::MemoryBuffer> buffer = readInput(path);
    if (!buffer) {
      anyError = true;
      continue;
    }
    InputFile file{path, syntax::parseFile(buffer->getBuffer(), path)};
    printDiagnostics(llvm::errs(), file.tree->diagnostics(), path,
                     file.tree->lines(), printOptions);
    anyError |= file.tree->hasErrors();
    if (!emitter)
      continue;
    if (inputs.size() > 1)
      os << "==> " << path << " <==\n";
    emitter->emit(file, os);
  }
  os.flush();
  return anyError ? 1 : 0;
}
