# tlc-build --autotune: outputs start as NaN, so a configuration that
# leaves elements unwritten cannot become the reference the others are
# checked against; the next one that writes everything does.
# RUN: rm -rf %t && env TLC_CACHE_DIR=%t.cache tlc-build --target=cpu --autotune --autotune-runs=2 -o %t %s 2>&1 | FileCheck %s

# CHECK: autotune: copy_prefix(1000, written=500): rejected: output 'C' has 500 NaN (elements the kernel did not write)
# CHECK-NEXT: autotune: copy_prefix(1000, written=1000): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: copy_prefix(1000, block=64): {{[0-9.]+}} ms
# CHECK-NEXT: autotune: best copy_prefix(1000, {{written=1000|block=64}}): {{[0-9.]+}} ms

import tilelang
import tilelang.language as T


@tilelang.autotune(configs=[dict(written=500), dict(written=1000), dict(block=64)])
@tilelang.jit(out_idx=[-1])
def copy_prefix(N, block=32, written=1000):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                if bx * block + i < written:
                    C[bx * block + i] = A[bx * block + i]
    return main


kernel = copy_prefix(1000)
