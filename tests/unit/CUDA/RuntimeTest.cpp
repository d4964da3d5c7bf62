//===- RuntimeTest.cpp - Unit tests of tlc's CUDA runtime -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The loader, error text and launch logic against FakeDriver.cpp (a host
// stand-in for libcuda.so.1, built twice: complete and with entry points
// missing). No GPU needed.
//
//===----------------------------------------------------------------------===//

#include "tlc/Runtime/CUDA/DriverObjects.h"
#include "tlc_cuda.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <string>
#include <thread>

using namespace tlc::runtime::cuda;

namespace {

/// Checks that \p status failed and its message contains every \p parts.
void checkError(const Status &status, std::initializer_list<const char *> parts) {
  REQUIRE_FALSE(status.ok());
  for (const char *part : parts)
    CHECK_MESSAGE(status.message().find(part) != std::string::npos,
                  "'" << part << "' not in: " << status.message());
}

struct FakeDevice {
  DynamicSymbols syms;
  std::unique_ptr<Context> ctx;
  explicit FakeDevice(const char *lib = TLC_FAKE_CUDA_FULL) {
    REQUIRE(syms.load(lib).ok());
    REQUIRE(syms.cuInit(0) == 0);
    Status s = Context::create(0, ctx, &syms);
    REQUIRE_MESSAGE(s.ok(), s.message());
  }
};

} // namespace

TEST_CASE("loading a missing driver library names it") {
  DynamicSymbols syms;
  checkError(syms.load("/nonexistent/libcuda.so.1"),
             {"cannot open", "/nonexistent/libcuda.so.1", "NVIDIA driver"});
  CHECK(!syms.cuInit);
}

TEST_CASE("missing required entry points are all listed; optional ones stay null") {
  DynamicSymbols partial;
  checkError(partial.load(TLC_FAKE_CUDA_PARTIAL),
             {"lacks 2 required entry points", "cuModuleGetFunction",
              "cuLaunchKernel"});
  CHECK(partial.library == nullptr);
  CHECK(!partial.cuInit);

  DynamicSymbols full;
  REQUIRE(full.load(TLC_FAKE_CUDA_FULL).ok());
  CHECK(static_cast<bool>(full.cuLaunchKernel));
  CHECK(static_cast<bool>(full.cuGetErrorName));
  CHECK(!full.cuMemGetInfo); // OPTIONAL, not exported by the fake
}

TEST_CASE("driver results are described by name and text") {
  DynamicSymbols full;
  REQUIRE(full.load(TLC_FAKE_CUDA_FULL).ok());
  CHECK(full.describe(700) ==
        "CUDA_ERROR_ILLEGAL_ADDRESS: fake: an illegal memory access was encountered");
  checkError(full.check(700, "cuMemcpyDtoH"),
             {"cuMemcpyDtoH failed: CUDA_ERROR_ILLEGAL_ADDRESS"});
  CHECK(full.check(0, "x").ok());
  // Without cuGetErrorName the runtime's own table answers.
  CHECK(getResultName(100) == "CUDA_ERROR_NO_DEVICE");
  CHECK(getResultName(209) == "CUDA_ERROR_NO_BINARY_FOR_GPU");
  CHECK(getResultName(12345) == "CUDA_ERROR_12345");
}

TEST_CASE("context: device properties, bad ordinal, no device") {
  FakeDevice dev;
  const DeviceInfo &info = dev.ctx->info();
  CHECK(info.name == "tlc fake GPU");
  CHECK(info.archName() == "sm_90");
  CHECK(info.multiprocessors == 4);
  CHECK(info.sharedMemoryPerBlockOptin == 227 * 1024);
  CHECK(info.driverVersion == 13000);

  std::unique_ptr<Context> other;
  checkError(Context::create(3, other, &dev.syms),
             {"CUDA device 3 does not exist", "has 1"});
  setenv("TLC_FAKE_CUDA_DEVICES", "0", 1);
  Status none = Context::create(0, other, &dev.syms);
  unsetenv("TLC_FAKE_CUDA_DEVICES");
  checkError(none, {"no CUDA device"});
  CHECK(none.code() == TLC_CUDA_ERROR_NO_DEVICE);
}

