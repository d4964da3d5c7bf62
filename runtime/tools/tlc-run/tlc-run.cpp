//===- tlc-run.cpp - Run, verify and time kernel artifacts ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   tlc-run DIR|NAME.json [--kernel NAME] [-D sym=value]... [--seed N]
//           [--inputs DIR] [--save OUT] [--verify] [--bench]
//           [--device cpu|cuda|hip|sim] [--fill NAME=SPEC]...
//           [--verify-as-set NAME]... [--accumulation NAME=N]...
//           [--mismatch-allowance NAME[=RATIO]]... [--intermediate NAME=DTYPE]...
//
// Loads the manifests `tlc-build -o DIR` wrote, allocates every tensor
// parameter (inputs: seeded random normal values; outputs: NaN poison), runs
// the kernel and reports. `--inputs DIR` takes the inputs that DIR/NAME.npy
// holds (DIR/KERNEL/NAME.npy first; shape and dtype checked against the
// manifest) instead of random ones. `--save OUT` writes every parameter after
// the run as OUT/NAME.npy and the inputs as they were before it as
// OUT/inputs/NAME.npy (with several kernels, under OUT/KERNEL/). A pointer
// table (a manifest `pointee`) gets one tensor per element, and its data
// is those tensors stacked ([table length] + the pointee's shape): they are
// what NAME.npy holds, what `--inputs` reads and what `--verify` compares;
// they start random even when the kernel only writes them (kernels often
// write part of what a table points at), so an unwritten element of them
// is not reported.
// `--verify` runs the CPU reference on the same inputs and compares every
// output with dtype-aware tolerances; NaN outputs (unwritten elements) fail.
// On a GPU (`--device cuda`) the reference is the `--target=cpu` artifact of
// the same instance, given with `--reference DIR`, run with `--threads` host
// threads (all by default).
// `--fill NAME=SPEC` draws input NAME from another distribution (normal,
// uniform, randint, const: inputs that suit the kernel, as TileLang's
// profiler lets scripts choose). A symbol that is a whole extent of a
// parameter with a file in `--inputs` is bound from the file's shape (no
// `-D` needed); a file whose shape disagrees is an error naming the
// dimension. `--verify-as-set NAME` compares output NAME row by row as a
// multiset (for outputs whose order the kernel leaves free).
// `--accumulation NAME=N` widens NAME's absolute tolerance by the bound on
// two orders of N rounded additions, 2 (N - 1) u max|ref| (the atomics of
// split-K and stream-K GEMMs).
// `--mismatch-allowance NAME[=RATIO]` lets output NAME pass with at most
// floor(RATIO * elements) out of tolerance (RATIO 0.001 by default: the
// max_mismatched_ratio of TileLang's own `torch_assert_close`); the count
// is still printed and the verdict says the allowance was used.
// `--intermediate NAME=DTYPE` compares output NAME with DTYPE's tolerances
// where they are wider than its own: a float32 output the kernel builds
// from values it rounds to DTYPE (a state kept in float16 between gemms).
// `--bench` prints the median time of repeated runs (device events on GPUs).
//
// Exit status: 0 on success, 1 when a kernel fails or verification fails,
// 2 for bad usage or unreadable artifacts.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/HostArgs.h"
#include "tlc/runtime/HostTensor.h"
#include "tlc/runtime/Parallel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <optional>

using namespace tlc;
using namespace tlc::runtime;
namespace cl = llvm::cl;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

cl::OptionCategory category("tlc-run options");
cl::opt<std::string> input(cl::Positional, cl::desc("<artifact dir or NAME.json>"),
                           cl::Required, cl::cat(category));
cl::opt<std::string> kernelName("kernel", cl::desc("Run only this kernel"),
                                cl::init(""), cl::cat(category));
cl::list<std::string> defines("D", cl::Prefix,
                              cl::desc("sym=value: bind a symbol or scalar"),
                              cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                       cl::init(0), cl::cat(category));
cl::opt<std::string>
    inputsDir("inputs",
              cl::desc("Read inputs from DIR/NAME.npy where it exists"),
              cl::value_desc("DIR"), cl::init(""), cl::cat(category));
cl::opt<std::string> saveDir("save", cl::desc("Write every parameter as .npy"),
                             cl::init(""), cl::cat(category));
cl::opt<bool> verify("verify",
                     cl::desc("Compare outputs with the CPU reference"),
                     cl::init(false), cl::cat(category));
cl::opt<bool> bench("bench", cl::desc("Print the median time of runs"),
                    cl::init(false), cl::cat(category));
cl::opt<unsigned> benchRuns("bench-runs", cl::desc("Timed runs of --bench"),
                            cl::init(10), cl::cat(category));
cl::opt<std::string> deviceName("device", cl::desc("cpu, cuda, hip or sim"),
                                cl::init("cpu"), cl::cat(category));
