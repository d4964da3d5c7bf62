import tilelang
import tilelang.language as T


@tilelang.jit
def idx0():
    @T.prim_func
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((), "float32")):
        with T.Kernel(1, threads=32):
            s = T.alloc_fragment((), "float32")
            s[0] = A[0]
            B[()] = s[()]
    return main
