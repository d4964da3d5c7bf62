import tilelang
import tilelang.language as T


@tilelang.jit
def reduce_rows(R=24, C=40):

    @T.prim_func
    def main(A: T.Tensor((R, C), "float16"), B: T.Tensor((R,), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_fragment((R, C), "float16")
            s = T.alloc_fragment((R,), "float32")
            T.copy(A, a)
            T.reduce_sum(a, s, dim=1)
            T.copy(s, B)

    return main
