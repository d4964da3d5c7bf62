# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s > %t.cu
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %s > %t.cu.json
# RUN: %python %S/Inputs/exchange_banks.py %t.cu %t.cu.json 128 cuda | FileCheck %s --check-prefix=SM80
# The exchange of a T.copy between two fragments the gemms lay out
# differently (C1 in the full-warp accumulator layout, C2 in FullRow's):
# C1's registers are stored into a row-major tile and C2's loaded from it.
# The hint's degrees against Inputs/exchange_banks.py, which runs the
# printed exchange code for every thread, on sm_80 (on sm_90a and on HIP
# the two gemms leave C1 and C2 in one layout: no exchange). By hand: the
# stores are the mma.C rows of 64 floats (tid >> 2 picks 8 rows 256 bytes
# apart, tid & 3 four column pairs), 8-way; C2's FullRow loads the same
# way, 8-way.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def copy_between_layouts(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C1 = T.alloc_fragment((M, N), accum_dtype)
            C2 = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C1)
            T.gemm(A_shared, B_shared, C1)
            T.copy(C1, C2)
            T.gemm(A_shared, B_shared, C2, policy=T.GemmWarpPolicy.FullRow)
            T.copy(C2, C[0, 0])

    return main


copy_between_layouts()

# SM80: C1: stores 8-way bank conflict, loads 8-way bank conflict: MATCH
# SM80-NOT: MISMATCH
