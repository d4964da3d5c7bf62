# A helper module that imports tilelang and another local module; its
# kernel factory is called from the script.
import tilelang
import tilelang.language as T
from masks import ALL_ONES, GOLDEN


@tilelang.jit
def mix(N=128):
    @T.prim_func
    def mix_kernel(A: T.Tensor((N,), T.uint64), B: T.Tensor((N,), T.uint64)):
        with T.Kernel(1, threads=N):
            i = T.get_thread_binding(0)
            B[i] = (A[i] * T.uint64(GOLDEN)) & ALL_ONES
    return mix_kernel


SHIFTED = (GOLDEN << 1) & ALL_ONES
