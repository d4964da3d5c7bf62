//===- DeviceTest.cpp - tlc-run's CUDA device against the fake driver -----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `cuda` Device of the runtime (runtime/lib/cuda/CUDADevice.cpp) on
// FakeDriver.cpp: several launches per instance in manifest order, the
// workspaces of a manifest (allocated per run at the size the symbols give,
// poisoned with 0xFF, passed after the parameters, freed after the run) and
// the errors around them. The fake driver logs every launch and allocation
// (tlcFakeCudaLog); the expected logs are written by hand here.
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/Device.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace tlc;
using namespace tlc::runtime;

namespace {

/// The fake driver's log functions (the library the device loaded).
struct FakeLog {
  const char *(*log)() = nullptr;
  void (*reset)() = nullptr;
  int (*live)() = nullptr;
  FakeLog() {
    void *lib = dlopen(TLC_FAKE_CUDA_FULL, RTLD_NOW);
    REQUIRE(lib);
    log = reinterpret_cast<const char *(*)()>(dlsym(lib, "tlcFakeCudaLog"));
    reset = reinterpret_cast<void (*)()>(dlsym(lib, "tlcFakeCudaResetLog"));
    live = reinterpret_cast<int (*)()>(
        dlsym(lib, "tlcFakeCudaLiveAllocations"));
    REQUIRE((log && reset && live));
  }
};

/// Opens the CUDA device on the fake driver (once per process).
Device &fakeDevice() {
  static std::unique_ptr<Device> device = [] {
    setenv("TLC_CUDA_DRIVER", TLC_FAKE_CUDA_FULL, 1);
    setenv("TLC_FAKE_CUDA_TRACE_MEM", "1", 1);
    auto d = openCudaDevice();
    REQUIRE_MESSAGE(static_cast<bool>(d), llvm::toString(d.takeError()));
    return std::move(*d);
  }();
  return *device;
}

/// A directory holding `k.cubin`, which the fake driver accepts.
std::string moduleDir() {
  static std::string dir = [] {
    llvm::SmallString<128> d;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("tlc-cuda-device", d));
    std::error_code ec;
    llvm::raw_fd_ostream os((d + "/k.cubin").str(), ec);
    REQUIRE(!ec);
    os << "FAKEMOD test module";
    return d.str().str();
  }();
  return dir;
}

artifact::Launch launch(std::string entry, std::vector<artifact::Extent> grid,
                        std::vector<std::string> workspaces) {
  artifact::Launch l;
  l.entry = std::move(entry);
  l.grid = std::move(grid);
  l.block = {artifact::Extent::of(128)};
  l.workspaces = std::move(workspaces);
  return l;
}

/// Two launches that share two workspaces, like gqa_decode: one f32
/// tensor parameter, symbol `n`; `part` holds n x 3 floats, `lse` 8 bytes.
artifact::Manifest twoKernels() {
  artifact::Manifest m;
  m.name = m.kernel = "k";
  m.target = "cuda:sm_90a";
  m.binary = "k.cubin";
  m.entry = "k_kernel";
  m.symbols = {{"n", "dynamic"}};
  artifact::Param p;
  p.name = "Out";
  p.dtype = "float32";
  p.shape = {artifact::Extent::symbolic("n")};
  p.role = artifact::Role::Out;
  m.params = {p};
  m.workspaces = {
      {"part", "float32",
       {artifact::Extent::symbolic("n"), artifact::Extent::of(3)},
       artifact::Extent::symbolic("(n) * 3 * 4")},
      {"lse", "float16", {artifact::Extent::of(4)}, artifact::Extent::of(8)}};
  m.launches = {launch("k_kernel", {artifact::Extent::symbolic("n"),
                                    artifact::Extent::of(2)},
                       {"part", "lse"}),
                launch("k_kernel1", {artifact::Extent::of(5)},
                       {"part", "lse"})};
  return m;
}

/// Loads \p m, runs it with n = \p n (timed when \p timed) and returns the
/// fake driver's log of the run, or the error text prefixed by `error: `.
std::string runLog(const artifact::Manifest &m, int64_t n, bool timed = false) {
  static FakeLog fake;
  Device &dev = fakeDevice();
  auto kernel = dev.loadKernel(m, moduleDir());
  if (!kernel)
    return "error: " + llvm::toString(kernel.takeError());
  auto out = dev.allocate(64);
  REQUIRE(static_cast<bool>(out));
  int before = fake.live();
  fake.reset();
  LaunchArgs args;
  args.params = {*out};
  args.symbols = {n};
  std::string result;
  if (timed) {
    auto ms = (*kernel)->timeRun(args);
    if (!ms)
      result = "error: " + llvm::toString(ms.takeError()) + "\n";
  } else if (llvm::Error e = (*kernel)->run(args)) {
    result = "error: " + llvm::toString(std::move(e)) + "\n";
  }
  result += fake.log();
  // Every workspace is freed after the run, whatever happened.
  CHECK(fake.live() == before);
  dev.release(*out);
  return result;
}

} // namespace

