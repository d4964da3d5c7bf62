# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --emit=tile --kernel=attention_scales %s 2>&1 | FileCheck %s
# A factory no call site binds is checked as its default instance, its
# int parameters symbols. Float arithmetic on them, `(1.0 / dim) ** 0.5`
# as attention kernels scale their scores, is what the kernel computes from
# the parameter at run time: tlc evaluates it in IR, with no warning. A
# value that really comes from outside TileLang keeps its warning.
import tilelang
import tilelang.language as T
import outside_helpers


@tilelang.jit
def attention_scales(batch, heads, seq_len, dim, block_M=64):
    sm_scale = (1.0 / dim)**0.5
    log2_scale = sm_scale * 1.44269504
    half_width = dim / 2 - 0.5
    shape = [batch, seq_len, heads, dim]

    @T.prim_func
    def main(Q: T.Tensor(shape, T.float16), O: T.Tensor(shape, T.float32)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=128) as (bx, by, bz):
            q = T.alloc_fragment((block_M, dim), T.float32)
            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], q)
            for i, j in T.Parallel(block_M, dim):
                q[i, j] = q[i, j] * log2_scale + half_width
            T.copy(q, O[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


# CHECK-LABEL: tile.func @attention_scales
# CHECK-NOT: tlc.unknown_value
# CHECK: arith.sitofp
# CHECK: arith.divf
# CHECK: math.powf
# CHECK: arith.mulf
# CHECK-NOT: tlc.unknown_value


@tilelang.jit
def outside_scale(n, block=128):
    factor = outside_helpers.scale_for(n)

    @T.prim_func
    def main(X: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                # expected-warning@+1 {{tlc cannot evaluate}}
                X[bx * block + i] = X[bx * block + i] * factor

    return main
