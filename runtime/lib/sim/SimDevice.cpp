//===- SimDevice.cpp - The `sim` device: CUDA artifacts on the host -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the NAME.cu of a CUDA artifact without a GPU. loadKernel() compiles
// it for the host with clang (-fsanitize-coverage=trace-loads,trace-stores:
// every load and store calls the simulator's checks) against the headers of
// runtime/sim/include, embedded in this file and written next to the
// compiled object in the content-hash cache ($TLC_CACHE_DIR/sim/HASH/);
// the artifact's own tlc_device/ headers that are plain CUDA C++ come after
// them on the include path. run() executes each launch of the manifest on
// the Simulator and turns its findings into an error whose places are
// NAME.cu lines (from the object's line table) and DSL locations (from the
// manifest's source map).
//
// The compiler is $TLC_SIM_CXX, else clang++-22, /usr/lib/llvm-22/bin/clang++
// or clang++ on PATH. A launch that runs longer than $TLC_SIM_TIME_LIMIT
// seconds (default 600) is stopped as too large to simulate. Undefined
// values are tracked unless $TLC_SIM_INITCHECK is `off` (tlc_sim/initcheck.h)
// and reported as errors unless it is `warn`. A launch whose blocks perform
// atomics on global memory runs twice, its blocks in opposite orders, and
// results that differ are reported (Simulator::launch); with
// $TLC_SIM_ORDERCHECK=1 every launch does, with =0 none. A cooperative
// launch (T.sync_grid) runs with every block resident at once, when its
// grid fits the simulated part by the occupancy rule (Residency.h) and
// the simulator's own bound on blocks and threads held at once.
//
//===----------------------------------------------------------------------===//

#include "Residency.h"
#include "SharedRedZones.h"
#include "Simulator.h"

#include "tlc/Target/Artifact/BinaryCheck.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/runtime/Device.h"
#include "tlc/runtime/DynamicLibrary.h"
#include "tlc/runtime/LaunchPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

using namespace tlc;
using namespace tlc::runtime;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// The simulator's headers: {"relative/name.h", "contents"}.
const std::pair<const char *, const char *> kSimHeaders[] = {
#include "SimHeaders.inc"
};

/// Threads x blocks beyond which a launch is refused as too slow to
/// simulate (about a minute on one host core).
constexpr uint64_t kMaxSimulatedThreads = uint64_t(1) << 22;
/// Shared bytes a block may use with its red zones: the simulator's array
/// (tlc_sim/builtins.h: kSharedCapacity) less the 4 KiB kept free above
/// every launch's limit.
constexpr uint64_t kSharedRedZoneCapacity = 232448;
/// The most blocks, and threads in all, of a cooperative launch the
/// simulator holds at once: a worker (an OS thread) per block, a fiber per
/// thread, whose stack and guard page are two memory mappings of the
/// process (Linux allows 65530 by default). Measured: 192 blocks of 128
/// threads took 0.7 GB and 6 s, 1,024 blocks of 16 threads 1.0 GB and 7 s
/// (each worker has its own shared-memory arrays).
constexpr uint64_t kMaxResidentBlocks = 1024;
constexpr uint64_t kMaxResidentThreads = 24576;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The host compiler the simulator uses.
llvm::Expected<std::string> findSimCompiler() {
  if (const char *env = std::getenv("TLC_SIM_CXX")) {
    if (auto p = llvm::sys::findProgramByName(env))
      return *p;
    if (fs::can_execute(env))
      return std::string(env);
    return makeError("TLC_SIM_CXX='" + std::string(env) +
                     "' is not an executable");
  }
  if (auto p = llvm::sys::findProgramByName("clang++-22"))
    return *p;
  if (fs::can_execute("/usr/lib/llvm-22/bin/clang++"))
    return std::string("/usr/lib/llvm-22/bin/clang++");
  if (auto p = llvm::sys::findProgramByName("clang++"))
    return *p;
  return makeError("the sim device needs clang++ (clang 15 or newer, for "
                   "-fsanitize-coverage=trace-loads,trace-stores); none found "
                   "(set TLC_SIM_CXX)");
}