cl::opt<int> threads("threads",
                     cl::desc("cpu, sim: host threads running blocks (0: all)"),
                     cl::init(0), cl::cat(category));
cl::opt<std::string> referenceDir(
    "reference",
    cl::desc("Directory of the CPU reference artifacts for --verify "
             "(default: the input directory)"),
    cl::init(""), cl::cat(category));
cl::list<std::string> fillOpts(
    "fill",
    cl::desc("NAME=SPEC: draw input NAME from SPEC instead of the standard "
             "normal: normal(MEAN,STD), uniform(LO,HI), randint(LO,HI) "
             "(integers in [LO,HI)) or const(V), seeded as --seed; a file "
             "of --inputs takes precedence (e.g. --fill 'G=uniform(-1,0)' "
             "for gates that must not grow a recurrence)"),
    cl::value_desc("NAME=SPEC"), cl::cat(category));
cl::list<std::string> setOutputs(
    "verify-as-set",
    cl::desc("NAME: --verify compares output NAME as a multiset along its "
             "last axis (each row sorted on both sides first): for outputs "
             "whose order the kernel leaves free, e.g. top-k indices placed "
             "by atomic counters. Not a default: any other output is "
             "compared element by element"),
    cl::value_desc("NAME"), cl::CommaSeparated, cl::cat(category));
cl::list<std::string> accumulationOpts(
    "accumulation",
    cl::desc("NAME=N: output NAME is the result of N rounded additions in "
             "its own dtype whose order the back ends choose (atomics of a "
             "split-K / stream-K GEMM: N = the partial sums added): --verify "
             "widens its absolute tolerance by 2 (N - 1) u max|ref|, u the "
             "dtype's unit roundoff (f16 2^-11, bf16 2^-8, f32 2^-24), the "
             "bound on two orders of such a sum whose running values stay "
             "within the output's largest magnitude; other outputs keep the "
             "dtype's tolerance. In a kernel that reads float8 tensors "
             "(N = the fp8 products summed per element), the bound of "
             "element k is (N - 1) (2^-14 + 2^-24) m_k, m_k the reference's "
             "output on the inputs' absolute values (a second reference "
             "run): the products are exact in float32, tensor cores "
             "accumulate them with 14 significand bits, the CPU reference "
             "with float32's 24, and m_k carries the bound through "
             "arithmetic after the gemm (scales, relu, sums over heads)"),
    cl::value_desc("NAME=N"), cl::cat(category));
cl::list<std::string> allowanceOpts(
    "mismatch-allowance",
    cl::desc("NAME[=RATIO]: --verify passes output NAME when at most "
             "floor(RATIO * elements) of it are out of tolerance (RATIO "
             "0.001 by default, TileLang's torch_assert_close "
             "max_mismatched_ratio), reporting 'PASS within TileLang's "
             "mismatch allowance' with the count; unwritten elements and "
             "NaNs where the reference has a number still fail. For outputs "
             "shown to differ only by rounding (an oracle), never a default"),
    cl::value_desc("NAME[=RATIO]"), cl::cat(category));
cl::list<std::string> intermediateOpts(
    "intermediate",
    cl::desc("NAME=DTYPE: output NAME is computed from values the kernel "
             "rounds to DTYPE (e.g. a float32 state updated from a float16 "
             "copy of itself): --verify compares it with DTYPE's tolerances "
             "where they are wider than its own, as the manifest's "
             "\"precision\" does for tf32 products"),
    cl::value_desc("NAME=DTYPE"), cl::cat(category));
cl::opt<bool> timings(
    "timings",
    cl::desc("Print the wall seconds of each phase of every kernel: random "
             "or read inputs, the copy kept for --verify/--save, the "
             "device run (copies and launches), the CPU reference, the "
             "comparison"),
    cl::init(false), cl::cat(category));
cl::opt<double> rtolOpt("rtol", cl::desc("Override the relative tolerance"),
                        cl::init(-1), cl::cat(category));
cl::opt<double> atolOpt("atol", cl::desc("Override the absolute tolerance"),
                        cl::init(-1), cl::cat(category));

/// Prints `tlc-run: error: MSG`.
int fail(const llvm::Twine &msg, int status = 1) {
  llvm::errs() << "tlc-run: error: " << msg << "\n";
  return status;
}

/// The unit roundoff (half the spacing of 1 and the next value) of float
/// dtype \p dt; 0 for integers.
double unitRoundoff(const DType &dt) {
  switch (dt.code) {
  case DTypeCode::F16:
  case DTypeCode::TF32:
    return 0x1p-11;
  case DTypeCode::BF16:
    return 0x1p-8;
  case DTypeCode::F32:
    return 0x1p-24;
  case DTypeCode::F64:
    return 0x1p-53;
  case DTypeCode::E4M3FN:
  case DTypeCode::E4M3FNUZ:
    return 0x1p-4;
  case DTypeCode::E5M2:
  case DTypeCode::E5M2FNUZ:
    return 0x1p-3;
  case DTypeCode::E8M0FNU:
    return 0.5;
  case DTypeCode::E2M1FN:
    return 0x1p-2;
  default:
    return 0;
  }
}

