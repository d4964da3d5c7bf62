# For padded-gemm-sim.test: upstream's operand-alignment test
# `_padded_layout_gemm` (testing/python/kernel): a [65, 36] shared tile
# annotated with row pitch `pitch` (40: 80-byte rows) feeds T.gemm from
# row 1, which starts on a 16-byte boundary only under the annotation.
import tilelang
import tilelang.language as T


@tilelang.jit
def padded_gemm(pitch=40):

    @T.prim_func
    def main(A: T.Tensor((65, 36), "float16"), B: T.Tensor((32, 32), "float16"),
             C: T.Tensor((64, 32), "float32")):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((65, 36), "float16")
            B_shared = T.alloc_shared((32, 32), "float16")
            C_local = T.alloc_fragment((64, 32), "float32")
            T.annotate_layout(
                {A_shared: T.Layout((65, 36), lambda i, j: i * pitch + j)})
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.gemm(A_shared[1:65, :32], B_shared, C_local, clear_accum=True)
            T.copy(C_local, C)

    return main
