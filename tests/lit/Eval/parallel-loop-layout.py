# T.Parallel(..., loop_layout=F) is honoured: the T.Fragment F places the
# loop's iterations on threads, and the fragment the loop writes at its
# variables gets F (TileLang prefers the annotation to every layout it
# would derive). Here thread 63 - i runs row i, its columns in reverse
# register order; the default partition would spread a row over 4
# threads. The CPU target against NumPy; the CUDA code shows the mapping.
# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# IR: tile.annotate_layout %frag layout(#tile.fragment<[64, 16], thread = "-i + 63", index = ["-j + 15"]>)
# IR: tile.parallel (%i, %j) in [64, 16] attributes {loop_layout = #tile.fragment<[64, 16], thread = "-i + 63", index = ["-j + 15"]>, tile.loop_layout_given}
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CUDA: float acc[16];
# CUDA: // T.Parallel  parallel-loop-layout.py:[[# @LINE + 24]]:{{[0-9]+}}
# CUDA: for (int r = 0; r < 16; ++r) {
# CUDA-NEXT: const int i0 = tid * -1 + 63;
# CUDA-NEXT: const int i1 = r * -1 + 15;
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; x = np.load('%t/out/inputs/X.npy'); y = np.load('%t/out/Y.npy'); print('scaled', np.array_equal(y, (x * np.float32(2) + np.arange(16, dtype=np.float32)).astype(np.float32)))" | FileCheck %s
# CHECK: scaled True
import tilelang
import tilelang.language as T


def rows_reversed(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: rows - 1 - i,
                      forward_index_fn=lambda i, j: cols - 1 - j)


@tilelang.jit
def scaled(M, N=16, block_M=64):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, block_M), threads=block_M) as bx:
            acc = T.alloc_fragment((block_M, N), T.float32)
            for i, j in T.Parallel(block_M, N, loop_layout=rows_reversed(block_M, N)):
                acc[i, j] = X[bx * block_M + i, j] * 2.0 + j
            T.copy(acc, Y[bx * block_M, 0])

    return main


scaled(100)
