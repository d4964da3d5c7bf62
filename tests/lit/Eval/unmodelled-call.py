# A call, inside a kernel, of an object tlc does not model (here the methods
# of tilelang.intrinsics' sparse mma emitter; the mma.sync, MFMA, wgmma and
# tcgen05 emitters are modelled: Eval/intrinsics-emitter.py,
# intrinsics-emitter-mfma.py, intrinsics-emitter-atoms.py) is a
# warning naming it in --check, and an error at the call when building for
# any target: without what those calls do the kernel would never multiply.
# The file's other kernel still builds. A call whose unknown result is used
# is left to the use, which says what it assumed and keeps the kernel from
# being built where it must (Eval/unknown-condition.py).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# RUN: rm -rf %t && not tlc-build --target=cpu -o %t/cpu %s 2>&1 | FileCheck %s --check-prefix=BUILD --implicit-check-not=error:
# RUN: ls %t/cpu | FileCheck %s --check-prefix=BUILT
# RUN: not tlc-build --emit=cuda --kernel=warp_gemm %s 2>&1 | FileCheck %s --check-prefix=BUILD --implicit-check-not=error:

import tilelang
import tilelang.language as T
from tilelang.intrinsics.mma_sp_macro_generator import SparseTensorCoreIntrinEmitter


@tilelang.jit
def warp_gemm(M=64, N=64, K=64):
    emitter = SparseTensorCoreIntrinEmitter(
        a_dtype="float16", b_dtype="float16", accum_dtype="float32",
        a_transposed=False, b_transposed=True, block_row_warps=2,
        block_col_warps=2, warp_row_tiles=32, warp_col_tiles=32, chunk=K)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((N, K), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((M, K), "float16")
            B_shared = T.alloc_shared((N, K), "float16")
            A_local = T.alloc_local((16,), "float16")
            B_local = T.alloc_local((16,), "float16")
            C_local = T.alloc_local((32,), "float32")
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            for i in T.serial(32):
                C_local[i] = 0
            for ki in T.serial(K // 16):
                # CHECK: unmodelled-call.py:[[@LINE+2]]:17: warning: tlc does not model 'emitter.ldmatrix_a' (an object from outside TileLang): what this call does to the kernel is not analysed, and no target can build the kernel while it is there
                # BUILD: unmodelled-call.py:[[@LINE+1]]:17: error: cannot build this kernel: it calls 'emitter.ldmatrix_a', an object from outside TileLang that tlc does not model
                emitter.ldmatrix_a(A_local, A_shared, ki)
                # CHECK: unmodelled-call.py:[[@LINE+2]]:17: warning: tlc does not model 'emitter.ldmatrix_b'
                # BUILD: unmodelled-call.py:[[@LINE+1]]:17: error: cannot build this kernel: it calls 'emitter.ldmatrix_b'
                emitter.ldmatrix_b(B_local, B_shared, ki)
                # CHECK: unmodelled-call.py:[[@LINE+2]]:17: warning: tlc does not model 'emitter.mfma'
                # BUILD: unmodelled-call.py:[[@LINE+1]]:17: error: cannot build this kernel: it calls 'emitter.mfma'
                emitter.mfma(A_local, B_local, C_local)
            # A discarded result is flagged even without arguments.
            # CHECK: unmodelled-call.py:[[@LINE+2]]:13: warning: tlc does not model 'emitter.get_thread_binding'
            # BUILD: unmodelled-call.py:[[@LINE+1]]:13: error: cannot build this kernel: it calls 'emitter.get_thread_binding'
            emitter.get_thread_binding()
            # CHECK: unmodelled-call.py:[[@LINE+2]]:13: warning: tlc does not model 'emitter.stmatrix'
            # BUILD: unmodelled-call.py:[[@LINE+1]]:13: error: cannot build this kernel: it calls 'emitter.stmatrix'
            emitter.stmatrix(C_local, C)
            # A used result is left to the use (none here): no warning.
            n = emitter.warp_size(C_local)

    return main


@tilelang.jit
def copy_rows(M=64, N=64):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, N):
                B[i, j] = A[i, j]

    return main


# BUILT: copy_rows
