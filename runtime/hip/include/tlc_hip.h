/*===- tlc_hip.h - C API of tlc's HIP runtime ---------------------*- C -*-===//
 *
 * Part of the tlc project.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * For embedding tlc kernels built with `tlc-build --target=hip:gfx942 -o DIR`
 * (gfx90a, gfx950, or several: NAME.hipfb) in C or other languages: load an
 * artifact's manifest and code object and launch its kernel instance
 * through the HIP module API, which the runtime opens with
 * dlopen("libamdhip64.so") (no link-time ROCm dependency; the `hip` device
 * of `tlc-run`). Unlike tlc_cuda.h, a launch is the whole instance: grid,
 * block, LDS and workspaces come from the manifest, as for tlc-run.
 *
 * Every function that can fail returns 0 on success and a non-zero value
 * on failure; tlc_hip_last_error() then returns a readable message for the
 * calling thread ("no HIP runtime found (...)", "no HIP device: ... finds
 * no AMD GPU", a kernel's own error). Handles are not thread-safe. Destroy
 * modules before their context.
 *
 * Test and debug facilities (environment, read when a context is created):
 *   TLC_HIP_DEVICE=sim   contexts run kernels on tlc's `sim` device (HIP
 *                        semantics simulated on the host, checked by
 *                        memcheck, racecheck and synccheck) instead of an
 *                        AMD GPU. Tensor addresses are then host memory:
 *                        each launch copies every tensor into the
 *                        simulator's memory, runs to completion and copies
 *                        back the tensors the kernel writes; the stream and
 *                        workspaces are ignored. Nothing else changes.
 *   TLC_HIP_LIBRARY=PATH the HIP runtime library to open instead of
 *                        libamdhip64.so.
 *
 * Nothing here has run on AMD hardware: no AMD GPU exists where tlc is
 * developed.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TLC_HIP_H
#define TLC_HIP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A HIP device (or, with TLC_HIP_DEVICE=sim, the simulator). */
typedef struct tlc_hip_context tlc_hip_context;
/** The manifests of an artifact directory, or of one NAME.json. */
typedef struct tlc_hip_module tlc_hip_module;
/** A kernel instance of a module: its code object, loaded (owned by the
 *  module). */
typedef struct tlc_hip_kernel tlc_hip_kernel;

/** Device description. */
typedef struct tlc_hip_device_info {
  /** `hip (AMD Instinct MI300X)`, or the sim device's description. */
  char name[256];
  /** 1 when the context runs kernels on the sim device (host memory). */
  int simulated;
} tlc_hip_device_info;

/** The message of the calling thread's last failure ("" if none). */
const char *tlc_hip_last_error(void);

/** Number of HIP devices; 0 (and success) when there is no HIP runtime or
 *  no AMD GPU, so callers can skip GPU work cleanly. 1 with
 *  TLC_HIP_DEVICE=sim. */
int tlc_hip_device_count(int *count);

/** Opens device `ordinal` (the caller's current HIP device is left as it
 *  is: the runtime makes `ordinal` current around its own calls). */
int tlc_hip_context_create(int ordinal, tlc_hip_context **out);
/** Closes the device. Null is ignored. */
void tlc_hip_context_destroy(tlc_hip_context *context);
/** Fills `out` with the context's description. */
int tlc_hip_context_info(const tlc_hip_context *context,
                         tlc_hip_device_info *out);

/** Reads the manifests at `path`: an artifact directory (every NAME.json
 *  in it) or one NAME.json. Code objects are loaded by
 *  tlc_hip_module_get_kernel. */
int tlc_hip_module_load_file(tlc_hip_context *context, const char *path,
                             tlc_hip_module **out);
/** Unloads the module and its kernels. Null is ignored. */
void tlc_hip_module_destroy(tlc_hip_module *module);
/** The instance whose manifest `name` (NAME of NAME.json) is `name`; null
 *  or "" names a module's only one. Loads its code object (NAME.hsaco or
 *  NAME.hipfb) on the first request; an artifact built for another target
 *  than HIP is an error. */
int tlc_hip_module_get_kernel(tlc_hip_module *module, const char *name,
                              tlc_hip_kernel **out);

/** Launches every kernel of the instance, in manifest order, on `stream`
 *  (a hipStream_t; null: the default stream) and returns without waiting.
 *  `params` holds one entry per manifest parameter: a tensor's device
 *  address (null for a tensor the kernel does not touch), or a scalar's
 *  host address (its value in the parameter's dtype). `symbols` holds the
 *  manifest symbols' values in manifest order. `workspaces` holds device
 *  memory for each manifest workspace, in order, which must stay allocated
 *  until the launches finish; null: the runtime allocates them and waits
 *  for the launches. A grid with an extent of 0 launches nothing. */
int tlc_hip_kernel_launch(tlc_hip_kernel *kernel, void *const *params,
                          size_t num_params, const int64_t *symbols,
                          size_t num_symbols, void *const *workspaces,
                          void *stream);

#ifdef __cplusplus
}
#endif

#endif /* TLC_HIP_H */
