# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s
# RUN: rm -rf %t && not tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s
# A T.Parallel variable running past a fragment's extent (a [heads]
# fragment filled for i in T.Parallel(block_M) with heads < block_M, as a
# public attention-sink example does): the access leaves the fragment, so
# every target reports it at the access (tile-check-shared-bounds, before
# any lowering; before that check covered fragments, the CUDA target said
# "T.Parallel variable 0 runs to 127 past dimension 0 of the fragment" and
# the CPU target stopped there at run time).
# CHECK: fragment-past-extent.py:[[# @LINE + 18]]:17: error: write outside 'sinks': the index of dimension 0 takes the values 0 to 127 here, but the dimension has 32 elements
# CHECK: fragment-past-extent.py:[[# @LINE + 19]]:17: error: read outside 'sinks'
import tilelang
import tilelang.language as T


@tilelang.jit
def sink_rows(M=256, heads=32, block_M=128):
    dtype = "float32"

    @T.prim_func
    def main(Sinks: T.Tensor((heads,), dtype), X: T.Tensor((M,), dtype),
             Y: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), heads, threads=128) as (bx, by):
            x = T.alloc_fragment((block_M,), dtype)
            sinks = T.alloc_fragment((heads,), dtype)
            T.copy(X[bx * block_M], x)
            for i in T.Parallel(block_M):
                sinks[i] = Sinks[by]
            for i in T.Parallel(block_M):
                x[i] += sinks[i]
            T.copy(x, Y[bx * block_M])

    return main
