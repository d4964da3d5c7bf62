# T.tma_scatter4 on the CPU target (the store that mirrors T.tma_gather4;
# newer TileLang's TMA descriptor tests gather four rows and scatter them
# back): row i of the [4, W] shared tile goes to row Rows[i] of the 2-D
# tensor at columns col .. col + W, a row outside the tensor is not
# written (a TMA store clips its box). Checked against NumPy. The CUDA
# target refuses it on sm_90a (tile::scatter4 is sm_100a).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/tma_scatter4_check.py inputs %t/in
# RUN: tlc-run %t/cpu --inputs %t/in --save %t/out > /dev/null
# RUN: %python %S/Inputs/tma_scatter4_check.py check %t/out | FileCheck %s
# CHECK: scatter4: equal (3 rows inside, 1 outside)
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
# CUDA: error: T.tma_scatter4 is cp.async.bulk.tensor.2d with .tile::scatter4, which needs sm_100a (Blackwell); building for sm_90a, which has no TMA scatter
import tilelang
import tilelang.language as T


@tilelang.jit
def scatter4(M=64, N=64, W=32, col=16):

    @T.prim_func
    def main(Rows: T.Tensor((4,), "int32"), Src: T.Tensor((4, W), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128):
            tile = T.alloc_shared((4, W), "float32")
            T.copy(Src, tile)
            if T.shuffle_elect(128):
                T.tma_scatter4(tile, Out, col, [Rows[0], Rows[1], Rows[2], Rows[3]])
                T.tma_store_arrive()
            T.tma_store_wait(0, read=False)

    return main


if __name__ == "__main__":
    scatter4()
