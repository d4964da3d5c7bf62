/*===- tlc_cuda.h - C API of tlc's CUDA runtime -------------------*- C -*-===//
 *
 * Part of the tlc project.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * For embedding tlc kernels in C or other languages: load a cubin that
 * `tlc-build --target=cuda:...` wrote and launch its kernel through the CUDA
 * driver API, which the runtime opens with dlopen("libcuda.so.1") (no
 * link-time GPU dependency).
 *
 * Every function that can fail returns 0 on success and a non-zero value
 * (the driver's CUresult, or -1) on failure; tlc_cuda_last_error() then
 * returns a readable message for the calling thread. Handles are not
 * thread-safe. Destroy kernels' modules and buffers before their context.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TLC_CUDA_H
#define TLC_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A device's retained primary context. */
typedef struct tlc_cuda_context tlc_cuda_context;
/** A loaded cubin / fatbin / PTX module. */
typedef struct tlc_cuda_module tlc_cuda_module;
/** A kernel of a module (owned by the module). */
typedef struct tlc_cuda_kernel tlc_cuda_kernel;
/** A device allocation. */
typedef struct tlc_cuda_buffer tlc_cuda_buffer;
/** A pair of device events for timing. */
typedef struct tlc_cuda_timer tlc_cuda_timer;

/** Device properties. */
typedef struct tlc_cuda_device_info {
  char name[256];
  int cc_major, cc_minor;
  int multiprocessors;
  int max_threads_per_block;
  int shared_memory_per_block_optin;
  size_t total_memory;
  int driver_version;
} tlc_cuda_device_info;

/** The message of the calling thread's last failure ("" if none). */
const char *tlc_cuda_last_error(void);

/** Number of CUDA devices; 0 (and success) when there is no driver or no
 *  device, so callers can skip GPU work cleanly. */
int tlc_cuda_device_count(int *count);

/** Retains device `ordinal`'s primary context and makes it current. */
int tlc_cuda_context_create(int ordinal, tlc_cuda_context **out);
/** Releases the context. Null is ignored. */
void tlc_cuda_context_destroy(tlc_cuda_context *context);
/** Fills `out` with the context's device properties. */
int tlc_cuda_context_info(const tlc_cuda_context *context,
                          tlc_cuda_device_info *out);
/** Waits for all work; reports asynchronous kernel faults. */
int tlc_cuda_synchronize(tlc_cuda_context *context);

/** Allocates `bytes` of device memory. */
int tlc_cuda_buffer_create(tlc_cuda_context *context, size_t bytes,
                           tlc_cuda_buffer **out);
/** Frees the buffer. Null is ignored. */
void tlc_cuda_buffer_destroy(tlc_cuda_buffer *buffer);
/** The device address (for kernel arguments). */
uint64_t tlc_cuda_buffer_address(const tlc_cuda_buffer *buffer);
/** Host -> device copy of `bytes` at `offset`. */
int tlc_cuda_buffer_upload(tlc_cuda_buffer *buffer, const void *src,
                           size_t bytes, size_t offset);
/** Device -> host copy of `bytes` at `offset`. */
int tlc_cuda_buffer_download(const tlc_cuda_buffer *buffer, void *dst,
                             size_t bytes, size_t offset);

/** Loads a cubin, fatbin or PTX file. */
int tlc_cuda_module_load_file(tlc_cuda_context *context, const char *path,
                              tlc_cuda_module **out);
/** Unloads the module (and invalidates its kernels). Null is ignored. */
void tlc_cuda_module_destroy(tlc_cuda_module *module);
/** Looks up kernel `name` (owned by the module). */
int tlc_cuda_module_get_kernel(tlc_cuda_module *module, const char *name,
                               tlc_cuda_kernel **out);

/** Launches `kernel`; `args` holds one pointer per kernel parameter. Raises
 *  the dynamic shared memory limit first when `shared_bytes` > 48 KB (an
 *  error naming both when the device allows less). A grid with an extent
 *  of 0 launches nothing and succeeds. `stream` may be null (the default
 *  stream). */
int tlc_cuda_kernel_launch(tlc_cuda_kernel *kernel, const unsigned grid[3],
                           const unsigned block[3], unsigned shared_bytes,
                           void *stream, void **args);

/** Flag of tlc_cuda_kernel_launch_flags: every block of the grid is resident
 *  at once (cuLaunchCooperativeKernel), as a kernel calling T.sync_grid
 *  needs; its manifest launch says `"cooperative": true`. The launch fails
 *  with a message when the grid does not fit on the device. */
#define TLC_CUDA_LAUNCH_COOPERATIVE 1u

/** tlc_cuda_kernel_launch with `flags` (0 or TLC_CUDA_LAUNCH_COOPERATIVE). */
int tlc_cuda_kernel_launch_flags(tlc_cuda_kernel *kernel,
                                 const unsigned grid[3],
                                 const unsigned block[3],
                                 unsigned shared_bytes, void *stream,
                                 void **args, unsigned flags);

/** Encodes a TMA tensor map (cuTensorMapEncodeTiled) over the tensor at
 *  device address `address` into `out` (128 bytes, 64-byte aligned): what a
 *  manifest launch's `tensor_maps` entry describes. `dims` and `box` hold
 *  `rank` (2 to 5) extents innermost first, `strides` the rank - 1 byte
 *  strides of dims 1..; `swizzle` 0/32/64/128 and `l2_promotion`
 *  0/64/128/256 bytes; out-of-bounds elements read as zero. Kernels take
 *  the maps after the symbols, by value (pass `out` as the argument). */
int tlc_cuda_tensor_map_encode(tlc_cuda_context *context, const char *dtype,
                               unsigned rank, uint64_t address,
                               const uint64_t *dims, const uint64_t *strides,
                               const unsigned *box, int swizzle,
                               int l2_promotion, void *out);

/** Creates a timer (two device events). */
int tlc_cuda_timer_create(tlc_cuda_context *context, tlc_cuda_timer **out);
/** Destroys the timer. Null is ignored. */
void tlc_cuda_timer_destroy(tlc_cuda_timer *timer);
/** Records the start / stop event on `stream` (null: default stream). */
int tlc_cuda_timer_start(tlc_cuda_timer *timer, void *stream);
int tlc_cuda_timer_stop(tlc_cuda_timer *timer, void *stream);
/** Waits for the stop event; writes the elapsed milliseconds. */
int tlc_cuda_timer_elapsed_ms(tlc_cuda_timer *timer, float *ms);

#ifdef __cplusplus
}
#endif

#endif /* TLC_CUDA_H */
