# TileLang's per-backend language modules (tilelang.cpu.language,
# tilelang.rocm.language, tilelang.cuda.language, tilelang.language.common,
# imported whole or `from tilelang.X import language`) are the tile language
# T: kernels written with them are found, checked and built (they were
# skipped without a word: `@Tcpu.prim_func` was no prim_func). Each kernel's
# tile IR is listed; the CPU dialect's kernel runs on the CPU target against
# Python (B = 2 A).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu --kernel=cpu_double -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py double tlc-run %t/art %t | FileCheck %s --check-prefix=OUT
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel=cuda_copy %s | FileCheck %s --check-prefix=CUDA
# CHECK-DAG: tile.func @cuda_copy(
# CHECK-DAG: tile.func @cpu_double(
# CHECK-DAG: tile.func @rocm_gemm(
# CHECK-DAG: tile.func @common_fill(
# OUT: double ok
# CUDA: cuda_copy_kernel(
import tilelang
import tilelang.cpu.language as Tcpu
import tilelang.language.common as C
import tilelang.rocm.language as Trocm
from tilelang.cuda import language as T


@tilelang.jit(out_idx=[-1])
def cuda_copy(N=256):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            s = T.alloc_shared((128,), "float32")
            T.copy(A[bx * 128], s, disable_tma=True, eviction_policy="evict_first")
            T.copy(s, B[bx * 128])

    return main


@tilelang.jit(out_idx=[-1])
def cpu_double(N=128):

    @Tcpu.prim_func
    def main(A: Tcpu.Tensor((N,), "float32"), B: Tcpu.Tensor((N,), "float32")):
        with Tcpu.Kernel(1):
            for i in Tcpu.serial(N):
                B[i] = A[i] * 2.0

    return main


@tilelang.jit(out_idx=[-1])
def rocm_gemm(M=64, N=64, K=64):

    @Trocm.prim_func
    def main(A: Trocm.Tensor((M, K), "float16"), B: Trocm.Tensor((K, N), "float16"),
             C: Trocm.Tensor((M, N), "float32")):
        with Trocm.Kernel(1, threads=256):
            a = Trocm.alloc_shared((M, K), "float16")
            b = Trocm.alloc_shared((K, N), "float16")
            c = Trocm.alloc_fragment((M, N), "float32")
            Trocm.copy(A, a)
            Trocm.copy(B, b)
            Trocm.clear(c)
            Trocm.gemm(a, b, c, k_pack=2)
            Trocm.copy(c, C)

    return main


@tilelang.jit(out_idx=[-1])
def common_fill(N=64):

    @C.prim_func
    def main(B: C.Tensor((N,), "float32")):
        with C.Kernel(1, threads=64):
            for i in C.Parallel(N):
                B[i] = C.float32(i)

    return main
