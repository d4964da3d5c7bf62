# `__return_kernel=` is the autotuner's keyword only (autotune-return-kernel.py).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def plain(N, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float16), B: T.Tensor((N,), T.float16)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i]

    return main


kernel = plain(1024, __return_kernel=True)
