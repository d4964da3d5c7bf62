# TileLang's autotuned call takes `__return_kernel=` for itself (its
# AutoTuneImpl pops it before the factory sees the arguments): the call
# instantiates the factory as any other (before: "TypeError: copy_kernel()
# got an unexpected keyword argument '__return_kernel'", upstream
# test_pass_configs_tuning.py). A factory that is not autotuned still
# raises that TypeError.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @copy_kernel(%A: !tile.buffer<[1024], f16, global>, %B: !tile.buffer<[1024], f16, global>)
# CHECK: tile.kernel (%bx) grid [16] threads [64]
# RUN: not tlc-build --check --no-source-lines %S/Inputs/return-kernel-not-autotuned.py 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: error: TypeError: plain() got an unexpected keyword argument '__return_kernel'
import tilelang
import tilelang.language as T


@tilelang.autotune(configs=[{"block": 64}, {"block": 128}])
@tilelang.jit(out_idx=[-1])
def copy_kernel(N, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float16), B: T.Tensor((N,), T.float16)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i]

    return main


kernel = copy_kernel(1024, __return_kernel=True)