TEST_CASE("buffers: round trip, range checks, allocation failure") {
  FakeDevice dev;
  std::unique_ptr<Buffer> buf;
  REQUIRE(Buffer::create(*dev.ctx, 64, buf).ok());
  const char text[] = "0123456789abcdef";
  REQUIRE(buf->upload(text, 16, 8).ok());
  char back[17] = {0};
  REQUIRE(buf->download(back, 16, 8).ok());
  CHECK(std::string(back) == text);
  checkError(buf->upload(text, 16, 56), {"exceeds the 64-byte buffer"});
  std::unique_ptr<Buffer> huge;
  checkError(Buffer::create(*dev.ctx, size_t(1) << 40, huge),
             {"allocating 1099511627776 bytes on tlc fake GPU",
              "cuMemAlloc failed", "CUDA_ERROR_FAKE"});
}

TEST_CASE("modules: bad images and missing kernels are reported") {
  FakeDevice dev;
  std::unique_ptr<Module> module;
  checkError(Module::loadImage(*dev.ctx, "NOTAMODULE", "k.cubin", module),
             {"cannot load 'k.cubin' on tlc fake GPU (sm_90)",
              "compiled for sm_90", "fake JIT: not a module"});
  checkError(Module::loadFile(*dev.ctx, "/nonexistent/k.cubin", module),
             {"cannot read '/nonexistent/k.cubin'"});
  REQUIRE(Module::loadImage(*dev.ctx, "FAKEMOD", "k.cubin", module).ok());
  Kernel *kernel = nullptr;
  checkError(module->getKernel("sub_one", kernel),
             {"kernel 'sub_one' is not in 'k.cubin'"});
  REQUIRE(module->getKernel("add_one", kernel).ok());
  Kernel *again = nullptr;
  REQUIRE(module->getKernel("add_one", again).ok());
  CHECK(kernel == again);
}