TEST_CASE("launches run in manifest order with their workspaces") {
  setenv("TLC_FAKE_CUDA_KERNELS", "1,1,2", 1);
  unsetenv("TLC_FAKE_CUDA_LAUNCH_FAIL");
  std::string log = runLog(twoKernels(), 7);
  // Workspace allocation numbers depend on earlier tests; the pattern does
  // not: part = 7*3*4 bytes and lse = 8 bytes, poisoned at the first launch,
  // the same buffers written at the second, freed after the run.
  std::string expected;
  size_t first = log.find("alloc #");
  REQUIRE(first != std::string::npos);
  int a = std::atoi(log.c_str() + first + 7);
  auto n = [&](int i) { return "#" + std::to_string(a + i); };
  expected = "alloc " + n(0) + " 84\nalloc " + n(1) + " 8\n" +
             "launch k_kernel grid 7,2,1 block 128,1,1 smem 0 ws0=" + n(0) +
             ":84B:poisoned ws1=" + n(1) + ":8B:poisoned sym0=7\n" +
             "launch k_kernel1 grid 5,1,1 block 128,1,1 smem 0 ws0=" + n(0) +
             ":84B:written ws1=" + n(1) + ":8B:written sym0=7\n" +
             "free " + n(0) + "\nfree " + n(1) + "\n";
  CHECK(log == expected);
}

TEST_CASE("a timed run allocates workspaces outside the timed launches") {
  setenv("TLC_FAKE_CUDA_KERNELS", "1,1,2", 1);
  std::string log = runLog(twoKernels(), 2, /*timed=*/true);
  CHECK(log.find("error") == std::string::npos);
  size_t alloc = log.find("alloc #"), launch = log.find("launch k_kernel "),
         second = log.find("launch k_kernel1"), free = log.find("free #");
  CHECK(alloc < launch);
  CHECK(launch < second);
  CHECK(second < free);
  CHECK(log.find(":24B:poisoned") != std::string::npos);
}

TEST_CASE("a launch may take a subset of the workspaces, in its own order") {
  setenv("TLC_FAKE_CUDA_KERNELS", "1,1,1", 1);
  artifact::Manifest m = twoKernels();
  m.launches[0].workspaces = {"lse"};
  m.launches[1].workspaces = {"part"};
  std::string log = runLog(m, 1);
  CHECK(log.find("launch k_kernel grid 1,2,1 block 128,1,1 smem 0 ws0=") !=
        std::string::npos);
  CHECK(log.find(":8B:poisoned sym0=1\nlaunch k_kernel1") != std::string::npos);
  // `part` was not touched by the first kernel.
  CHECK(log.find(":12B:poisoned sym0=1\nfree") != std::string::npos);
}

TEST_CASE("an instance without workspaces (version 1 manifest) still runs") {
  setenv("TLC_FAKE_CUDA_KERNELS", "1,1", 1);
  artifact::Manifest m = twoKernels();
  m.workspaces.clear();
  m.launches.resize(1);
  m.launches[0].workspaces.clear();
  m.launches[0].entry.clear(); // version 1: the manifest's entry
  CHECK(runLog(m, 3) ==
        "launch k_kernel grid 3,2,1 block 128,1,1 smem 0 sym0=3\n");
}

TEST_CASE("workspace and launch errors name the workspace or kernel") {
  setenv("TLC_FAKE_CUDA_KERNELS", "1,1,2", 1);
  artifact::Manifest m = twoKernels();

  SUBCASE("undeclared workspace") {
    m.launches[1].workspaces = {"part", "nope"};
    CHECK(runLog(m, 1) == "error: kernel 'k': launch 'k_kernel1' takes "
                          "workspace 'nope', which the manifest does not "
                          "declare");
  }
  SUBCASE("size expression that does not parse") {
    m.workspaces[0].bytes = artifact::Extent::symbolic("n *");
    CHECK(runLog(m, 1).rfind(
              "error: kernel 'k': the size of workspace 'part': ", 0) == 0);
  }
  SUBCASE("unbound symbol in a size") {
    m.workspaces[0].bytes = artifact::Extent::symbolic("m * 4");
    std::string log = runLog(m, 1);
    CHECK(log.rfind("error: kernel 'k': the size of workspace 'part': ", 0) ==
          0);
    CHECK(log.find("'m'") != std::string::npos);
    CHECK(log.find("launch") == std::string::npos);
  }
  SUBCASE("negative size") {
    CHECK(runLog(m, -1) == "error: kernel 'k': workspace 'part' would have "
                           "-12 bytes\n");
  }
  SUBCASE("out of device memory: the first workspace is freed again") {
    m.workspaces[1].bytes = artifact::Extent::of(int64_t(1) << 31);
    std::string log = runLog(m, 1);
    CHECK(log.rfind("error: kernel 'k': workspace 'lse' (2147483648 bytes): ",
                    0) == 0);
    CHECK(log.find("cuMemAlloc") != std::string::npos);
    CHECK(log.find("launch") == std::string::npos);
    CHECK(log.find("free #") != std::string::npos);
  }
  SUBCASE("the second launch fails: no later work, workspaces freed") {
    setenv("TLC_FAKE_CUDA_LAUNCH_FAIL", "k_kernel1", 1);
    std::string log = runLog(m, 1);
    unsetenv("TLC_FAKE_CUDA_LAUNCH_FAIL");
    CHECK(log.find("CUDA_ERROR_LAUNCH_FAILED") != std::string::npos);
    CHECK(log.find("launch k_kernel grid") != std::string::npos);
    CHECK(log.find("launch k_kernel1") == std::string::npos);
    CHECK(log.find("free #") != std::string::npos);
  }
}
