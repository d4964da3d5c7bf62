# The keyword hints each TileLang language module declares, accepted
# forms (dialect-keyword-hints-errors.py has the refused ones): the default
# tilelang.language (the CUDA dialect) and tilelang.cuda.language take the
# CUDA hints, tilelang.rocm.language takes T.gemm's k_pack, and the default
# module still takes k_pack 1 or 2 (older TileLang declared it there; public
# AMD programs pass it through `import tilelang.language as T`). Hints are
# droppable: the kernels run on the CPU target, checked against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python %S/Inputs/dialect_keyword_hints_ref.py %t/out | FileCheck %s
# CHECK-COUNT-3: PASS
# CHECK-NOT: FAIL
import tilelang
import tilelang.cpu.language as Tcpu
import tilelang.cuda.language as Tcuda
import tilelang.language as T
import tilelang.rocm.language as Trocm


@tilelang.jit(out_idx=[-1])
def hinted_copy(N=256):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            s = T.alloc_shared((128,), "float32")
            T.copy(A[bx * 128], s, disable_tma=True, eviction_policy="evict_first",
                   prefer_instruction="cp_async")
            for i in T.Parallel(128, prefer_async=True):
                s[i] = s[i] + 1.0
            T.copy(s, B[bx * 128])

    return main


@tilelang.jit(out_idx=[-1])
def rocm_gemm(M=64, N=64, K=64):
    @Trocm.prim_func
    def main(A: Trocm.Tensor((M, K), "float16"), B: Trocm.Tensor((K, N), "float16"),
             C: Trocm.Tensor((M, N), "float32")):
        with Trocm.Kernel(1, threads=128):
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
def neutral_scale(N=64):
    @Tcpu.prim_func
    def main(A: Tcpu.Tensor((N,), "float32"), B: Tcpu.Tensor((N,), "float32")):
        with Tcpu.Kernel(1, threads=64):
            for i in Tcpu.Parallel(N):
                B[i] = A[i] * 2.0
            for j in Tcuda.unroll(4, unroll_factor=2):
                B[j] = B[j] + 1.0

    return main


hinted_copy()
rocm_gemm()
neutral_scale()
