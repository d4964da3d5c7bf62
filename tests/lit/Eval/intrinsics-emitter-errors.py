# What tlc's model of TensorCoreIntrinEmitter refuses, with TileLang's
# exception types: float32 (tf32) inputs, which the model does not round
# as the tensor cores do, and operands in fragments rather than
# T.alloc_local buffers (TileLang indexes those with k_inner). Each is
# reported at the program's line that entered the model.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=error:

import tilelang
import tilelang.language as T
from tilelang.intrinsics import TensorCoreIntrinEmitter


@tilelang.jit
def tf32_gemm(M=64):
    # CHECK: intrinsics-emitter-errors.py:[[@LINE+1]]:15: error: ValueError: tlc models TileLang's mma emitter for 16- and 8-bit inputs (float16, bfloat16, int8, uint8, float8); got float32 (raised in module 'tilelang.intrinsics')
    emitter = TensorCoreIntrinEmitter(a_dtype="float32", b_dtype="float32",
                                      accum_dtype="float32", warp_row_tiles=16,
                                      warp_col_tiles=16)

    @T.prim_func
    def main(A: T.Tensor((M, M), "float32")):
        with T.Kernel(1, threads=128) as bx:
            T.clear(A)

    return main


@tilelang.jit
def fragment_operands(M=64):
    emitter = TensorCoreIntrinEmitter(a_dtype="float16", b_dtype="float16",
                                      accum_dtype="float32", b_transposed=True,
                                      block_row_warps=1, block_col_warps=1,
                                      warp_row_tiles=16, warp_col_tiles=16)

    @T.prim_func
    def main(A: T.Tensor((16, 16), "float16")):
        with T.Kernel(1, threads=32) as bx:
            A_shared = T.alloc_shared((16, 16), "float16")
            A_frag = T.alloc_fragment((16, 16), "float16")
            T.copy(A, A_shared)
            # CHECK: intrinsics-emitter-errors.py:[[@LINE+1]]:13: error: ValueError: tlc models the mma emitter on T.alloc_local buffers; A_local_buf is in 'local.fragment' (raised in module 'tilelang.intrinsics')
            emitter.ldmatrix_a(A_frag, A_shared, 0)

    return main


tf32_gemm()
fragment_operands()
