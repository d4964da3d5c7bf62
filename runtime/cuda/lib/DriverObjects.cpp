//===- DriverObjects.cpp - Contexts, modules, kernels, buffers, timers ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Runtime/CUDA/DriverObjects.h"

#include <cstring>
#include <fstream>

using namespace tlc::runtime::cuda;

/// Evaluates a driver call; returns its Status from the enclosing function
/// when it fails.
#define TLC_CU_TRY(syms, call)                                                 \
  do {                                                                         \
    Status tlcStatus = (syms).check((syms).call, #call);                       \
    if (!tlcStatus.ok())                                                       \
      return tlcStatus;                                                        \
  } while (0)

/// Returns \p status from the enclosing function when it is an error.
#define TLC_RETURN_IF_ERROR(status)                                            \
  do {                                                                         \
    Status tlcStatus = (status);                                               \
    if (!tlcStatus.ok())                                                       \
      return tlcStatus;                                                        \
  } while (0)

std::string DeviceInfo::archName() const {
  return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

Status Context::create(int ordinal, std::unique_ptr<Context> &out,
                       const DynamicSymbols *driver) {
  Status status;
  if (!driver) {
    driver = getDriver(status);
    if (!driver)
      return status;
  }
  const DynamicSymbols &s = *driver;
  int count = 0;
  TLC_CU_TRY(s, cuDeviceGetCount(&count));
  if (count == 0)
    return Status::error("no CUDA device is present", TLC_CUDA_ERROR_NO_DEVICE);
  if (ordinal < 0 || ordinal >= count)
    return Status::error("CUDA device " + std::to_string(ordinal) +
                             " does not exist (the machine has " +
                             std::to_string(count) + ")",
                         TLC_CUDA_ERROR_INVALID_DEVICE);

  std::unique_ptr<Context> context(new Context());
  context->syms = driver;
  TLC_CU_TRY(s, cuDeviceGet(&context->dev, ordinal));
  TLC_CU_TRY(s, cuDevicePrimaryCtxRetain(&context->ctx, context->dev));
  TLC_CU_TRY(s, cuCtxSetCurrent(context->ctx));

  DeviceInfo &info = context->device;
  info.ordinal = ordinal;
  char name[256] = {0};
  TLC_CU_TRY(s, cuDeviceGetName(name, sizeof(name) - 1, context->dev));
  info.name = name;
  struct {
    int *field;
    CUdeviceAttribute attribute;
  } attributes[] = {
      {&info.ccMajor, TLC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&info.ccMinor, TLC_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {&info.multiprocessors, TLC_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {&info.maxThreadsPerBlock, TLC_CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&info.sharedMemoryPerBlock,
       TLC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {&info.sharedMemoryPerBlockOptin,
       TLC_CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {&info.l2CacheBytes, TLC_CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
  };
  for (auto &a : attributes)
    TLC_CU_TRY(s, cuDeviceGetAttribute(a.field, a.attribute, context->dev));
  TLC_CU_TRY(s, cuDeviceTotalMem(&info.totalMemory, context->dev));
  TLC_CU_TRY(s, cuDriverGetVersion(&info.driverVersion));
  out = std::move(context);
  return Status();
}

Context::~Context() {
  if (ctx)
    syms->cuDevicePrimaryCtxRelease(dev);
}

Status Context::makeCurrent() const {
  return syms->check(syms->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

Status Context::synchronize() const {
  CUresult r = syms->cuCtxSynchronize();
  if (r == TLC_CUDA_SUCCESS)
    return Status();
  return Status::error("kernel execution failed: " + syms->describe(r), r);
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

Status Buffer::create(const Context &context, size_t bytes,
                      std::unique_ptr<Buffer> &out) {
  std::unique_ptr<Buffer> buffer(new Buffer());
  buffer->context = &context;
  buffer->bytes = bytes;
  const DynamicSymbols &s = context.driver();
  TLC_RETURN_IF_ERROR(context.makeCurrent());
  Status st = s.check(s.cuMemAlloc(&buffer->ptr, bytes ? bytes : 1),
                      "cuMemAlloc");
  if (!st.ok())
    return st.withContext("allocating " + std::to_string(bytes) +
                          " bytes on " + context.info().name);
  out = std::move(buffer);
  return Status();
}

Buffer::~Buffer() {
  if (!ptr)
    return;
  (void)context->makeCurrent();
  context->driver().cuMemFree(ptr);
}

static Status checkRange(size_t offset, size_t count, size_t size) {
  if (offset > size || count > size - offset)
    return Status::error("copy of " + std::to_string(count) +
                         " bytes at offset " + std::to_string(offset) +
                         " exceeds the " + std::to_string(size) +
                         "-byte buffer");
  return Status();
}

Status Buffer::upload(const void *src, size_t count, size_t offset) {
  Status st = checkRange(offset, count, bytes);
  if (!st.ok() || !count)
    return st;
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  return s.check(s.cuMemcpyHtoD(ptr + offset, src, count), "cuMemcpyHtoD");
}

Status Buffer::download(void *dst, size_t count, size_t offset) const {
  Status st = checkRange(offset, count, bytes);
  if (!st.ok() || !count)
    return st;
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  return s.check(s.cuMemcpyDtoH(dst, ptr + offset, count), "cuMemcpyDtoH");
}

Status Buffer::fill(unsigned char value) {
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  return s.check(s.cuMemsetD8(ptr, value, bytes), "cuMemsetD8");
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Status Kernel::getAttributes(KernelAttributes &out) const {
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  TLC_CU_TRY(s, cuFuncGetAttribute(&out.registers,
                                   TLC_CU_FUNC_ATTRIBUTE_NUM_REGS, function));
  TLC_CU_TRY(s, cuFuncGetAttribute(&out.staticSharedMemory,
                                   TLC_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                   function));
  TLC_CU_TRY(s, cuFuncGetAttribute(&out.localMemory,
                                   TLC_CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                   function));
  TLC_CU_TRY(s, cuFuncGetAttribute(&out.maxThreadsPerBlock,
                                   TLC_CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                   function));
  return Status();
}

Status Kernel::setMaxDynamicSharedMemory(int bytes) {
  const DeviceInfo &info = context->info();
  if (bytes > info.sharedMemoryPerBlockOptin)
    return Status::error("kernel '" + symbol + "' needs " +
                         std::to_string(bytes) +
                         " bytes of dynamic shared memory; " + info.name +
                         " allows at most " +
                         std::to_string(info.sharedMemoryPerBlockOptin) +
                         " per block");
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  Status st = s.check(
      s.cuFuncSetAttribute(function,
                           TLC_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           bytes),
      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  if (!st.ok())
    return st.withContext("kernel '" + symbol + "'");
  dynamicSharedLimit = bytes;
  return Status();
}

Status Kernel::launch(const LaunchConfig &config, void **args) {
  const DeviceInfo &info = context->info();
  unsigned long long threads = 1;
  for (unsigned d = 0; d < 3; ++d) {
    if (config.block[d] == 0)
      return Status::error("kernel '" + symbol +
                           "': a block extent is 0 (a block has no thread)");
    threads *= config.block[d];
  }
  // A grid of 0 blocks (`T.Kernel(M)` with M = 0) has nothing to run; the
  // driver would refuse it as an invalid configuration.
  if (!config.grid[0] || !config.grid[1] || !config.grid[2])
    return Status();
  if (threads > static_cast<unsigned long long>(info.maxThreadsPerBlock))
    return Status::error("kernel '" + symbol + "': " + std::to_string(threads) +
                         " threads per block exceed the device limit of " +
                         std::to_string(info.maxThreadsPerBlock));
  // CUDA's grid limits (every GPU since compute capability 3.0): the
  // driver's refusal would only say "invalid argument".
  static constexpr unsigned long long kMaxGrid[3] = {2147483647ull, 65535ull,
                                                     65535ull};
  for (unsigned d = 0; d < 3; ++d)
    if (config.grid[d] > kMaxGrid[d])
      return Status::error(
          "kernel '" + symbol + "': a grid of " +
          std::to_string(config.grid[d]) + " blocks in " + "xyz"[d] +
          " (T.Kernel's extent " + std::to_string(d) + ") exceeds CUDA's "
          "limit of " + std::to_string(kMaxGrid[d]) +
          " (a larger tile or a grid-stride loop fits)");
  if (static_cast<int>(config.dynamicSharedMemory) > dynamicSharedLimit) {
    Status st = setMaxDynamicSharedMemory(config.dynamicSharedMemory);
    if (!st.ok())
      return st;
  }
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  Status st;
  if (config.cooperative) {
    // T.sync_grid: every block must be resident at once, or the blocks at
    // the barrier wait forever for ones that never start.
    if (!s.cuLaunchCooperativeKernel ||
        !s.cuOccupancyMaxActiveBlocksPerMultiprocessor)
      return Status::error("kernel '" + symbol +
                           "' calls T.sync_grid: the driver has no "
                           "cooperative launch or occupancy query");
    int perMultiprocessor = 0;
    st = s.check(s.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                     &perMultiprocessor, function,
                     static_cast<int>(threads), config.dynamicSharedMemory),
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    if (!st.ok())
      return st;
    unsigned long long blocks =
        1ull * config.grid[0] * config.grid[1] * config.grid[2];
    unsigned long long resident =
        1ull * perMultiprocessor * std::max(info.multiprocessors, 0);
    if (blocks > resident)
      return Status::error(
          "kernel '" + symbol + "' calls T.sync_grid, so all " +
          std::to_string(blocks) + " blocks must be resident at once; the " +
          "device holds " + std::to_string(resident) + " (" +
          std::to_string(perMultiprocessor) + " per multiprocessor x " +
          std::to_string(info.multiprocessors) + " multiprocessors)");
    st = s.check(s.cuLaunchCooperativeKernel(
                     function, config.grid[0], config.grid[1], config.grid[2],
                     config.block[0], config.block[1], config.block[2],
                     config.dynamicSharedMemory, config.stream, args),
                 "cuLaunchCooperativeKernel");
  } else {
    st = s.check(
        s.cuLaunchKernel(function, config.grid[0], config.grid[1],
                         config.grid[2], config.block[0], config.block[1],
                         config.block[2], config.dynamicSharedMemory,
                         config.stream, args, nullptr),
        "cuLaunchKernel");
  }
  if (!st.ok())
    return st.withContext(
        "launching '" + symbol + "' with grid (" +
        std::to_string(config.grid[0]) + ", " + std::to_string(config.grid[1]) +
        ", " + std::to_string(config.grid[2]) + "), block (" +
        std::to_string(config.block[0]) + ", " +
        std::to_string(config.block[1]) + ", " +
        std::to_string(config.block[2]) + "), " +
        std::to_string(config.dynamicSharedMemory) + " B dynamic shared memory");
  return Status();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Status tlc::runtime::cuda::readFile(const std::string &path,
                                    std::vector<char> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("cannot read '" + path + "': " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  out.resize(static_cast<size_t>(size) + 1);
  if (size > 0 && !in.read(out.data(), size))
    return Status::error("cannot read '" + path + "'");
  out[static_cast<size_t>(size)] = '\0'; // PTX images must be NUL-terminated.
  return Status();
}

Status Module::loadFile(const Context &context, const std::string &path,
                        std::unique_ptr<Module> &out) {
  std::vector<char> image;
  Status st = readFile(path, image);
  if (!st.ok())
    return st;
  return loadImage(context, image.data(), path, out);
}

Status Module::loadImage(const Context &context, const void *image,
                         const std::string &label,
                         std::unique_ptr<Module> &out) {
  const DynamicSymbols &s = context.driver();
  TLC_RETURN_IF_ERROR(context.makeCurrent());
  std::unique_ptr<Module> module(new Module());
  module->context = &context;
  module->label = label;
  // The error log catches PTX JIT diagnostics (e.g. an instruction the
  // device's architecture lacks).
  char errorLog[8192] = {0};
  CUjitOption options[] = {TLC_CU_JIT_ERROR_LOG_BUFFER,
                           TLC_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog,
                    reinterpret_cast<void *>(sizeof(errorLog) - 1)};
  CUresult r = s.cuModuleLoadDataEx(&module->module, image, 2, options, values);
  if (r != TLC_CUDA_SUCCESS) {
    std::string message = "cannot load '" + label + "' on " +
                          context.info().name + " (" +
                          context.info().archName() + "): " + s.describe(r);
    if (r == TLC_CUDA_ERROR_NO_BINARY_FOR_GPU ||
        r == TLC_CUDA_ERROR_INVALID_IMAGE)
      message += "; was it compiled for " + context.info().archName() + "?";
    if (errorLog[0])
      message += "\n" + std::string(errorLog);
    return Status::error(message, r);
  }
  out = std::move(module);
  return Status();
}

Module::~Module() {
  if (!module)
    return;
  (void)context->makeCurrent();
  context->driver().cuModuleUnload(module);
}

Status Module::getKernel(const std::string &name, Kernel *&out) {
  auto it = kernels.find(name);
  if (it != kernels.end()) {
    out = it->second.get();
    return Status();
  }
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  auto kernel = std::make_unique<Kernel>();
  CUresult r = s.cuModuleGetFunction(&kernel->function, module, name.c_str());
  if (r != TLC_CUDA_SUCCESS)
    return Status::error("kernel '" + name + "' is not in '" + label +
                             "': " + s.describe(r),
                         r);
  kernel->context = context;
  kernel->symbol = name;
  out = kernel.get();
  kernels.emplace(name, std::move(kernel));
  return Status();
}

//===----------------------------------------------------------------------===//
// Timer
//===----------------------------------------------------------------------===//

Status Timer::create(const Context &context, std::unique_ptr<Timer> &out) {
  const DynamicSymbols &s = context.driver();
  TLC_RETURN_IF_ERROR(context.makeCurrent());
  std::unique_ptr<Timer> timer(new Timer());
  timer->context = &context;
  TLC_CU_TRY(s, cuEventCreate(&timer->begin, TLC_CU_EVENT_DEFAULT));
  TLC_CU_TRY(s, cuEventCreate(&timer->end, TLC_CU_EVENT_DEFAULT));
  out = std::move(timer);
  return Status();
}

Timer::~Timer() {
  const DynamicSymbols &s = context->driver();
  (void)context->makeCurrent();
  if (begin)
    s.cuEventDestroy(begin);
  if (end)
    s.cuEventDestroy(end);
}

Status Timer::start(CUstream stream) {
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  return s.check(s.cuEventRecord(begin, stream), "cuEventRecord");
}

Status Timer::stop(CUstream stream) {
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  return s.check(s.cuEventRecord(end, stream), "cuEventRecord");
}

Status Timer::elapsedMilliseconds(float &out) {
  const DynamicSymbols &s = context->driver();
  TLC_RETURN_IF_ERROR(context->makeCurrent());
  CUresult r = s.cuEventSynchronize(end);
  if (r != TLC_CUDA_SUCCESS)
    return Status::error("kernel execution failed: " + s.describe(r), r);
  TLC_CU_TRY(s, cuEventElapsedTime(&out, begin, end));
  return Status();
}

Status tlc::runtime::cuda::encodeTensorMap(const Context &context,
                                           const TensorMapSpec &spec,
                                           CUdeviceptr address, void *out) {
  const DynamicSymbols &s = context.driver();
  if (!s.cuTensorMapEncodeTiled)
    return Status::error("this CUDA driver has no cuTensorMapEncodeTiled "
                         "(TMA needs CUDA 12 and an sm_90 GPU)");
  // CUtensorMapDataType, from cuda.h's enumeration.
  static const std::pair<const char *, int> types[] = {
      {"uint8", 0},    {"int8", 0},     {"float8_e4m3", 0}, {"float8_e4m3fn", 0},
      {"float8_e5m2", 0}, {"uint16", 1}, {"int16", 1},      {"uint32", 2},
      {"int32", 3},    {"uint64", 4},   {"int64", 5},       {"float16", 6},
      {"float32", 7},  {"float64", 8},  {"bfloat16", 9}};
  int type = -1;
  for (auto &[name, code] : types)
    if (spec.dtype == name)
      type = code;
  if (type < 0)
    return Status::error("tensor map of dtype '" + spec.dtype +
                         "' is not supported");
  size_t rank = spec.dims.size();
  if (rank < 2 || rank > 5 || spec.strides.size() + 1 != rank ||
      spec.box.size() != rank)
    return Status::error("a tensor map needs rank 2 to 5 with matching "
                         "strides and box");
  int swizzle = spec.swizzle == 0    ? 0
                : spec.swizzle == 32 ? 1
                : spec.swizzle == 64 ? 2
                : spec.swizzle == 128 ? 3
                                      : -1;
  int l2 = spec.l2Promotion == 0     ? 0
           : spec.l2Promotion == 64  ? 1
           : spec.l2Promotion == 128 ? 2
           : spec.l2Promotion == 256 ? 3
                                     : -1;
  if (swizzle < 0 || l2 < 0)
    return Status::error("tensor map swizzle or L2 promotion out of range");
  unsigned elementStrides[5] = {1, 1, 1, 1, 1};
  Status st = s.check(
      s.cuTensorMapEncodeTiled(out, type, unsigned(rank),
                               reinterpret_cast<void *>(address),
                               spec.dims.data(), spec.strides.data(),
                               spec.box.data(), elementStrides,
                               /*interleave none*/ 0, swizzle, l2,
                               /*OOB fill zero*/ 0),
      "cuTensorMapEncodeTiled");
  if (!st.ok()) {
    std::string dims;
    for (std::uint64_t d : spec.dims)
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    return st.withContext("a tensor map over [" + dims +
                          "] (innermost first) at address " +
                          std::to_string(address) +
                          ": TMA needs a 16-byte aligned address and "
                          "16-byte multiple strides");
  }
  return Status();
}