/// How undefined values are treated ($TLC_SIM_INITCHECK): `off` compiles
/// the kernel without definedness tracking, `warn` reports them as
/// warnings, anything else (the default) as errors.
enum class InitCheck { Off, Warn, Error };
InitCheck initCheckMode() {
  const char *env = std::getenv("TLC_SIM_INITCHECK");
  llvm::StringRef mode = env ? env : "";
  return mode == "off"    ? InitCheck::Off
         : mode == "warn" ? InitCheck::Warn
                          : InitCheck::Error;
}

std::vector<std::string> simFlags() {
  std::vector<std::string> flags = {
      "-std=c++17", "-O1", "-gline-tables-only", "-fPIC", "-shared",
      "-fsanitize-coverage=func,trace-loads,trace-stores", "-ffp-contract=off",
      "-fno-exceptions",
      // A primitive called last keeps its caller's frame: its return
      // address is the kernel's line, not the caller's caller.
      "-fno-optimize-sibling-calls", "-w",
      // `#pragma unroll` loops stay loops: unrolled, the kernel is several
      // times larger (compile time, most of all with initcheck's
      // instrumentation) and no faster to simulate.
      "-mllvm", "-pragma-unroll-threshold=0"};
#if defined(__x86_64__)
  // TLS descriptors: the kernel object's thread_locals (`smem`, the
  // definedness run time's state), reached on every access, without a
  // call of __tls_get_addr.
  flags.push_back("-mtls-dialect=gnu2");
#endif
  if (initCheckMode() != InitCheck::Off) {
    // Definedness tracking (tlc_sim/initcheck.h): kernel-memory's
    // instrumentation calls a run-time library the kernel object carries;
    // values cross calls with their shadow, unchecked.
    for (const char *f : {"-DTLC_SIM_INITCHECK=1", "-fsanitize=kernel-memory",
                          "-fsanitize-recover=kernel-memory",
                          "-fno-sanitize-memory-param-retval"})
      flags.push_back(f);
  }
  return flags;
}

std::string cacheRoot() {
  llvm::SmallString<256> dir;
  if (const char *env = std::getenv("TLC_CACHE_DIR"))
    dir = env;
  else if (const char *xdg = std::getenv("XDG_CACHE_HOME"))
    (dir = xdg), path::append(dir, "tlc");
  else if (const char *home = std::getenv("HOME"))
    (dir = home), path::append(dir, ".cache", "tlc");
  else
    dir = "/tmp/tlc-cache";
  path::append(dir, "sim");
  return dir.str().str();
}

llvm::Error writeFile(llvm::StringRef file, llvm::StringRef contents) {
  if (std::error_code ec = fs::create_directories(path::parent_path(file)))
    return makeError("cannot create '" + path::parent_path(file) +
                     "': " + ec.message());
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec)
    return makeError("cannot write '" + file + "': " + ec.message());
  os << contents;
  return llvm::Error::success();
}

/// The file name of the generated source of \p m: NAME.cu (CUDA) or
/// NAME.hip (HIP).
std::string sourceName(const artifact::Manifest &m) {
  if (!m.generatedSource.empty())
    return path::filename(m.generatedSource).str();
  return m.name +
         (llvm::StringRef(m.target).starts_with("hip") ? ".hip" : ".cu");
}

