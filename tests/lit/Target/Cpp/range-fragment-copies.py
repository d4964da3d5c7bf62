# A fragment two warpgroups write under their own thread range holds one
# copy per warpgroup (each thread's registers), as on the GPU: warpgroup 0
# computes A[:64] @ B into acc, warpgroup 1 A[64:] @ B into its own acc,
# and each stores its copy. The CPU target kept one block-wide array, so
# warpgroup 1's gemm overwrote warpgroup 0's result before its store:
# rows 0..63 of C held A[64:] @ B. tile-split-range-fragments gives acc
# one allocation per range. The ping-pong form (-D pingpong=True) sums
# the two copies block-wide in csum, whose two copies are stored by their
# own ranges; the block-wide sum runs once per copy (csum of warpgroup g
# sums warpgroup g's products). Checked against float64 NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/split %s > /dev/null 2>&1
# RUN: tlc-build --target=cpu -D pingpong=True -o %t/pp %s > /dev/null 2>&1
# RUN: tlc-run %t/split --seed 3 --save %t/out-split > /dev/null
# RUN: tlc-run %t/pp --seed 4 --save %t/out-pp > /dev/null
# RUN: %python -c "import numpy as np, sys; d = sys.argv[1]; a = np.load(d + '/inputs/A.npy').astype(np.float64); b = np.load(d + '/inputs/B.npy').astype(np.float64); c = np.load(d + '/C.npy'); print('rows', [bool(np.allclose(c[r:r + 64], a[r:r + 64] @ b, rtol=1e-4, atol=1e-3)) for r in (0, 64)])" %t/out-split | FileCheck %s
# RUN: %python -c "import numpy as np, sys; d = sys.argv[1]; a = np.load(d + '/inputs/A.npy').astype(np.float64); b = np.load(d + '/inputs/B.npy').astype(np.float64); c = np.load(d + '/C.npy'); print('rows', [bool(np.allclose(c[r:r + 64], 4 * (a[r:r + 64] @ b), rtol=1e-4, atol=1e-3)) for r in (0, 64)])" %t/out-pp | FileCheck %s
# CHECK: rows [True, True]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def split(M=64, N=64, K=64, pingpong=False):

    @T.prim_func
    def main(A: T.Tensor((2 * M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((2 * M, N), "float32")):
        with T.Kernel(1, threads=256) as _:
            tx = T.get_thread_binding()
            A0 = T.alloc_shared((M, K), "float16")
            A1 = T.alloc_shared((M, K), "float16")
            B_sh = T.alloc_shared((K, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            csum = T.alloc_fragment((M, N), "float32")
            T.copy(A[0, 0], A0)
            T.copy(A[M, 0], A1)
            T.copy(B, B_sh)
            if pingpong:
                T.clear(csum)
                # Four rounds: each range's gemm, then the block-wide sum.
                for _k in T.Pipelined(4, order=[0, 1, 2], stage=[0, 0, 0]):
                    if tx // 128 == 0:
                        T.gemm(A0, B_sh, acc, clear_accum=True)
                    if tx // 128 == 1:
                        T.gemm(A1, B_sh, acc, clear_accum=True)
                    for i, j in T.Parallel(M, N):
                        csum[i, j] = csum[i, j] + acc[i, j]
                if tx // 128 == 0:
                    T.copy(csum, C[0, 0])
                if tx // 128 == 1:
                    T.copy(csum, C[M, 0])
            else:
                if tx // 128 == 0:
                    T.gemm(A0, B_sh, acc, clear_accum=True)
                if tx // 128 == 1:
                    T.gemm(A1, B_sh, acc, clear_accum=True)
                if tx // 128 == 0:
                    T.copy(acc, C[0, 0])
                if tx // 128 == 1:
                    T.copy(acc, C[M, 0])

    return main
