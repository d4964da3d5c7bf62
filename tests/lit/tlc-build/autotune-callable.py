# @tilelang.autotune(configs=FUNCTION): as TileLang's tuner does, tlc calls
# the function with the call's arguments, or with none when it takes none,
# and tunes the configurations it returns.
# RUN: tlc-build --check %s
# RUN: rm -rf %t && env TLC_CACHE_DIR=%t.cache tlc-build --target=cpu --autotune --autotune-runs=2 -o %t %s 2>&1 | FileCheck %s

# CHECK: autotune: built 2 configurations
# CHECK: autotune: scale_a(512, block=32): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: scale_a(512, block=64): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: best scale_a(512, block={{32|64}})
# CHECK-NEXT: autotune: scale_b(512, block=16): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: scale_b(512, block=128): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: best scale_b(512, block={{16|128}})

import tilelang
import tilelang.language as T


def no_arg_configs():
    return [dict(block=b) for b in (32, 64)]


def sized_configs(N):
    return [dict(block=b) for b in (16, N // 4)]


@tilelang.autotune(configs=no_arg_configs)
@tilelang.jit(out_idx=[-1])
def scale_a(N, block=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = A[bx * block + i] * 2
    return main


@tilelang.autotune(configs=sized_configs)
@tilelang.jit(out_idx=[-1])
def scale_b(N, block=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = A[bx * block + i] * 3
    return main


ka = scale_a(512)
kb = scale_b(512)
