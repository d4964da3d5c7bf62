"""The product of fp8_gemm.py summed one product at a time in an
accumulator that keeps 14 significand bits (each sum rounded to nearest by
its float32 bits: add half of the 10 dropped bits, clear them), the
tensor-core accumulation fp8-accumulation.test models; `fault=1` leaves out
the last product (a planted fault)."""
import tilelang
import tilelang.language as T


@tilelang.jit
def fp8_gemm(fault=0):

    @T.prim_func
    def main(A: T.Tensor((64, 256), "float8_e4m3fn"),
             B: T.Tensor((64, 256), "float8_e4m3fn"),
             C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128) as _:
            acc = T.alloc_fragment((64, 64), "float32")
            T.clear(acc)
            for k in T.serial(256 - fault):
                for i, j in T.Parallel(64, 64):
                    s = acc[i, j] + T.Cast("float32", A[i, k]) * T.Cast("float32", B[j, k])
                    bits = (T.reinterpret(T.uint32, s) + T.uint32(0x200)) & T.uint32(0xFFFFFC00)
                    acc[i, j] = T.reinterpret(T.float32, bits)
            T.copy(acc, C)

    return main


fp8_gemm()