/// Compiles \p source (the text of NAME.cu) with the entries \p entries into
/// a shared object; returns its path (from the cache when present).
llvm::Expected<std::string>
compileForSim(const artifact::Manifest &m, llvm::StringRef artifactDir,
              llvm::StringRef source, const std::vector<std::string> &entries,
              std::string &sourceCopy) {
  auto compiler = findSimCompiler();
  if (!compiler)
    return compiler.takeError();
  // HIP sources are written for wavefronts of 64; the first architecture's
  // macro (`__gfx90a__`, as the device compiler defines it) selects the
  // code that architecture compiles where the device headers differ.
  std::string prelude;
  llvm::StringRef target(m.target);
  if (target.consume_front("hip:")) {
    llvm::StringRef arch = target.split(',').first.split(':').first;
    prelude =
        "#define TLC_SIM_WARP_SIZE 64\n#define __" + arch.str() + "__ 1\n";
  }
  std::string unit = prelude + "#include \"tlc_sim/launch.h\"\n#include \"" +
                     sourceName(m) + "\"\nTLC_SIM_BEGIN_ENTRIES\n";
  for (const std::string &e : entries)
    unit += "TLC_SIM_ENTRY(" + e + ")\n";
  unit += "TLC_SIM_END_ENTRIES\n";
  // The key: compiler, flags, the unit, the source, every header.
  std::string keyText = "tlc-sim-v1\n" + *compiler + "\n";
  for (const std::string &f : simFlags())
    keyText += f + "\n";
  keyText += unit + "--source--\n" + source.str();
  for (auto &[name, contents] : kSimHeaders)
    keyText += std::string("--sim ") + name + "--\n" + contents;
  // The artifact's headers by their path inside the artifact, in name
  // order: the same kernel built into another folder (lit's Release and
  // ASan runs, two tests) is the same object.
  std::error_code ec;
  llvm::SmallString<256> deviceDir(artifactDir);
  path::append(deviceDir, "tlc_device");
  std::vector<std::pair<std::string, std::string>> headers;
  for (fs::recursive_directory_iterator it(deviceDir, ec), end;
       it != end && !ec; it.increment(ec)) {
    auto buf = llvm::MemoryBuffer::getFile(it->path());
    llvm::StringRef rel(it->path());
    if (buf && rel.consume_front(deviceDir))
      headers.push_back({rel.str(), (*buf)->getBuffer().str()});
  }
  llvm::sort(headers);
  for (auto &[rel, contents] : headers)
    keyText += "--artifact tlc_device" + rel + "--\n" + contents;
  std::string key = artifact::sha256Hex(keyText);
  llvm::SmallString<256> dir(cacheRoot());
  path::append(dir, key);
  llvm::SmallString<256> object(dir), copy(dir);
  path::append(object, m.name + ".so");
  path::append(copy, sourceName(m));
  sourceCopy = copy.str().str();
  if (fs::exists(object)) {
    // A cached object cut short would fault inside dlopen: compiled again.
    auto bytes = llvm::MemoryBuffer::getFile(object, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
    llvm::Error damaged =
        bytes ? artifact::checkBinaryImage((*bytes)->getBuffer())
              : makeError(bytes.getError().message());
    if (!damaged)
      return object.str().str();
    llvm::errs() << "tlc-run: warning: cached sim object '" << object
                 << "' is damaged (" << llvm::toString(std::move(damaged))
                 << "); compiling it again\n";
    fs::remove(object);
  }

  for (auto &[name, contents] : kSimHeaders) {
    llvm::SmallString<256> p(dir);
    path::append(p, "include", name);
    if (llvm::Error e = writeFile(p, contents))
      return std::move(e);
  }
  llvm::SmallString<256> unitPath(dir);
  path::append(unitPath, m.name + ".sim.cpp");
  if (llvm::Error e = writeFile(copy, source))
    return std::move(e);
  if (llvm::Error e = writeFile(unitPath, unit))
    return std::move(e);
  llvm::SmallString<256> include(dir), absArtifact(artifactDir);
  path::append(include, "include");
  fs::make_absolute(absArtifact);
  llvm::SmallString<256> tmp(object);
  tmp += ".tmp" + std::to_string(::getpid());
  std::vector<std::string> argv = {*compiler};
  for (const std::string &f : simFlags())
    argv.push_back(f);
  argv.push_back(("-I" + include).str());
  argv.push_back(("-I" + absArtifact).str());
  argv.push_back(unitPath.str().str());
  argv.push_back("-o");
  argv.push_back(tmp.str().str());
  llvm::SmallString<256> log(dir);
  path::append(log, "compile.log");
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  std::vector<llvm::StringRef> args(argv.begin(), argv.end());
  std::string why;
  int rc = llvm::sys::ExecuteAndWait(*compiler, args, std::nullopt, redirects,
                                     0, 0, &why);
  if (rc != 0) {
    std::string text;
    if (auto buf = llvm::MemoryBuffer::getFile(log))
      text = (*buf)->getBuffer().str();
    if (text.size() > 4000)
      text = text.substr(0, 4000) + "\n...";
    return makeError("the sim device could not compile '" + sourceName(m) +
                     "' for the host (" +
                     (why.empty() ? "exit status " + std::to_string(rc) : why) +
                     "): " + llvm::join(argv, " ") + "\n" + text);
  }
  if (std::error_code rec = fs::rename(tmp, object))
    return makeError("cannot move '" + tmp +
                     "' into the cache: " + rec.message());
  return object.str().str();
}

/// One launch of an instance, resolved against the shared object.
struct SimLaunchPlan : runtime::LaunchPlan {
  void (*invoke)(void **) = nullptr;
  /// TMA tensor maps: the parameter and the manifest's description.
  std::vector<std::pair<size_t, artifact::TensorMap>> tensorMaps;
  /// The red zones between the entry's shared buffers (none: as printed).
  sim::SharedRedZonePlan redZones;
};

/// The simulator's tensor map encoding (runtime/sim/include/tlc_device/
/// cuda/tma.h: TensorMap), written as the driver would encode a tiled map.
struct alignas(64) SimTensorMap {
  uint32_t magic, rank, elemBytes, swizzle;
  uint64_t address;
  uint32_t dims[5], box[5];
  uint64_t strides[4];
  uint64_t unused[4];
};
static_assert(sizeof(SimTensorMap) == 128, "CUtensorMap's size");

class SimKernel final : public runtime::Kernel {
public:
  SimKernel(artifact::Manifest m, DynamicLibrary lib, std::string object,
            std::string sourceCopy, const tlc_sim_kernel_api *api,
            std::vector<SimLaunchPlan> plans)
      : manifest(std::move(m)), lib(std::move(lib)), object(std::move(object)),
        sourceCopy(std::move(sourceCopy)), api(api), plans(std::move(plans)) {}

  llvm::Error run(const LaunchArgs &args) override {
    if (args.params.size() != manifest.params.size() ||
        args.symbols.size() != manifest.symbols.size())
      return makeError("kernel '" + manifest.name + "' takes " +
                       llvm::Twine(manifest.params.size()) +
                       " parameters and " +
                       llvm::Twine(manifest.symbols.size()) + " symbols");
    llvm::StringMap<int64_t> values;
    for (auto [s, v] : llvm::zip(manifest.symbols, args.symbols))
      values[s.name] = v;
    auto lookup = [&](llvm::StringRef n) -> std::optional<int64_t> {
      auto it = values.find(n);
      if (it == values.end())
        return std::nullopt;
      return it->second;
    };
    sim::Arena &arena = sim::Arena::get();
    for (auto [p, ptr] : llvm::zip(manifest.params, args.params)) {
      if (!p.isTensor)
        continue;
      std::string shape;
      for (const artifact::Extent &e : p.shape)
        shape += (shape.empty() ? "" : ",") + e.str();
      arena.setName(ptr,
                    "parameter " + p.name + " " + p.dtype + "[" + shape + "]");
    }
    // Workspaces: allocated per run, filled with 0xFF (NaN) like on CUDA.
    std::vector<void *> workspaceMemory;
    llvm::scope_exit freeWorkspaces([&] {
      for (void *w : workspaceMemory)
        arena.release(w);
    });
    for (const artifact::Workspace &w : manifest.workspaces) {
      int64_t bytes = w.bytes.value;
      if (!w.bytes.isStatic) {
        auto expr = artifact::ShapeExpr::parse(w.bytes.expr);
        if (!expr)
          return expr.takeError();
        auto v = expr->evaluate(lookup);
        if (!v)
          return v.takeError();
        bytes = *v;
      }
      void *mem = arena.allocate(size_t(std::max<int64_t>(bytes, 1)));
      if (!mem)
        return makeError("workspace '" + w.name + "': out of simulator memory");
      std::memset(mem, 0xFF, size_t(bytes));
      arena.setName(mem, "workspace " + w.name);
      workspaceMemory.push_back(mem);
    }
    std::vector<void *> params = args.params;
    std::vector<long long> symbols(args.symbols.begin(), args.symbols.end());
    unsigned workers = args.numWorkers > 0
                           ? unsigned(args.numWorkers)
                           : std::max(1u, std::thread::hardware_concurrency());
    sim::Simulator simulator(*api);
    // The target's limit per block, within the simulator's own array.
    int64_t sharedLimit = int64_t(api->sharedCapacity) - 4096;
    if (std::optional<int64_t> target =
            artifact::getSharedMemoryPerBlock(manifest.target))
      sharedLimit = std::min(sharedLimit, *target);
    for (const SimLaunchPlan &plan : plans) {
      llvm::Expected<runtime::LaunchSize> size = runtime::sizeLaunch(
          manifest, plan, lookup, sharedLimit, "the sim device (" +
                                                   manifest.target + ")");
      if (!size)
        return size.takeError();
      if (size->isEmpty())
        continue; // a grid of 0 blocks (M = 0): nothing to run
      std::vector<void *> kernelArgs;
      for (size_t i = 0; i < manifest.params.size(); ++i)
        kernelArgs.push_back(manifest.params[i].isTensor
                                 ? static_cast<void *>(&params[i])
                                 : args.params[i]);
      for (size_t w : plan.workspaces)
        kernelArgs.push_back(&workspaceMemory[w]);
      for (long long &s : symbols)
        kernelArgs.push_back(&s);
      // Tensor maps, checked as cuTensorMapEncodeTiled checks them.
      std::vector<SimTensorMap> maps(plan.tensorMaps.size());
      for (size_t t = 0; t < plan.tensorMaps.size(); ++t) {
        auto &[param, spec] = plan.tensorMaps[t];
        SimTensorMap &m = maps[t];
        std::memset(&m, 0, sizeof m);
        m.magic = 0x4D434C54u;
        m.rank = uint32_t(spec.dims.size());
        auto bytes = artifact::getDTypeBytes(spec.dtype, 1);
        m.elemBytes = bytes ? uint32_t(*bytes) : 0;
        m.swizzle = uint32_t(spec.swizzle);
        m.address = reinterpret_cast<uint64_t>(params[param]);
        std::string why;
        if (m.rank < 2 || m.rank > 5 || !bytes)
          why = "rank or dtype not supported";
        else if (m.address % 16)
          why = "the tensor's address is not 16-byte aligned";
        for (size_t d = 0; why.empty() && d < m.rank; ++d) {
          if (spec.dims[d] == 0 || spec.dims[d] > (int64_t(1) << 32) ||
              spec.box[d] == 0 || spec.box[d] > 256)
            why = "an extent or box extent out of range";
          m.dims[d] = uint32_t(spec.dims[d]);
          m.box[d] = uint32_t(spec.box[d]);
          if (d > 0) {
            if (spec.strides[d - 1] % 16)
              why = "a stride that is not a multiple of 16 bytes";
            m.strides[d - 1] = uint64_t(spec.strides[d - 1]);
          }
        }
        if (why.empty() && spec.swizzle &&
            spec.box[0] * uint64_t(m.elemBytes) > uint64_t(spec.swizzle))
          why = "the box's inner extent is wider than the swizzle";
        if (!why.empty())
          return makeError("kernel '" + manifest.name + "', tensor map of '" +
                           spec.param + "': " + why);
        kernelArgs.push_back(&m);
      }
      sim::LaunchConfig config;
      config.invoke = plan.invoke;
      config.args = kernelArgs.data();
      uint64_t blocks = 1;
      for (int d = 0; d < 3; ++d) {
        config.grid[d] = size->grid[d];
        blocks *= size->grid[d];
        config.block[d] = plan.block[d];
      }
      config.dynamicSharedMemory = size->dynamicSharedMemory;
      if (!plan.redZones.zones.empty()) {
        config.dynamicSharedMemory += plan.redZones.extraBytes;
        config.redZones = &plan.redZones;
      }
      config.numWorkers = workers;
      config.timeLimit = 600;
      if (const char *limit = std::getenv("TLC_SIM_TIME_LIMIT"))
        config.timeLimit = std::atof(limit);
      if (const char *order = std::getenv("TLC_SIM_ORDERCHECK"))
        config.orderCheck = llvm::StringRef(order) == "1"
                                ? sim::LaunchConfig::OrderCheck::Always
                            : llvm::StringRef(order) == "0"
                                ? sim::LaunchConfig::OrderCheck::Off
                                : sim::LaunchConfig::OrderCheck::Atomics;
      uint64_t threadsPerBlock =
          uint64_t(plan.block[0]) * plan.block[1] * plan.block[2];
      if (blocks * threadsPerBlock > kMaxSimulatedThreads)
        return makeError(
            "kernel '" + manifest.name + "': launch '" + plan.entry + "' has " +
            llvm::Twine(blocks) + " blocks of " + llvm::Twine(threadsPerBlock) +
            " threads (" + llvm::Twine(blocks * threadsPerBlock) +
            " threads), more than the sim device runs in reasonable time (" +
            llvm::Twine(kMaxSimulatedThreads) +
            "); simulate smaller sizes, e.g. with -D bindings that give at "
            "most " +
            llvm::Twine(
                std::max<uint64_t>(1, kMaxSimulatedThreads / threadsPerBlock)) +
            " blocks");
      if (plan.cooperative) {
        if (llvm::Error e = checkResident(plan, blocks, threadsPerBlock,
                                          size->dynamicSharedMemory))
          return e;
        config.cooperative = true;
      }
      for (int d = 0; d < 3; ++d)
        config.cluster[d] = plan.cluster[d];
      if (plan.cooperative &&
          plan.cluster[0] * plan.cluster[1] * plan.cluster[2] > 1)
        return makeError("kernel '" + manifest.name + "' (" + plan.entry +
                         "): a cooperative launch in clusters is not "
                         "simulated (T.sync_grid with cluster_dims)");
      std::vector<sim::Finding> findings = simulator.launch(config);
      // initcheck findings are errors (an undefined value stored to global
      // memory or deciding a branch or an address; values computed and
      // discarded are not reported), warnings with TLC_SIM_INITCHECK=warn.
      bool initErrors = initCheckMode() == InitCheck::Error;
      std::vector<sim::Finding> warnings, errors;
      for (sim::Finding &f : findings)
        (f.checker == "initcheck" && !initErrors ? warnings : errors)
            .push_back(std::move(f));
      if (!warnings.empty() && !std::getenv("TLC_SIM_QUIET_INITCHECK"))
        llvm::errs() << "tlc-run: warning: " << describe(plan, warnings, true)
                     << "\n";
      if (!errors.empty())
        return makeError(describe(plan, errors, false));
    }
    return llvm::Error::success();
  }

  llvm::Expected<double> timeRun(const LaunchArgs &args) override {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error e = run(args))
      return std::move(e);
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  }

private:
  /// A cooperative launch of \p blocks blocks: refused, as the GPU would
  /// refuse it, when the simulated part cannot hold every block at once,
  /// and when the simulator cannot.
  llvm::Error checkResident(const SimLaunchPlan &plan, uint64_t blocks,
                            uint64_t threadsPerBlock, uint64_t sharedBytes) {
    std::string what = "kernel '" + manifest.name + "' (" + plan.entry +
                       ") calls T.sync_grid, so all " + std::to_string(blocks) +
                       " blocks must be resident at once; ";
    std::optional<sim::Residency> r =
        sim::getResidency(manifest.target, threadsPerBlock, sharedBytes);
    if (!r)
      return makeError(what + "the sim device knows no GPU of target '" +
                       manifest.target + "' to count them on");
    if (blocks > r->total()) {
      const char *unit = r->amd ? "compute unit" : "multiprocessor";
      return makeError(
          what + "the simulated " + r->device + " holds " +
          std::to_string(r->total()) + " (" +
          std::to_string(r->perMultiprocessor) + " per " + unit + " x " +
          std::to_string(r->multiprocessors) + " " + unit +
          "s, bounded by " + r->limit +
          "; the cuda and hip devices' occupancy rule with the part's "
          "published figures, registers not counted)");
    }
    if (blocks > kMaxResidentBlocks ||
        blocks * threadsPerBlock > kMaxResidentThreads)
      return makeError(
          what + "the sim device holds at most " +
          std::to_string(kMaxResidentBlocks) + " blocks and " +
          std::to_string(kMaxResidentThreads) +
          " threads at once (a host thread per block, a fiber and its "
          "stack per thread); "
          "simulate smaller sizes, e.g. with -D bindings that give at most " +
          std::to_string(std::min<uint64_t>(
              kMaxResidentBlocks,
              kMaxResidentThreads / std::max<uint64_t>(1, threadsPerBlock))) +
          " blocks");
    return llvm::Error::success();
  }

  /// `NAME.cu:LINE (file.py:L:C)` for a place.
  std::string place(uint64_t where) {
    if (!where)
      return "?";
    if (where & TLC_SIM_WHERE_LINE)
      return withDsl(unsigned(where & ~TLC_SIM_WHERE_LINE));
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(where), &info) || !info.dli_fbase)
      return "?";
    uint64_t offset = where - 1 - reinterpret_cast<uint64_t>(info.dli_fbase);
    llvm::symbolize::LLVMSymbolizer::Options options;
    options.Demangle = false;
    static llvm::symbolize::LLVMSymbolizer symbolizer(options);
    auto frames = symbolizer.symbolizeInlinedCode(
        object, {offset, llvm::object::SectionedAddress::UndefSection});
    if (!frames) {
      llvm::consumeError(frames.takeError());
      return "?";
    }
    // The innermost frame in NAME.cu (the helpers' own lines say less).
    std::string fallback;
    for (uint32_t i = 0; i < frames->getNumberOfFrames(); ++i) {
      const llvm::DILineInfo &f = frames->getFrame(i);
      if (path::filename(f.FileName) == sourceName(manifest))
        return withDsl(f.Line);
      if (fallback.empty() && f.Line)
        fallback =
            path::filename(f.FileName).str() + ":" + std::to_string(f.Line);
    }
    return fallback.empty() ? "?" : fallback;
  }

  std::string m_name() const { return manifest.name; }

  std::string withDsl(unsigned line) {
    std::string text = sourceName(manifest) + ":" + std::to_string(line);
    const artifact::SourceMapEntry *best = nullptr;
    for (const artifact::SourceMapEntry &e : manifest.sourceMap)
      if (e.generatedLine <= line &&
          (!best || e.generatedLine > best->generatedLine))
        best = &e;
    if (best && best->fileIndex < manifest.sourceMapFiles.size())
      text += " (" + manifest.sourceMapFiles[best->fileIndex] + ":" +
              std::to_string(best->line) + ":" + std::to_string(best->column) +
              ")";
    return text;
  }

  std::string describe(const SimLaunchPlan &plan,
                       const std::vector<sim::Finding> &findings,
                       bool warning) {
    std::string text =
        "kernel '" + manifest.name + "' (" + plan.entry +
        (warning ? ") used undefined values:" : ") failed on the sim device:");
    // Findings at different addresses of the same lines (unrolled loops)
    // are one finding once placed: print the first, with the summed count.
    struct Line {
      std::string key, message;
      uint64_t count;
    };
    std::vector<Line> lines;
    for (const sim::Finding &f : findings) {
      std::string here = place(f.where), there = place(f.otherWhere);
      // What happened (the message up to its first number) and where.
      std::string what =
          f.message.substr(0, f.message.find_first_of("0123456789{"));
      std::string key = f.checker + "|" + what + "|" + here + "|" + there;
      auto it =
          llvm::find_if(lines, [&](const Line &l) { return l.key == key; });
      if (it != lines.end()) {
        it->count += f.count;
        continue;
      }
      std::string message = f.message;
      auto fill = [&](const char *mark, const std::string &text) {
        size_t at = message.find(mark);
        if (at != std::string::npos)
          message.replace(at, 3, text);
      };
      fill("{0}", here);
      fill("{1}", there);
      lines.push_back({key, f.checker + ": " + message, f.count});
    }
    for (const Line &l : lines) {
      text += "\n  " + l.message;
      if (l.count > 1)
        text += " (" + std::to_string(l.count) + " times at these places)";
    }
    text += "\n  (generated source: " + sourceCopy + ")";
    return text;
  }

  artifact::Manifest manifest;
  DynamicLibrary lib;
  std::string object, sourceCopy;
  const tlc_sim_kernel_api *api;
  std::vector<SimLaunchPlan> plans;
};

