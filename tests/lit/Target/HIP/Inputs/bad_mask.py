import tilelang
import tilelang.language as T


@tilelang.jit
def masked(X, threads=64):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    Out = T.empty((N,), T.int32)
    with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
        tx = T.get_thread_binding()
        Out[bx * threads + tx] = T.shfl_xor(X[bx * threads + tx], 1, mask=0x0000FFFF)
    return Out


kernel = masked.compile(N=128)
