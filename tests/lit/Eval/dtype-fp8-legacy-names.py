# TVM's earlier fp8 spellings are dtypes: "e4m3_float8" is the finite-only
# e4m3 format (float8_e4m3fn, max 448) and "e5m2_float8" the e5m2 format
# with infinities (float8_e5m2).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --target=cuda:sm_90a %s 2>/dev/null | FileCheck %s

import tilelang
import tilelang.language as T


@tilelang.jit
def fp8_legacy(M=64, in_dtype="e4m3_float8", out_dtype="e5m2_float8"):

    @T.prim_func
    def main(A: T.Tensor((M, M), in_dtype), B: T.Tensor((M, M), out_dtype),
             C: T.Tensor((M, M), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((M, M), in_dtype)
            T.copy(A, A_shared)
            for i, j in T.Parallel(M, M):
                C[i, j] = T.cast(A_shared[i, j], "float32") + T.cast(B[i, j], "float32")

    return main


fp8_legacy()


# CHECK: tile.func @fp8_legacy(%A: !tile.buffer<[64, 64], f8E4M3FN, global>, %B: !tile.buffer<[64, 64], f8E5M2, global>