class SimDevice final : public Device {
public:
  llvm::StringRef getKind() const override { return "sim"; }
  std::string describe() const override {
    return "sim (CUDA and HIP semantics on the host: warps of 32, "
           "wavefronts of 64, racecheck, memcheck, synccheck)";
  }
  bool canRun(llvm::StringRef target) const override {
    return target.starts_with("cuda") || target.starts_with("hip");
  }
  llvm::Expected<void *> allocate(size_t bytes) override {
    void *p = sim::Arena::get().allocate(bytes);
    if (!p)
      return makeError("out of simulator memory allocating " +
                       llvm::Twine(bytes) + " bytes");
    return p;
  }
  void release(void *ptr) override { sim::Arena::get().release(ptr); }
  llvm::Error copyToDevice(void *dst, const void *src, size_t bytes) override {
    if (bytes) // An empty tensor's host vector may have no storage at all.
      std::memcpy(dst, src, bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToHost(void *dst, const void *src, size_t bytes) override {
    if (bytes)
      std::memcpy(dst, src, bytes);
    return llvm::Error::success();
  }
  llvm::Expected<std::unique_ptr<runtime::Kernel>>
  loadKernel(const artifact::Manifest &m, llvm::StringRef dir) override;
};

llvm::Expected<std::unique_ptr<runtime::Kernel>>
SimDevice::loadKernel(const artifact::Manifest &m, llvm::StringRef dir) {
  if (!canRun(m.target))
    return makeError("kernel '" + m.name + "' was built for target '" +
                     m.target +
                     "'; the sim device runs CUDA and HIP artifacts "
                     "(tlc-build --target=cuda:sm_80 or hip:gfx942 -o DIR)");
  llvm::SmallString<256> cu(dir);
  path::append(cu, sourceName(m));
  auto source = llvm::MemoryBuffer::getFile(cu);
  if (!source)
    return makeError("cannot read the generated source '" + cu +
                     "': " + source.getError().message());
  std::vector<std::string> entries;
  for (const artifact::Launch &l : m.launches) {
    std::string e = l.entry.empty() ? m.entry : l.entry;
    if (!llvm::is_contained(entries, e))
      entries.push_back(e);
  }
  // Shared buffers moved apart, so that an access running off one into the
  // next is memcheck's (SharedRedZones.h); an entry with a symbolic dynamic
  // shared memory size in any launch is left as printed.
  std::map<std::string, uint64_t> dynamicShared;
  std::set<std::string> symbolicShared;
  for (const artifact::Launch &l : m.launches) {
    std::string e = l.entry.empty() ? m.entry : l.entry;
    if (!l.dynamicSharedMemory.isStatic)
      symbolicShared.insert(e);
    else
      dynamicShared[e] = std::max<uint64_t>(
          dynamicShared[e], uint64_t(l.dynamicSharedMemory.value));
  }
  for (const std::string &e : symbolicShared)
    dynamicShared.erase(e);
  sim::SharedRedZoneSource moved = sim::placeSharedRedZones(
      (*source)->getBuffer(), dynamicShared, kSharedRedZoneCapacity);
  std::string sourceCopy;
  auto object = compileForSim(m, dir, moved.source, entries, sourceCopy);
  if (!object)
    return object.takeError();
  const char *names[] = {object->c_str()};
  auto lib = DynamicLibrary::open(names);
  if (!lib)
    return makeError("cannot load '" + *object +
                     "': " + llvm::toString(lib.takeError()));
  using GetApi = const tlc_sim_kernel_api *(*)();
  auto get = reinterpret_cast<GetApi>(lib->lookup("tlc_sim_kernel"));
  const tlc_sim_kernel_api *api = get ? get() : nullptr;
  if (!api || api->abiVersion != TLC_SIM_ABI_VERSION)
    return makeError("'" + *object + "' is not a sim kernel of ABI version " +
                     llvm::Twine(TLC_SIM_ABI_VERSION));
  api->bind(&sim::Simulator::hostApi());
  if (api->sharedCapacity < kSharedRedZoneCapacity + 4096)
    return makeError("'" + *object + "' has " +
                     llvm::Twine(api->sharedCapacity) +
                     " bytes of shared memory, fewer than the red zones "
                     "were placed for");

  std::vector<SimLaunchPlan> plans;
  for (const artifact::Launch &l : m.launches) {
    llvm::Expected<runtime::LaunchPlan> planned = runtime::planLaunch(m, l);
    if (!planned)
      return planned.takeError();
    SimLaunchPlan plan;
    static_cast<runtime::LaunchPlan &>(plan) = std::move(*planned);
    for (uint32_t i = 0; i < api->numEntries; ++i)
      if (plan.entry == api->entries[i].name)
        plan.invoke = api->entries[i].invoke;
    if (!plan.invoke)
      return makeError("kernel '" + m.name + "': no entry '" + plan.entry +
                       "' in the simulated object");
    if (auto zones = moved.plans.find(plan.entry); zones != moved.plans.end())
      plan.redZones = zones->second;
    for (const artifact::TensorMap &t : l.tensorMaps) {
      auto it = llvm::find_if(m.params, [&](const artifact::Param &p) {
        return p.name == t.param && p.isTensor;
      });
      if (it == m.params.end())
        return makeError("kernel '" + m.name + "': a tensor map of '" +
                         t.param + "', which is no tensor parameter");
      plan.tensorMaps.push_back({size_t(it - m.params.begin()), t});
    }
    plans.push_back(std::move(plan));
  }
  return std::make_unique<SimKernel>(m, std::move(*lib), *object, sourceCopy,
                                     api, std::move(plans));
}

} // namespace

std::unique_ptr<Device> tlc::runtime::createSimDevice() {
  return std::make_unique<SimDevice>();
}