/// The unit roundoff of the accumulator that tensor cores sum float8
/// (e4m3 / e5m2) products in: they keep about 14 significand bits, not
/// float32's 24 (the precision DeepSeek-V3's report measured on Hopper's
/// fp8 wgmma, which its 2x promotion into float32 registers bounds).
constexpr double kFp8TensorCoreRoundoff = 0x1p-14;

/// Whether \p dt is a float8 dtype whose products tensor cores multiply
/// exactly (4 / 3 significand bits: an 8-bit product, and exponents well
/// inside float32's normal range).
bool isFp8Product(const DType &dt) {
  return dt.code == DTypeCode::E4M3FN || dt.code == DTypeCode::E4M3FNUZ ||
         dt.code == DTypeCode::E5M2 || dt.code == DTypeCode::E5M2FNUZ;
}

/// Why the CPU reference \p ref cannot verify the artifact \p m, or "":
/// a reference whose results depend on which thread holds which element
/// of a fragment (the manifest's `layouts_of`) follows one GPU target's
/// layouts, and \p m's target may lay the fragments out otherwise.
std::string layoutsMismatch(const artifact::Manifest &m,
                            const artifact::Manifest &ref) {
  std::string want = artifact::layoutFamilyOf(m.target);
  if (ref.layoutsOf.empty() || want.empty() ||
      artifact::layoutFamilyOf(ref.layoutsOf) == want)
    return "";
  return "'" + m.name + "' there follows " + ref.layoutsOf +
         "'s fragment layouts, and its results depend on them; '" + m.target +
         "' lays the fragments out otherwise: build the reference with "
         "tlc-build --target=cpu --layouts-of=" + m.target;
}

