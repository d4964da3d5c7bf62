# T.annotate_layout({frag: T.Fragment(...)}) on the CUDA and HIP targets:
# the annotated element -> (thread, register) map is the one the generated
# code uses. Here each row lives in one thread, in reverse order (thread t
# holds row block_M - 1 - t, its columns in reverse register order), so
# the per-row sum of squares `ssq[i] += x[i, j] ** 2` needs no exchange
# between threads; with any other layout each thread would sum only its
# own columns. The CPU target against NumPy at a ragged size; the CUDA and
# HIP targets against the CPU target on sim (tests/sim/run_sim.py
# --breadth).
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python %S/Inputs/fragment_annotated_check.py %t/out | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=HIP
# CHECK: rms True
#
# The annotated map: 64 registers per thread, row 127 - tid, column 63 - r.
# CUDA: float rows[64];  // fragment · 64 regs/thread
# CUDA-NEXT: // T.alloc [128] local.fragment
# CUDA-NEXT: float ssq[1];  // fragment row · 1 reg/thread
# CUDA: // T.copy  fragment-annotated.py:[[# @LINE + 27]]:{{[0-9]+}}
# CUDA: const int i0{{(_[0-9]+)?}} = tid * -1 + 127;
# CUDA-NEXT: const int i1{{(_[0-9]+)?}} = r{{(_[0-9]+)?}} * -1 + 63;
# The sum of squares stays in the thread: one register, no shuffle.
# CUDA: // T.Parallel  fragment-annotated.py:[[# @LINE + 25]]:{{[0-9]+}}
# CUDA: ssq[0] = t_{{[0-9]+}};
# CUDA-NOT: shuffle
# CUDA: // T.Parallel
# HIP: float rows[64];  // fragment · 64 regs/thread
# HIP: float ssq[1];  // fragment row · 1 reg/thread
import tilelang
import tilelang.language as T


def reversed_rows(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: rows - 1 - i,
                      forward_index_fn=lambda i, j: cols - 1 - j)


@tilelang.jit
def rms(M, N=64, block_M=128, eps=1e-6):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=block_M) as bx:
            rows = T.alloc_fragment((block_M, N), "float32")
            ssq = T.alloc_fragment((block_M,), "float32")
            T.annotate_layout({rows: reversed_rows(block_M, N)})
            T.copy(X[bx * block_M, 0], rows)
            T.clear(ssq)
            for i, j in T.Parallel(block_M, N):
                ssq[i] += rows[i, j] * rows[i, j]
            for i, j in T.Parallel(block_M, N):
                rows[i, j] = rows[i, j] * T.rsqrt(ssq[i] / N + eps)
            T.copy(rows, Y[bx * block_M, 0])

    return main


rms(200)
