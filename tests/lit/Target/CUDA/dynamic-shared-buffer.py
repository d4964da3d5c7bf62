# Shared buffers whose shape is a symbol bound only at run time
# (`T.alloc_shared((16, n))`, test_tilelang_language_dynamic_shared_scan.py):
# they are placed after every byte fixed at build time, later ones at
# offsets computed in the kernel from the symbols, and the launch's dynamic
# shared memory is an expression of the symbols in the manifest (version
# 5), which every launcher evaluates. Built for sm_90a, sm_80, gfx942 and
# the CPU; run on the CPU and on sim at n = 7 and n = 129 against NumPy.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null
# RUN: %python %S/Inputs/dynamic_shared_manifest.py %t/sm90/scan_rows.json %t/sm90/two_buffers.json | FileCheck %s --check-prefix=MANIFEST
# RUN: tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_80 -o %t/nvcc --kernel=two_buffers %s | FileCheck %s --check-prefix=NVCC %}
# NVCC: wrote {{.*}}two_buffers.{{cubin|fatbin}}
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu -D n=7 --save %t/cpu7 > /dev/null
# RUN: tlc-run %t/cpu -D n=129 --save %t/cpu129 > /dev/null
# RUN: %python %S/Inputs/dynamic_shared_check.py %t/cpu7 %t/cpu129 | FileCheck %s --check-prefix=OUT
# REQUIRES: sim-compiler
# RUN: tlc-run %t/sm90 --device sim -D n=7 --save %t/sim7 > /dev/null
# RUN: tlc-run %t/sm80 --device sim -D n=129 --save %t/sim129 > /dev/null
# RUN: %python %S/Inputs/dynamic_shared_check.py %t/sim7 %t/sim129 | FileCheck %s --check-prefix=OUT
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim -D n=7 --save %t/hip7 > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim -D n=129 --save %t/hip129 > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/dynamic_shared_check.py %t/hip7 %t/hip129 | FileCheck %s --check-prefix=OUT %}
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=HIP
# Past the device's limit at these sizes: an error at launch naming both.
# RUN: not tlc-run %t/sm90 --kernel=scan_rows --device sim -D n=4000 2>&1 | FileCheck %s --check-prefix=LIMIT
#
# OUT: scan_rows n=7 True
# OUT-NEXT: two_buffers n=7 True
# OUT-NEXT: scan_rows n=129 True
# OUT-NEXT: two_buffers n=129 True
#
# MANIFEST: scan_rows version 5 shared 4 * 16 * (n)
# MANIFEST-NEXT: two_buffers version 5 shared ceildiv(256 + 4 * (n), 128) * 128 + 2 * (n)
# LIMIT: kernel 'scan_rows': launch 'scan_rows_kernel': needs 256000 bytes of dynamic shared memory per block at these sizes; the sim device (cuda:sm_90a) allows at most 232448

import tilelang
import tilelang.language as T

n = T.dynamic("n")


# CHECK-LABEL: scan_rows_kernel(
# CHECK: int32_t *[[S:[a-z_0-9]+]] = reinterpret_cast<int32_t *>(smem + 0);  // placed at launch
@T.prim_func
def scan_rows(A: T.Tensor((16, n), "int32"), B: T.Tensor((16, n), "int32")):
    with T.Kernel(1, threads=128):
        rows = T.alloc_shared((16, n), "int32")
        T.copy(A, rows, disable_tma=True)
        T.cumsum(rows, rows, dim=1)
        T.copy(rows, B, disable_tma=True)


# A static buffer first, then two of symbolic shape: the second one's
# offset is computed from n in the kernel.
# CHECK-LABEL: two_buffers_kernel(
# CHECK: float *{{.*}} = reinterpret_cast<float *>(smem + 0);
# CHECK: float *{{.*}} = reinterpret_cast<float *>(smem + 256);  // placed at launch
# CHECK: half *{{.*}} = reinterpret_cast<{{.*}}half *>(smem + ((256 + 4 * [[N:n(_[0-9]+)?]]) + 127) / 128 * 128);  // placed at launch
# HIP-LABEL: two_buffers_kernel(
# HIP: placed at launch
@T.prim_func
def two_buffers(X: T.Tensor((n,), "float32"), Y: T.Tensor((n,), "float16"),
                Z: T.Tensor((n,), "float32")):
    with T.Kernel(1, threads=64):
        bias = T.alloc_shared((64,), "float32")
        xs = T.alloc_shared((n,), "float32")
        ys = T.alloc_shared((n,), "float16")
        for i in T.Parallel(64):
            bias[i] = i * 0.5
        T.copy(X, xs, disable_tma=True)
        T.copy(Y, ys, disable_tma=True)
        for i in T.Parallel(n):
            Z[i] = xs[i] * 2 + ys[i] + bias[i % 64]
