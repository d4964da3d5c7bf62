# tlc-build --autotune FILE builds every configuration of an autotuned
# kernel (one child build each, at once) and runs them on the target's
# device: the same random inputs for all, each output checked against the
# first configuration's (a configuration computing something else is
# rejected, one that does not build is reported), the fastest printed.
# RUN: rm -rf %t && env TLC_CACHE_DIR=%t.cache tlc-build --target=cpu --autotune --autotune-runs=3 -o %t %s 2>%t.err | FileCheck %s
# RUN: ls %t | FileCheck %s --check-prefix=DIRS
# RUN: FileCheck %s --check-prefix=ERR < %t.err
# RUN: not tlc-build --target=cpu --autotune %S/jobs.py 2>&1 | FileCheck %s --check-prefix=NONE

# CHECK-DAG: wrote {{.*}}config-0/add.so
# CHECK-DAG: wrote {{.*}}config-1/add.so
# CHECK-DAG: wrote {{.*}}config-2/add.so
# CHECK: autotune: add(1000, block=32): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: add(1000, block=64): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: add(1000, block=128, bias=0.5): rejected: output 'C': 1000 of 1000 elements outside rtol/atol, 0 NaN
# CHECK-NEXT: autotune: add configuration 3: build failed: {{.*}}error
# CHECK-NEXT: autotune: best add(1000, block={{32|64}}): {{[0-9.]+}} ms ({{.*}}config-{{0|1}})
# DIRS: config-0
# DIRS: config-2
# ERR: no_such_dtype
# NONE: error: --autotune: {{.*}}jobs.py has no traced @tilelang.autotune(configs=[...]) kernel

import tilelang
import tilelang.language as T


def configs():
    return [dict(block=32), dict(block=64), dict(block=128, bias=0.5), dict(block=64, dtype="no_such_dtype")]


@tilelang.autotune(configs=configs(), warmup=3, rep=10)
@tilelang.jit(out_idx=[-1])
def add(N, block=32, bias=0.0, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype), C: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = A[bx * block + i] + B[bx * block + i] + bias
    return main


kernel = add(1000)
