# A global buffer whose extent divides a dynamic symbol (`T.empty((M,
# T.ceildiv(N, block)))`, the scales of DeepSeek-V4's block-wise
# quantisation): the CUDA and HIP targets write the extent out as a C
# expression of the kernel's symbols, floor divisions included. They used
# to refuse it ("needs extent 'ceildiv(N, 32)' to be an expression of the
# kernel's symbols"): the expression called the CPU runtime's helpers. The
# CPU target against a Python oracle at a ragged N; the CUDA code on the sim
# device against the CPU target.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s --check-prefix=CUDA
# CUDA: sums[{{.*}}(-N) / 32{{.*}}] = {{.*}};
# RUN: tlc-build --emit=hip --target=hip:gfx942 %s > /dev/null
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu -DM=48 -DN=80 --seed 2 --save %t/out > /dev/null
# RUN: %python %S/Inputs/extent_ceildiv_check.py %t/out | FileCheck %s
# CHECK: block row sums True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim -DM=48 -DN=80 --seed 2 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify sums: PASS

import tilelang
import tilelang.language as T


@tilelang.jit
def block_row_sums(x, block=32):
    M = T.dynamic("M")
    N = T.dynamic("N")
    x: T.Tensor[(M, N), T.float32]
    sums = T.empty((M, T.ceildiv(N, block)), T.float32)
    with T.Kernel(T.ceildiv(M, 16), T.ceildiv(N, block), threads=128) as (bx, by):
        x_shared = T.alloc_shared((16, block), T.float32)
        x_local = T.alloc_fragment((16, block), T.float32)
        acc = T.alloc_fragment((16,), T.float32)
        T.copy(x[bx * 16, by * block], x_shared)
        T.copy(x_shared, x_local)
        T.reduce_sum(x_local, acc, dim=1)
        for i in T.Parallel(16):
            sums[bx * 16 + i, by] = acc[i]
    return sums
