//===- CAPI.cpp - The C API of tlc's CUDA runtime ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc_cuda.h"

#include "tlc/Runtime/CUDA/DriverObjects.h"
#include "tlc/runtime/CAPIErrors.h"

#include <cstring>

using namespace tlc::runtime::cuda;
using tlc::runtime::capi::createHandle;
using tlc::runtime::capi::nullArgument;

struct tlc_cuda_context {
  std::unique_ptr<Context> impl;
};
struct tlc_cuda_module {
  std::unique_ptr<Module> impl;
};
struct tlc_cuda_buffer {
  std::unique_ptr<Buffer> impl;
};
struct tlc_cuda_timer {
  std::unique_ptr<Timer> impl;
};

namespace {
/// Records \p status as the thread's last error; returns the C result.
int report(const Status &status) {
  if (status.ok())
    return 0;
  return tlc::runtime::capi::fail(status.message(), status.code());
}
} // namespace

extern "C" {

const char *tlc_cuda_last_error(void) {
  return tlc::runtime::capi::lastError().c_str();
}

int tlc_cuda_device_count(int *count) {
  if (!count)
    return nullArgument("tlc_cuda_device_count");
  *count = 0;
  Status status;
  const DynamicSymbols *driver = getDriver(status);
  if (!driver)
    return 0; // No driver or no device: zero devices, not an error.
  return report(
      driver->check(driver->cuDeviceGetCount(count), "cuDeviceGetCount"));
}

int tlc_cuda_context_create(int ordinal, tlc_cuda_context **out) {
  if (!out)
    return nullArgument("tlc_cuda_context_create");
  return createHandle(out, [&](tlc_cuda_context &context) {
    return report(Context::create(ordinal, context.impl));
  });
}

void tlc_cuda_context_destroy(tlc_cuda_context *context) { delete context; }

int tlc_cuda_context_info(const tlc_cuda_context *context,
                          tlc_cuda_device_info *out) {
  if (!context || !out)
    return nullArgument("tlc_cuda_context_info");
  const DeviceInfo &info = context->impl->info();
  std::memset(out, 0, sizeof(*out));
  std::strncpy(out->name, info.name.c_str(), sizeof(out->name) - 1);
  out->cc_major = info.ccMajor;
  out->cc_minor = info.ccMinor;
  out->multiprocessors = info.multiprocessors;
  out->max_threads_per_block = info.maxThreadsPerBlock;
  out->shared_memory_per_block_optin = info.sharedMemoryPerBlockOptin;
  out->total_memory = info.totalMemory;
  out->driver_version = info.driverVersion;
  return 0;
}

int tlc_cuda_synchronize(tlc_cuda_context *context) {
  if (!context)
    return nullArgument("tlc_cuda_synchronize");
  return report(context->impl->synchronize());
}

int tlc_cuda_buffer_create(tlc_cuda_context *context, size_t bytes,
                           tlc_cuda_buffer **out) {
  if (!context || !out)
    return nullArgument("tlc_cuda_buffer_create");
  return createHandle(out, [&](tlc_cuda_buffer &buffer) {
    return report(Buffer::create(*context->impl, bytes, buffer.impl));
  });
}

void tlc_cuda_buffer_destroy(tlc_cuda_buffer *buffer) { delete buffer; }

uint64_t tlc_cuda_buffer_address(const tlc_cuda_buffer *buffer) {
  return buffer ? buffer->impl->address() : 0;
}

int tlc_cuda_buffer_upload(tlc_cuda_buffer *buffer, const void *src,
                           size_t bytes, size_t offset) {
  if (!buffer || (!src && bytes))
    return nullArgument("tlc_cuda_buffer_upload");
  return report(buffer->impl->upload(src, bytes, offset));
}

int tlc_cuda_buffer_download(const tlc_cuda_buffer *buffer, void *dst,
                             size_t bytes, size_t offset) {
  if (!buffer || (!dst && bytes))
    return nullArgument("tlc_cuda_buffer_download");
  return report(buffer->impl->download(dst, bytes, offset));
}

int tlc_cuda_module_load_file(tlc_cuda_context *context, const char *path,
                              tlc_cuda_module **out) {
  if (!context || !path || !out)
    return nullArgument("tlc_cuda_module_load_file");
  return createHandle(out, [&](tlc_cuda_module &module) {
    return report(Module::loadFile(*context->impl, path, module.impl));
  });
}

void tlc_cuda_module_destroy(tlc_cuda_module *module) { delete module; }

int tlc_cuda_module_get_kernel(tlc_cuda_module *module, const char *name,
                               tlc_cuda_kernel **out) {
  if (!module || !name || !out)
    return nullArgument("tlc_cuda_module_get_kernel");
  Kernel *kernel = nullptr;
  if (int r = report(module->impl->getKernel(name, kernel)))
    return r;
  *out = reinterpret_cast<tlc_cuda_kernel *>(kernel);
  return 0;
}

int tlc_cuda_kernel_launch(tlc_cuda_kernel *kernel, const unsigned grid[3],
                           const unsigned block[3], unsigned shared_bytes,
                           void *stream, void **args) {
  return tlc_cuda_kernel_launch_flags(kernel, grid, block, shared_bytes,
                                      stream, args, 0);
}

int tlc_cuda_kernel_launch_flags(tlc_cuda_kernel *kernel,
                                 const unsigned grid[3],
                                 const unsigned block[3],
                                 unsigned shared_bytes, void *stream,
                                 void **args, unsigned flags) {
  if (!kernel || !grid || !block)
    return nullArgument("tlc_cuda_kernel_launch");
  LaunchConfig config;
  for (int d = 0; d < 3; ++d) {
    config.grid[d] = grid[d];
    config.block[d] = block[d];
  }
  config.dynamicSharedMemory = shared_bytes;
  config.stream = static_cast<CUstream>(stream);
  config.cooperative = (flags & TLC_CUDA_LAUNCH_COOPERATIVE) != 0;
  return report(reinterpret_cast<Kernel *>(kernel)->launch(config, args));
}

int tlc_cuda_tensor_map_encode(tlc_cuda_context *context, const char *dtype,
                               unsigned rank, uint64_t address,
                               const uint64_t *dims, const uint64_t *strides,
                               const unsigned *box, int swizzle,
                               int l2_promotion, void *out) {
  if (!context || !dtype || !dims || !strides || !box || !out || rank < 2 ||
      rank > 5)
    return nullArgument("tlc_cuda_tensor_map_encode");
  TensorMapSpec spec;
  spec.dtype = dtype;
  spec.dims.assign(dims, dims + rank);
  spec.strides.assign(strides, strides + rank - 1);
  spec.box.assign(box, box + rank);
  spec.swizzle = swizzle;
  spec.l2Promotion = l2_promotion;
  return report(encodeTensorMap(*context->impl, spec, address, out));
}

int tlc_cuda_timer_create(tlc_cuda_context *context, tlc_cuda_timer **out) {
  if (!context || !out)
    return nullArgument("tlc_cuda_timer_create");
  return createHandle(out, [&](tlc_cuda_timer &timer) {
    return report(Timer::create(*context->impl, timer.impl));
  });
}

void tlc_cuda_timer_destroy(tlc_cuda_timer *timer) { delete timer; }

int tlc_cuda_timer_start(tlc_cuda_timer *timer, void *stream) {
  if (!timer)
    return nullArgument("tlc_cuda_timer_start");
  return report(timer->impl->start(static_cast<CUstream>(stream)));
}

int tlc_cuda_timer_stop(tlc_cuda_timer *timer, void *stream) {
  if (!timer)
    return nullArgument("tlc_cuda_timer_stop");
  return report(timer->impl->stop(static_cast<CUstream>(stream)));
}

int tlc_cuda_timer_elapsed_ms(tlc_cuda_timer *timer, float *ms) {
  if (!timer || !ms)
    return nullArgument("tlc_cuda_timer_elapsed_ms");
  return report(timer->impl->elapsedMilliseconds(*ms));
}

} // extern "C"
