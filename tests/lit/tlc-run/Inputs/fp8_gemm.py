"""C = A B^T of float8_e4m3fn A [64, 256] and B [64, 256] into float32 with
T.gemm (tensor cores on the GPU targets) for fp8-accumulation.test;
`fault=1` leaves out the last 64-wide k block (a planted fault)."""
import tilelang
import tilelang.language as T


@tilelang.jit
def fp8_gemm(fault=0):

    @T.prim_func
    def main(A: T.Tensor((64, 256), "float8_e4m3fn"),
             B: T.Tensor((64, 256), "float8_e4m3fn"),
             C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((64, 64), "float8_e4m3fn")
            B_s = T.alloc_shared((64, 64), "float8_e4m3fn")
            acc = T.alloc_fragment((64, 64), "float32")
            T.clear(acc)
            for k in T.serial(4 - fault):
                T.copy(A[:, k * 64:(k + 1) * 64], A_s)
                T.copy(B[:, k * 64:(k + 1) * 64], B_s)
                T.gemm(A_s, B_s, acc, transpose_B=True)
            T.copy(acc, C)

    return main


fp8_gemm()