TEST_CASE("launch: arguments, dynamic shared memory opt-in, shape checks") {
  FakeDevice dev;
  std::unique_ptr<Module> module;
  REQUIRE(Module::loadImage(*dev.ctx, "FAKEMOD", "k.cubin", module).ok());
  Kernel *kernel = nullptr;
  REQUIRE(module->getKernel("add_one", kernel).ok());
  std::unique_ptr<Buffer> buf;
  REQUIRE(Buffer::create(*dev.ctx, 8 * sizeof(float), buf).ok());
  float data[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  REQUIRE(buf->upload(data, sizeof(data)).ok());
  CUdeviceptr ptr = buf->address();
  int n = 6;
  void *args[] = {&ptr, &n};

  LaunchConfig cfg;
  cfg.grid[0] = 2;
  cfg.block[0] = 4;
  // 100 KB: the fake refuses unless the runtime raised the limit first.
  cfg.dynamicSharedMemory = 100 * 1024;
  Status s = kernel->launch(cfg, args);
  REQUIRE_MESSAGE(s.ok(), s.message());
  REQUIRE(buf->download(data, sizeof(data)).ok());
  CHECK(data[0] == 1);
  CHECK(data[5] == 6);
  CHECK(data[6] == 6); // n = 6: untouched

  cfg.dynamicSharedMemory = 300 * 1024;
  checkError(kernel->launch(cfg, args),
             {"kernel 'add_one' needs 307200 bytes of dynamic shared memory",
              "allows at most 232448"});
  cfg.dynamicSharedMemory = 0;
  cfg.block[0] = 2048;
  checkError(kernel->launch(cfg, args),
             {"2048 threads per block exceed the device limit of 1024"});
  // A grid of 0 blocks (T.Kernel(M), M = 0) launches nothing and succeeds;
  // a block of 0 threads is an error.
  cfg.block[0] = 4;
  cfg.grid[1] = 0;
  s = kernel->launch(cfg, args);
  CHECK_MESSAGE(s.ok(), s.message());
  REQUIRE(buf->download(data, sizeof(data)).ok());
  CHECK(data[0] == 1); // not incremented again
  cfg.grid[1] = 1;
  cfg.block[0] = 0;
  checkError(kernel->launch(cfg, args), {"a block extent is 0"});
  // CUDA's grid limits, named before the driver's "invalid argument"
  // (a [16.7 M, 64] convolution tile grid of a public example: 262144 in y).
  cfg.block[0] = 4;
  cfg.grid[1] = 262144;
  checkError(kernel->launch(cfg, args),
             {"a grid of 262144 blocks in y (T.Kernel's extent 1) exceeds "
              "CUDA's limit of 65535"});
  cfg.grid[1] = 65535;
  cfg.grid[2] = 65536;
  checkError(kernel->launch(cfg, args), {"65536 blocks in z"});
  cfg.grid[2] = 1;

  KernelAttributes attrs;
  REQUIRE(kernel->getAttributes(attrs).ok());
  CHECK(attrs.registers == 32);
}

// A context is current per thread; PyTorch runs autograd backward passes on
// threads of its own, where the first module load failed with
// CUDA_ERROR_INVALID_CONTEXT (public example_mha_bwd_bshd.py on the H200).
// The fake driver refuses context-bound calls on a thread with none.
TEST_CASE("driver objects work from a thread that did not create the context") {
  FakeDevice dev;
  Status loaded, launched, downloaded;
  float data[4] = {0, 1, 2, 3};
  std::thread worker([&] {
    std::unique_ptr<Module> module;
    loaded = Module::loadImage(*dev.ctx, "FAKEMOD", "k.cubin", module);
    if (!loaded.ok())
      return;
    Kernel *kernel = nullptr;
    REQUIRE(module->getKernel("add_one", kernel).ok());
    std::unique_ptr<Buffer> buf;
    REQUIRE(Buffer::create(*dev.ctx, sizeof(data), buf).ok());
    REQUIRE(buf->upload(data, sizeof(data)).ok());
    CUdeviceptr ptr = buf->address();
    int n = 4;
    void *args[] = {&ptr, &n};
    LaunchConfig cfg;
    cfg.block[0] = 4;
    launched = kernel->launch(cfg, args);
    downloaded = buf->download(data, sizeof(data));
  });
  worker.join();
  REQUIRE_MESSAGE(loaded.ok(), loaded.message());
  REQUIRE_MESSAGE(launched.ok(), launched.message());
  REQUIRE(downloaded.ok());
  CHECK(data[0] == 1);
  CHECK(data[3] == 4);
}

TEST_CASE("asynchronous faults surface at synchronize, readably") {
  FakeDevice dev;
  CHECK(dev.ctx->synchronize().ok());
  setenv("TLC_FAKE_CUDA_SYNC", "700", 1);
  Status s = dev.ctx->synchronize();
  unsetenv("TLC_FAKE_CUDA_SYNC");
  checkError(s, {"kernel execution failed: CUDA_ERROR_ILLEGAL_ADDRESS"});
  CHECK(s.code() == 700);
}

TEST_CASE("timer measures elapsed time between events") {
  FakeDevice dev;
  std::unique_ptr<Timer> timer;
  REQUIRE(Timer::create(*dev.ctx, timer).ok());
  REQUIRE(timer->start().ok());
  REQUIRE(timer->stop().ok());
  float ms = -1;
  REQUIRE(timer->elapsedMilliseconds(ms).ok());
  CHECK(ms >= 0);
}

// The C API uses the process-wide driver, chosen through TLC_CUDA_DRIVER;
// this is the only test that touches it.
TEST_CASE("C API end to end through the process-wide driver") {
  setenv("TLC_CUDA_DRIVER", TLC_FAKE_CUDA_FULL, 1);
  int count = -1;
  REQUIRE(tlc_cuda_device_count(&count) == 0);
  CHECK(count == 1);
  tlc_cuda_context *ctx = nullptr;
  REQUIRE(tlc_cuda_context_create(0, &ctx) == 0);
  tlc_cuda_device_info info;
  REQUIRE(tlc_cuda_context_info(ctx, &info) == 0);
  CHECK(std::string(info.name) == "tlc fake GPU");
  CHECK(info.cc_major == 9);

  tlc_cuda_context *bad = nullptr;
  CHECK(tlc_cuda_context_create(7, &bad) == TLC_CUDA_ERROR_INVALID_DEVICE);
  CHECK(bad == nullptr);
  CHECK(std::string(tlc_cuda_last_error()).find("CUDA device 7") != std::string::npos);

  tlc_cuda_module *mod = nullptr;
  CHECK(tlc_cuda_module_load_file(ctx, "/nonexistent.cubin", &mod) != 0);
  CHECK(std::string(tlc_cuda_last_error()).find("/nonexistent.cubin") !=
        std::string::npos);

  // A cooperative launch (T.sync_grid) must have every block resident: the
  // fake device holds 4 (4 multiprocessors x 1 block), so 8 blocks are
  // refused with the flag and run without it.
  std::string image = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR")
                                                        : "/tmp") +
                      "/tlc-runtime-test-" + std::to_string(getpid()) +
                      ".cubin";
  FILE *f = std::fopen(image.c_str(), "wb");
  REQUIRE(f);
  std::fputs("FAKEMOD", f);
  std::fclose(f);
  REQUIRE(tlc_cuda_module_load_file(ctx, image.c_str(), &mod) == 0);
  std::remove(image.c_str());
  tlc_cuda_kernel *addOne = nullptr;
  REQUIRE(tlc_cuda_module_get_kernel(mod, "add_one", &addOne) == 0);
  tlc_cuda_buffer *data = nullptr;
  REQUIRE(tlc_cuda_buffer_create(ctx, 8 * sizeof(float), &data) == 0);
  CUdeviceptr dataPtr = static_cast<CUdeviceptr>(tlc_cuda_buffer_address(data));
  int n = 8;
  void *launchArgs[] = {&dataPtr, &n};
  const unsigned grid[3] = {8, 1, 1}, block[3] = {1, 1, 1};
  CHECK(tlc_cuda_kernel_launch_flags(addOne, grid, block, 0, nullptr,
                                     launchArgs, 0) == 0);
  CHECK(tlc_cuda_kernel_launch_flags(addOne, grid, block, 0, nullptr,
                                     launchArgs,
                                     TLC_CUDA_LAUNCH_COOPERATIVE) != 0);
  CHECK(std::string(tlc_cuda_last_error()).find("8 blocks must be resident at once") !=
        std::string::npos);
  tlc_cuda_buffer_destroy(data);
  tlc_cuda_module_destroy(mod);

  tlc_cuda_buffer *buf = nullptr;
  REQUIRE(tlc_cuda_buffer_create(ctx, 16, &buf) == 0);
  float in[4] = {1, 2, 3, 4}, out[4] = {};
  REQUIRE(tlc_cuda_buffer_upload(buf, in, sizeof(in), 0) == 0);
  REQUIRE(tlc_cuda_buffer_download(buf, out, sizeof(out), 0) == 0);
  CHECK(out[3] == 4);
  CHECK(tlc_cuda_buffer_download(buf, out, sizeof(out), 8) != 0);
  tlc_cuda_buffer_destroy(buf);

  tlc_cuda_timer *timer = nullptr;
  REQUIRE(tlc_cuda_timer_create(ctx, &timer) == 0);
  float ms = -1;
  CHECK(tlc_cuda_timer_start(timer, nullptr) == 0);
  CHECK(tlc_cuda_timer_stop(timer, nullptr) == 0);
  CHECK(tlc_cuda_timer_elapsed_ms(timer, &ms) == 0);
  CHECK(ms >= 0);
  tlc_cuda_timer_destroy(timer);
  CHECK(tlc_cuda_synchronize(ctx) == 0);
  CHECK(tlc_cuda_synchronize(nullptr) == -1);
  tlc_cuda_context_destroy(ctx);
}