/// Wall seconds of the phases of one kernel's run (--timings).
class PhaseTimes {
public:
  /// Ends the current phase, naming it \p what.
  void lap(const char *what) {
    auto now = std::chrono::steady_clock::now();
    phases.push_back({what, std::chrono::duration<double>(now - last).count()});
    last = now;
  }
  void print(llvm::raw_ostream &os) const {
    os << "  timings:";
    for (auto &[what, s] : phases)
      os << llvm::format(" %s %.2f s;", what, s);
    os << "\n";
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  std::vector<std::pair<const char *, double>> phases;
};

/// Writes the tensors of \p host whose role matches into \p dir.
llvm::Error saveTensors(const artifact::Manifest &m, const HostArgs &host,
                        llvm::StringRef dir, bool inputsOnly) {
  if (std::error_code ec = fs::create_directories(dir))
    return llvm::createStringError(ec, "cannot create '" + dir + "'");
  for (size_t i = 0; i < m.params.size(); ++i) {
    const HostTensor *data = getParamData(host, i);
    if (!data)
      continue;
    // A pointer table's tensors start random even when only written.
    if (inputsOnly && !m.params[i].pointee &&
        getParamDataRole(m.params[i]) == artifact::Role::Out)
      continue;
    llvm::SmallString<256> p(dir);
    path::append(p, m.params[i].name + ".npy");
    if (llvm::Error e = data->writeNpy(p))
      return e;
  }
  return llvm::Error::success();
}

/// Loads, runs, saves, verifies and benchmarks one kernel. Returns the
/// exit status contribution (0 or 1).
int runKernel(Device &dev, const artifact::Manifest &m, llvm::StringRef dir,
              const llvm::StringMap<std::string> &defs, llvm::StringRef outDir) {
  llvm::outs() << "kernel " << m.name << " (" << m.kernel << ", target "
               << m.target << ") on " << dev.describe() << "\n";
  PhaseTimes phase;
  auto kernel = dev.loadKernel(m, dir);
  if (!kernel)
    return fail(llvm::toString(kernel.takeError()));
  phase.lap("load");
  HostArgsOptions argOptions;
  argOptions.seed = seed;
  argOptions.inputsDir = inputsDir;
  for (const std::string &f : fillOpts) {
    auto [name, spec] = llvm::StringRef(f).split('=');
    auto parsed = FillSpec::parse(spec);
    if (!parsed)
      return fail("--fill " + f + ": " + llvm::toString(parsed.takeError()));
    argOptions.fills[name.trim()] = *parsed;
  }
  auto host = makeHostArgs(m, defs, argOptions);
  if (!host)
    return fail(llvm::toString(host.takeError()));
  if (!inputsDir.empty())
    llvm::outs() << "  inputs from " << inputsDir << ": "
                 << (host->loaded.empty() ? std::string("none (all random)")
                                          : llvm::join(host->loaded, ", "))
                 << "\n";
  // A random input whose dtype the CPU reference spells differently (fp8:
  // gfx942's float8_e4m3fnuz, the CPU target's float8_e4m3fn) takes only
  // values both dtypes hold: each is rounded through the reference's dtype
  // and back, so the device and the reference multiply the same numbers
  // (e4m3fnuz's 2^-10 subnormals are not e4m3fn values). Inputs read with
  // --inputs are left as they are.
  if (verify && !referenceDir.empty()) {
    llvm::SmallString<256> rp(referenceDir.getValue());
    path::append(rp, m.name + ".json");
    if (auto rm = artifact::readManifest(rp)) {
      if (std::string why = layoutsMismatch(m, *rm); !why.empty())
        return fail("--reference " + referenceDir + ": " + why);
      for (size_t i = 0; i < m.params.size() && i < rm->params.size(); ++i) {
        const std::string &name = m.params[i].name;
        if (!host->tensors[i] || host->pointees[i] ||
            m.params[i].dtype == rm->params[i].dtype ||
            llvm::is_contained(host->loaded, name))
          continue;
        std::optional<DType> refType = lookupDType(rm->params[i].dtype);
        if (!refType)
          continue;
        HostTensor &t = *host->tensors[i];
        HostTensor one(*refType, {1});
        int64_t changed = 0;
        for (int64_t e = 0, n = t.numElements(); e < n; ++e) {
          double v = t.get(e);
          one.set(0, v);
          double w = one.get(0);
          t.set(e, w);
          double back = t.get(e);
          changed += !(back == v || (back != back && v != v));
        }
        if (changed)
          llvm::outs() << "  inputs: " << changed << " values of " << name
                       << " are not " << refType->name
                       << " values; rounded through it for the reference\n";
      }
    } else {
      llvm::consumeError(rm.takeError());
    }
  }
  // The inputs as they were before the run: for --save and the reference
  // of --verify (a copy of every tensor, made only for those).
  phase.lap("inputs");
  std::optional<HostArgs> before;
  if (verify || !outDir.empty()) {
    before = *host;
    phase.lap("copy");
  }
  if (!outDir.empty()) {
    llvm::SmallString<256> inDir(outDir);
    path::append(inDir, "inputs");
    if (llvm::Error e = saveTensors(m, *before, inDir, /*inputsOnly=*/true))
      return fail(llvm::toString(std::move(e)));
  }
  std::vector<double> times;
  RunOptions runOptions;
  runOptions.numWorkers = threads;
  if (bench) {
    runOptions.timedRuns = benchRuns;
    runOptions.timesMs = &times;
  }
  if (llvm::Error e = runWithHostArgs(dev, **kernel, m, *host, runOptions))
    return fail(llvm::toString(std::move(e)));
  phase.lap("run");
  llvm::outs() << "  ran: ";
  for (size_t i = 0; i < m.params.size(); ++i) {
    const artifact::Param &p = m.params[i];
    llvm::outs() << (i ? ", " : "") << p.name << ":"
                 << artifact::getRoleName(p.role);
    if (host->tensors[i]) {
      llvm::outs() << " " << p.dtype << "[";
      llvm::interleave(host->tensors[i]->shape, llvm::outs(), ",");
      llvm::outs() << "]";
    }
    if (p.pointee) {
      llvm::outs() << " -> " << artifact::getRoleName(p.pointee->role) << " "
                   << p.pointee->dtype << "[";
      llvm::interleave(llvm::drop_begin(host->pointees[i]->shape),
                       llvm::outs(), ",");
      llvm::outs() << "] each";
    }
  }
  llvm::outs() << "\n";
  if (!outDir.empty()) {
    if (llvm::Error e = saveTensors(m, *host, outDir, /*inputsOnly=*/false))
      return fail(llvm::toString(std::move(e)));
    llvm::outs() << "  saved parameters to " << outDir << " (inputs before the run in "
                 << outDir << "/inputs)\n";
  }
  int status = 0;
  if (verify) {
    // The reference: the CPU artifact of the same instance on the same
    // inputs, with --threads host threads (0: all) when the device is
    // another; with one when it is the CPU (a check that the result does
    // not depend on how blocks were scheduled).
    std::unique_ptr<Device> cpuDev = createCpuDevice();
    std::string refDir = referenceDir.empty() ? dir.str() : referenceDir.getValue();
    artifact::Manifest refManifest = m;
    if (dev.getKind() != "cpu" && referenceDir.empty())
      return fail("--verify needs the CPU reference artifact of '" + m.name +
                  "' on --device " + dev.getKind() +
                  ": build the same file and -D bindings with tlc-build "
                  "--target=cpu -o REFDIR and pass --reference REFDIR");
    if (dev.getKind() != "cpu" || !referenceDir.empty()) {
      llvm::SmallString<256> p(refDir);
      path::append(p, m.name + ".json");
      auto rm = artifact::readManifest(p);
      if (!rm)
        return fail("--verify needs the CPU reference artifact: " +
                    llvm::toString(rm.takeError()) +
                    " (build it with tlc-build --target=cpu -o DIR and pass "
                    "--reference DIR)");
      refManifest = *rm;
      if (refManifest.target != "cpu")
        return fail("--reference " + refDir + ": '" + m.name +
                    "' there was built for '" + refManifest.target +
                    "', not --target=cpu");
      if (std::string why = layoutsMismatch(m, refManifest); !why.empty())
        return fail("--reference " + refDir + ": " + why);
    }
    auto refKernel = cpuDev->loadKernel(refManifest, refDir);
    if (!refKernel)
      return fail(llvm::toString(refKernel.takeError()));
    HostArgs &ref = *before;
    // A tensor whose dtype the reference spells differently (fp8: the CPU
    // target's float8_e4m3fn where gfx942 has float8_e4m3fnuz) gets the
    // same values in the reference's dtype, not the device's bytes.
    for (size_t i = 0; i < m.params.size() && i < refManifest.params.size();
         ++i) {
      if (!ref.tensors[i] || ref.pointees[i] ||
          m.params[i].dtype == refManifest.params[i].dtype)
        continue;
      std::optional<DType> refType = lookupDType(refManifest.params[i].dtype);
      if (!refType)
        return fail("CPU reference: unknown dtype '" +
                    refManifest.params[i].dtype + "' of '" +
                    refManifest.params[i].name + "'");
      HostTensor &t = *ref.tensors[i];
      HostTensor converted(*refType, t.shape);
      for (int64_t e = 0, n = t.numElements(); e < n; ++e)
        converted.set(e, t.get(e));
      llvm::outs() << "  reference: " << m.params[i].name << " converted from "
                   << m.params[i].dtype << " to " << refType->name << "\n";
      t = std::move(converted);
    }
    RunOptions refOptions;
    refOptions.numWorkers = dev.getKind() == "cpu" ? 1 : int(threads);
    // A kernel that reads float8 tensors sums exact fp8 products in
    // accumulators whose precision differs between tensor cores and the
    // reference (--accumulation NAME=K). Element k of such an output is off
    // by at most (K - 1) (2^-14 + 2^-24) m_k, m_k what the reference
    // computes from the absolute values of the inputs: for a product
    // C = A B that is sum |a_j| |b_j| (the componentwise bound of a
    // rounded sum), and arithmetic after the gemm that scales, adds, takes
    // a relu or a max of its results (relu(s) w summed over heads) carries
    // it through, as it carries the error itself.
    bool fp8Kernel = false;
    for (size_t j = 0; j < m.params.size(); ++j)
      if (m.params[j].isTensor &&
          getParamDataRole(m.params[j]) != artifact::Role::Out)
        if (std::optional<DType> dt = lookupDType(m.params[j].dtype))
          fp8Kernel |= isFp8Product(*dt);
    std::optional<HostArgs> magnitudes;
    if (fp8Kernel && !accumulationOpts.empty()) {
      magnitudes = ref;
      for (size_t j = 0; j < m.params.size(); ++j) {
        if (getParamDataRole(m.params[j]) == artifact::Role::Out)
          continue;
        for (std::optional<HostTensor> *t :
             {&magnitudes->tensors[j], &magnitudes->pointees[j]}) {
          if (!*t || (*t)->dtype.cls != DTypeClass::Float ||
              (magnitudes->pointees[j] && t == &magnitudes->tensors[j]))
            continue;
          for (int64_t e = 0, n = (*t)->numElements(); e < n; ++e)
            (*t)->set(e, std::fabs((*t)->get(e)));
        }
      }
    }
    phase.lap("reference-load");
    if (llvm::Error e =
            runWithHostArgs(*cpuDev, **refKernel, refManifest, ref, refOptions))
      return fail("CPU reference: " + llvm::toString(std::move(e)));
    phase.lap("reference");
    if (magnitudes) {
      if (llvm::Error e = runWithHostArgs(*cpuDev, **refKernel, refManifest,
                                          *magnitudes, refOptions))
        return fail("CPU reference on the inputs' absolute values "
                    "(--accumulation of a float8 kernel): " +
                    llvm::toString(std::move(e)));
      phase.lap("reference-magnitudes");
    }
    if (dev.getKind() == "cpu")
      llvm::outs() << "  verify: the device is the CPU reference itself; "
                      "comparing this run with a single-threaded run of the "
                      "same artifact (checks that every output is written, "
                      "finite where the reference is, and independent of "
                      "block scheduling; correctness against NumPy is "
                      "tests/cpu)\n";
    for (size_t i = 0; i < m.params.size(); ++i) {
      const artifact::Param &p = m.params[i];
      if (!getParamData(*host, i) || getParamDataRole(p) == artifact::Role::In)
        continue;
      bool asSet = llvm::is_contained(setOutputs, p.name);
      std::optional<HostTensor> outSorted, refSorted;
      if (asSet) {
        outSorted = *getParamData(*host, i);
        refSorted = *getParamData(ref, i);
        outSorted->sortRows();
        refSorted->sortRows();
      }
      const HostTensor &out = asSet ? *outSorted : *getParamData(*host, i);
      const HostTensor &r = asSet ? *refSorted : *getParamData(ref, i);
      // An output the kernel computes with coarser arithmetic than its
      // dtype (float32 from tf32 products: the manifest's "precision")
      // is compared with that arithmetic's tolerances.
      std::optional<DType> precision;
      std::string precisionName = p.precision, precisionWhat = " products";
      for (const std::string &a : intermediateOpts) {
        auto [name, dtype] = llvm::StringRef(a).split('=');
        if (name.trim() == p.name) {
          precisionName = dtype.trim().str();
          precisionWhat = " intermediates (--intermediate)";
        }
      }
      if (!precisionName.empty())
        precision = lookupDType(precisionName);
      double rtol = rtolOpt >= 0   ? rtolOpt
                    : precision ? std::max(out.dtype.rtol, precision->rtol)
                                : out.dtype.rtol;
      double atol = atolOpt >= 0   ? atolOpt
                    : precision ? std::max(out.dtype.atol, precision->atol)
                                : out.dtype.atol;
      // --accumulation NAME=N: two orders of N rounded additions, each
      // step off by at most u |running sum| <= u max|ref|, differ by at
      // most 2 (N - 1) u max|ref|.
      int64_t additions = 0;
      for (const std::string &a : accumulationOpts) {
        auto [name, count] = llvm::StringRef(a).split('=');
        if (name.trim() == p.name)
          count.trim().getAsInteger(10, additions);
      }
      double accumulationAtol = 0;
      // fp8 products (exact in float32) summed N times: the device's
      // tensor cores round each addition to kFp8TensorCoreRoundoff, the CPU
      // reference to float32's; each step is off by at most u |running
      // sum| <= u sum |products| on either side: per element, the
      // reference's value on the inputs' absolute values (magnitudes).
      bool fp8Sum = fp8Kernel && out.dtype.cls == DTypeClass::Float &&
                    !isFp8Product(out.dtype) && !asSet;
      const HostTensor *magnitude = nullptr;
      double magnitudeScale = 0;
      if (additions > 1 && fp8Sum && magnitudes) {
        magnitude = getParamData(*magnitudes, i);
        magnitudeScale =
            double(additions - 1) * (kFp8TensorCoreRoundoff + 0x1p-24);
        for (int64_t k = 0, n = magnitude->numElements(); k < n; ++k)
          if (std::isfinite(magnitude->get(k)) && !magnitude->isPoisoned(k))
            accumulationAtol = std::max(
                accumulationAtol, magnitudeScale * std::fabs(magnitude->get(k)));
      } else if (additions > 1 && !fp8Sum) {
        const HostTensor &rt = *getParamData(ref, i);
        double maxRef = 0;
        for (int64_t k = 0, n = rt.numElements(); k < n; ++k)
          if (std::isfinite(rt.get(k)))
            maxRef = std::max(maxRef, std::fabs(rt.get(k)));
        accumulationAtol =
            2.0 * double(additions - 1) * unitRoundoff(rt.dtype) * maxRef;
        atol += accumulationAtol;
      }
      Comparison c = compareTensors(out, r, rtol, atol, magnitude,
                                    magnitudeScale);
      // Outputs start as tlc-run's NaN poison, a payload no arithmetic
      // produces: an element still holding it was not written. Other NaNs
      // were computed (0/0 over a fully masked row); where the reference
      // computed one, the output must have one too (compareTensors). An
      // element neither side wrote (a kernel that writes a triangle, or
      // the rows its index inputs select) agrees; one only a side wrote
      // does not.
      int64_t n = std::min(out.numElements(), r.numElements());
      int64_t bothUnwritten = c.bothUnwritten,
              refOnlyUnwritten = c.refOnlyUnwritten,
              outOnlyUnwritten = c.outOnlyUnwritten,
              refComputedNaNs = c.refComputedNaNs,
              outComputedNaNs = c.outComputedNaNs;
      bool pass = c.ok() && refOnlyUnwritten == 0 && outOnlyUnwritten == 0;
      // --mismatch-allowance NAME[=RATIO]: TileLang's torch_assert_close
      // rule (at most floor(RATIO * numel) elements outside tolerance), for
      // outputs named one by one; a NaN where the reference has a number
      // or an unwritten element is never allowed.
      std::optional<double> allowance;
      for (const std::string &a : allowanceOpts) {
        auto [name, ratio] = llvm::StringRef(a).split('=');
        if (name.trim() != p.name)
          continue;
        double v = 0.001;
        if (!ratio.trim().empty())
          ratio.trim().getAsDouble(v);
        allowance = v;
      }
      int64_t allowed =
          allowance ? int64_t(std::floor(*allowance * double(n))) : 0;
      bool allowedPass = !pass && allowance && c.nans == 0 &&
                         outComputedNaNs == 0 && refOnlyUnwritten == 0 &&
                         outOnlyUnwritten == 0 && c.mismatches <= allowed;
      llvm::outs() << "  verify " << p.name << ": "
                   << (pass          ? "PASS"
                       : allowedPass ? "PASS within TileLang's mismatch "
                                       "allowance"
                                     : "FAIL")
                   << llvm::format("  rel_err=%.3e max_abs_err=%.3e", c.relativeError,
                                   c.maxAbsError)
                   << "  (rtol=" << rtol << " atol=" << atol << " for "
                   << (p.pointee ? p.pointee->dtype : p.dtype)
                   << (precision && (rtolOpt < 0 || atolOpt < 0)
                           ? " computed from " + precisionName + precisionWhat
                           : std::string())
                   << ")";
      if (accumulationAtol > 0)
        llvm::outs() << llvm::format(
            fp8Sum ? "  (atol plus up to %.3e per element for %lld fp8 "
                     "products summed at 2^-14 on tensor cores and 2^-24 in "
                     "the reference, from the reference on the inputs' "
                     "absolute values: --accumulation)"
                   : "  (atol includes %.3e for %lld rounded additions: "
                     "--accumulation)",
            accumulationAtol, (long long)additions);
      else if (fp8Sum && !pass && rtolOpt < 0 && atolOpt < 0)
        llvm::outs() << "  (float8 inputs: tensor cores sum their products "
                        "with 14 significand bits; --accumulation "
                     << p.name
                     << "=K, K the products summed per element, gives the "
                        "tolerance of that)";
      if (asSet)
        llvm::outs() << "  (each row compared as a multiset: --verify-as-set; "
                        "indices below are of the sorted rows)";
      if (outOnlyUnwritten)
        llvm::outs() << "  " << outOnlyUnwritten
                     << " elements unwritten (still the NaN poison) that the "
                        "reference wrote";
      if (refOnlyUnwritten)
        llvm::outs() << "  " << refOnlyUnwritten
                     << " elements written that the reference left unwritten";
      if (bothUnwritten)
        llvm::outs() << "  " << bothUnwritten
                     << " elements written by neither (the kernel leaves them "
                        "at these inputs)";
      if (outComputedNaNs)
        llvm::outs() << "  " << outComputedNaNs
                     << " NaN elements where the reference has a number";
      if (refComputedNaNs)
        llvm::outs() << "  " << refComputedNaNs
                     << " NaN elements computed by the reference";
      if (c.mismatches)
        llvm::outs() << "  " << c.mismatches << " elements out of tolerance";
      if (allowance && (c.mismatches || !pass))
        llvm::outs() << llvm::format(
            " (%lld of %lld allowed: --mismatch-allowance %s=%g)",
            (long long)allowed, (long long)n, p.name.c_str(), *allowance);
      if (c.firstBad >= 0)
        llvm::outs() << llvm::format("  first at flat index %lld: got %g, expected %g",
                                     (long long)c.firstBad, out.get(c.firstBad),
                                     r.get(c.firstBad));
      llvm::outs() << "\n";
      if (!pass && !allowedPass)
        status = 1;
    }
  }
  if (verify)
    phase.lap("compare");
  if (timings)
    phase.print(llvm::outs());
  if (bench && !times.empty()) {
    std::sort(times.begin(), times.end());
    double median = times[times.size() / 2];
    if (times.size() % 2 == 0)
      median = 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
    llvm::outs() << llvm::format("  bench: median %.4f ms, min %.4f ms over %zu runs\n",
                                 median, times.front(), times.size());
  }
  return status;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "tlc-run: run, verify and time kernel artifacts of tlc-build\n\n"
          "  Exit status: 0 on success, 1 when a kernel or verification "
          "fails, 2 for bad usage or unreadable artifacts.\n",
          &llvm::errs()))
    return 2;

  llvm::StringMap<std::string> defs;
  for (const std::string &d : defines) {
    auto [name, value] = llvm::StringRef(d).split('=');
    if (name.trim().empty() || !llvm::StringRef(d).contains('='))
      return fail("-D expects name=value, got '" + d + "'", 2);
    defs[name.trim()] = value.trim().str();
  }

  // Collect the manifests.
  std::vector<std::string> manifestPaths;
  std::string dir;
  if (fs::is_directory(input)) {
    dir = input;
    std::error_code ec;
    for (fs::directory_iterator it(input, ec), end; it != end && !ec;
         it.increment(ec))
      if (path::extension(it->path()) == ".json")
        manifestPaths.push_back(it->path());
    llvm::sort(manifestPaths);
    if (manifestPaths.empty())
      return fail("no kernel manifest (*.json) in '" + input +
                      "' (write one with tlc-build FILE --target=cpu -o DIR)",
                  2);
  } else if (fs::exists(input)) {
    manifestPaths.push_back(input);
    dir = path::parent_path(input).str();
    if (dir.empty())
      dir = ".";
  } else {
    return fail("no such artifact directory or manifest: '" + input + "'", 2);
  }

  std::vector<artifact::Manifest> manifests;
  std::vector<std::string> names;
  for (const std::string &p : manifestPaths) {
    auto m = artifact::readManifest(p);
    if (!m)
      return fail(llvm::toString(m.takeError()), 2);
    names.push_back(m->name);
    if (!kernelName.empty() && m->name != kernelName && m->kernel != kernelName)
      continue;
    manifests.push_back(std::move(*m));
  }
  if (manifests.empty())
    return fail("no kernel named '" + kernelName + "' in '" + input +
                    "' (available: " + llvm::join(names, ", ") + ")",
                2);

  // Every parameter --fill and --verify-as-set name must be one of a
  // kernel that runs (a misspelt name would silently do nothing).
  auto known = [&](llvm::StringRef name) {
    for (const artifact::Manifest &m : manifests)
      for (const artifact::Param &p : m.params)
        if (p.name == name)
          return true;
    return false;
  };
  for (const std::string &f : fillOpts) {
    llvm::StringRef name = llvm::StringRef(f).split('=').first.trim();
    if (!llvm::StringRef(f).contains('=') || name.empty())
      return fail("--fill expects NAME=SPEC, got '" + f + "'", 2);
    if (!known(name))
      return fail("--fill " + f + ": no kernel here has a parameter '" + name +
                      "'",
                  2);
    if (auto e = FillSpec::parse(llvm::StringRef(f).split('=').second); !e)
      return fail("--fill " + f + ": " + llvm::toString(e.takeError()), 2);
  }
  for (const std::string &a : accumulationOpts) {
    auto [name, count] = llvm::StringRef(a).split('=');
    int64_t n;
    if (!llvm::StringRef(a).contains('=') || count.trim().getAsInteger(10, n) ||
        n < 1)
      return fail("--accumulation expects NAME=N with N >= 1, got '" + a + "'",
                  2);
    if (!known(name.trim()))
      return fail("--accumulation " + a +
                      ": no kernel here has a parameter '" + name.trim() + "'",
                  2);
  }
  for (const std::string &a : allowanceOpts) {
    auto [name, ratio] = llvm::StringRef(a).split('=');
    double v = 0;
    if (name.trim().empty() ||
        (llvm::StringRef(a).contains('=') &&
         (ratio.trim().getAsDouble(v) || v < 0 || v >= 1)))
      return fail("--mismatch-allowance expects NAME or NAME=RATIO with 0 <= "
                  "RATIO < 1, got '" +
                      a + "'",
                  2);
    if (!known(name.trim()))
      return fail("--mismatch-allowance " + a +
                      ": no kernel here has a parameter '" + name.trim() + "'",
                  2);
  }
  for (const std::string &a : intermediateOpts) {
    auto [name, dtype] = llvm::StringRef(a).split('=');
    if (!llvm::StringRef(a).contains('=') || name.trim().empty() ||
        !lookupDType(dtype.trim()))
      return fail("--intermediate expects NAME=DTYPE with a dtype tlc-run "
                  "knows, got '" +
                      a + "'",
                  2);
    if (!known(name.trim()))
      return fail("--intermediate " + a + ": no kernel here has a parameter '" +
                      name.trim() + "'",
                  2);
  }
  for (const std::string &n : setOutputs)
    if (!known(n))
      return fail("--verify-as-set " + n +
                      ": no kernel here has a parameter of that name",
                  2);

  auto dev = openDevice(deviceName);
  if (!dev)
    return fail(llvm::toString(dev.takeError()));

  int status = 0;
  for (const artifact::Manifest &m : manifests) {
    std::string out = saveDir;
    if (!out.empty() && manifests.size() > 1) {
      llvm::SmallString<256> p(out);
      path::append(p, m.name);
      out = p.str().str();
    }
    status |= runKernel(**dev, m, dir, defs, out);
  }
  return status;
}
