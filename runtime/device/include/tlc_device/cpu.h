//===- cpu.h - Support code of CPU-target kernels ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Everything the C++ that `tlc-build --target=cpu` generates needs:
///
///  * cpu/abi.h: the kernel ABI (`tlc_cpu_args`, the entry point's one
///    argument) and the check of a call's arguments;
///  * cpu/types.h: storage types of the small float formats (f16, bf16,
///    fp8 e4m3fn/e5m2, ...) with round-to-nearest-even conversions from
///    float, as the GPU stores them (fp8 saturating to the largest finite
///    value, like CUDA's `satfinite` conversion), int4, `cast`, printing;
///  * cpu/math.h: integer helpers with Python semantics, IEEE arithmetic
///    with a rounding direction;
///  * cpu/view.h: `Status` and `View`, a strided window on a buffer that
///    knows which of its indices are in bounds: out-of-range reads of
///    global memory give zero, writes are dropped (TileLang's guards);
///    out-of-range accesses to on-chip buffers are reported as errors with
///    the source location; the range tests of the generated code's
///    unchecked fast paths (`spans`, `covers`) and their row copy
///    (`copyRow`);
///  * cpu/gemm.h: `gemm`, packed operands and a register-blocked,
///    vectorised micro-kernel that keeps the loop nest's per-element k
///    order;
///  * cpu/atomic.h: atomics;
///  * cpu/launch.h: the block scheduler, cooperative launches, clusters;
///  * cpu/threads.h: the threads of a block, warp operations;
///  * cpu/fibers.h: threads that wait for each other (fibers, mbarriers);
///  * cpu/device_library.h: CUDA device-library functions by name;
///  * the T.rng_* generators shared with the GPU targets (philox.h,
///    xorwow.h, mrg32k3a.h).
///
/// A CPU artifact carries it as one self-contained header, tlc_cpu.h, next
/// to the generated source: the build embeds this file with every include
/// of a tlc_device/ header replaced by that header's text
/// (compiler/lib/Target/Cpp/EmbedHeader.cmake). It is also included by the
/// runtime (storage conversions for `--save`) and by the unit tests of the
/// conversions.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_H
#define TLC_DEVICE_CPU_H

#include "tlc_device/cpu/abi.h"
#include "tlc_device/cpu/atomic.h"
#include "tlc_device/cpu/device_library.h"
#include "tlc_device/cpu/fibers.h"
#include "tlc_device/cpu/gemm.h"
#include "tlc_device/cpu/ldmatrix.h"
#include "tlc_device/cpu/launch.h"
#include "tlc_device/cpu/math.h"
#include "tlc_device/cpu/threads.h"
#include "tlc_device/cpu/transposed_read.h"
#include "tlc_device/cpu/types.h"
#include "tlc_device/cpu/view.h"
#include "tlc_device/mrg32k3a.h"
#include "tlc_device/philox.h"
#include "tlc_device/xorwow.h"

#endif // TLC_DEVICE_CPU_H
