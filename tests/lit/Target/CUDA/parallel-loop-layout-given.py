# T.Parallel(..., loop_layout=F) places the iterations on the CUDA and HIP
# targets also where the loop writes a fragment at indices that are not its
# variables in order: `t[j, i] = ...` into a [16, 64] fragment under
# T.Parallel(64, 16, loop_layout=F) with F = thread 63 - i, register 15 - j.
# Layout inference completed t's layout from F; the GPU fragment
# assignment ignored F and gave t its default partition (4 consecutive
# elements of a row per thread), so thread 0 ran iterations (0..3, 0) and
# not row i = 63. Now t is F transposed (the evaluator marks the loop
# `tile.loop_layout_given`), and the printed loop runs iteration (i, j) on
# thread 63 - i, register 15 - j. A loop with F that touches no fragment
# (global to global) ran round-robin over the threads (thread t, iteration
# t + 64 r); it follows F too (tile.partition = "layout"). CPU target
# against NumPy here; CUDA against the CPU target on sim in parallel-loop-layout-given-sim.test.
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# IR: tile.parallel (%i, %j) in [64, 16] attributes {loop_layout = #tile.fragment<[64, 16], thread = "-i + 63", index = ["-j + 15"]>, tile.loop_layout_given}
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=CUDA
# CUDA: float t[16];
# CUDA: // T.Parallel  parallel-loop-layout-given.py:[[# @LINE + 30]]:{{[0-9]+}}
# CUDA: for (int r = 0; r < 16; ++r) {
# CUDA-NEXT: const int i0 = r * -1 + 15;
# CUDA-NEXT: const int i1 = tid * -1 + 63;
# CUDA: // T.Parallel  parallel-loop-layout-given.py:[[# @LINE + 30]]:{{[0-9]+}}
# CUDA: for (int r_{{[0-9]+}} = 0; r_{{[0-9]+}} < 16; ++r_{{[0-9]+}}) {
# CUDA-NEXT: const int [[I0:i0_[0-9]+]] = tid * -1 + 63;
# CUDA-NEXT: const int [[I1:i1_[0-9]+]] = r_{{[0-9]+}} * -1 + 15;
# CUDA: Z[([[I0]]) * 16 + [[I1]]] =
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; x = np.load('%t/out/inputs/X.npy').astype(np.float64); y = np.load('%t/out/Y.npy'); z = np.load('%t/out/Z.npy'); print('transposed', np.allclose(y, (x * 2 + np.arange(16)).T, rtol=1e-6), 'tripled', np.allclose(z, x * 3, rtol=1e-6))" | FileCheck %s
# CHECK: transposed True tripled True
import tilelang
import tilelang.language as T


def rows_reversed(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: rows - 1 - i,
                      forward_index_fn=lambda i, j: cols - 1 - j)


@tilelang.jit
def transposed(M=64, N=16):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Y: T.Tensor((N, M), T.float32),
             Z: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=M) as _:
            t = T.alloc_fragment((N, M), T.float32)
            for i, j in T.Parallel(M, N, loop_layout=rows_reversed(M, N)):
                t[j, i] = X[i, j] * 2.0 + j
            T.copy(t, Y)
            # No fragment: F places the iterations itself.
            for i, j in T.Parallel(M, N, loop_layout=rows_reversed(M, N)):
                Z[i, j] = X[i, j] * 3.0

    return main
