# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t %s
# RUN: not tlc-run %t 2>&1 | FileCheck %s --check-prefix=CPU
# A T.Parallel variable running past a fragment's extent (a [heads]
# fragment filled for i in T.Parallel(block_M) with heads < block_M, as a
# public attention-sink example does): the access leaves the fragment, so
# the CUDA target reports it at the access (before, a layout error named a
# later loop), and the CPU target stops there at run time.
# CHECK: fragment-past-extent.py:[[# @LINE + 18]]:{{[0-9]+}}: error: T.Parallel variable 0 runs to 127 past dimension 0 of the fragment (extent 32): the access leaves it
# CPU: fragment-past-extent.py:[[# @LINE + 17]]
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
