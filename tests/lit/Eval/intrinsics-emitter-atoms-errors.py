# What tlc's model of the atom-level wgmma / tcgen05 emitters refuses: an
# operand of another type than the emitter was made for, an accumulator
# whose shape is not the emitter's block tile, a descriptor computed before
# the operand's shared layout was assigned (TileLang's own assertion), and
# a gemm shape no tcgen05.mma atom fits. Each is reported at the program's
# line that entered the model; intrinsics-emitter-atoms.py has the valid
# forms, which --check accepts without a diagnostic.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=error:
import tilelang
import tilelang.language as T
from tilelang.intrinsics import WGMMATensorCoreIntrinEmitter, TCGEN05TensorCoreIntrinEmitter
from tilelang.layout import make_linear_layout


def emitter():
    return WGMMATensorCoreIntrinEmitter(a_dtype=T.float16, b_dtype=T.float16,
                                        accum_dtype=T.float32, block_row_warps=4,
                                        block_col_warps=1, warp_row_tiles=16,
                                        warp_col_tiles=64, chunk=32)


@tilelang.jit
def wrong_operand_type():
    emi = emitter()

    @T.prim_func
    def main(A: T.Tensor((64, 32), T.bfloat16)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((64, 32), T.bfloat16)
            emi._assign_a_shared_layout(make_linear_layout(A_s))
            T.copy(A, A_s)
            # CHECK: intrinsics-emitter-atoms-errors.py:[[@LINE+1]]:24: error: ValueError: the wgmma operand A is bfloat16 but the emitter was made for float16
            a_params = emi.compute_wgmma_a_desc_params(A_s)

    return main


@tilelang.jit
def wrong_accumulator_shape():
    emi = emitter()

    @T.prim_func
    def main(A: T.Tensor((64, 32), T.float16), B: T.Tensor((32, 64), T.float16)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            C_f = T.alloc_fragment((64, 32), T.float32)
            emi._assign_a_shared_layout(make_linear_layout(A_s))
            emi._assign_b_shared_layout(make_linear_layout(B_s))
            a = emi.compute_wgmma_a_desc_params(A_s)
            b = emi.compute_wgmma_b_desc_params(B_s)
            desc_a = T.alloc_wgmma_desc()
            desc_b = T.alloc_wgmma_desc()
            # CHECK: intrinsics-emitter-atoms-errors.py:[[@LINE+1]]:13: error: ValueError: the wgmma accumulator has shape [64, 32]; the emitter's block tile is [64, 64]
            emi.wgmma_ss_atom(desc_a, desc_b, C_f, 0, 0, 0, a, b, True)

    return main


@tilelang.jit
def no_layout():
    emi = emitter()

    @T.prim_func
    def main(B: T.Tensor((32, 64), T.float16)):
        with T.Kernel(1, threads=128):
            B_s = T.alloc_shared((32, 64), T.float16)
            # CHECK: intrinsics-emitter-atoms-errors.py:[[@LINE+1]]:17: error: AssertionError: WGMMA B operand has no shared layout to decode
            b = emi.compute_wgmma_b_desc_params(B_s)

    return main


@tilelang.jit
def no_tcgen05_atom():
    emi = TCGEN05TensorCoreIntrinEmitter(a_dtype=T.float16, b_dtype=T.float16,
                                         accum_dtype=T.float32, block_row_warps=1,
                                         block_col_warps=1, warp_row_tiles=48,
                                         warp_col_tiles=64, chunk=32)
    emi.get_tcgen5_mma_meta(48, 64, 32, True)
    # CHECK: intrinsics-emitter-atoms-errors.py:[[@LINE+1]]:11: error: AssertionError: TCGEN05 meta not initialized (or no tcgen05.mma atom fits); call get_tcgen5_mma_meta() first
    num = emi.tcgen05_num_inst_m

    @T.prim_func
    def main(A: T.Tensor((48, 32), T.float16)):
        with T.Kernel(1, threads=128):
            T.clear(A)

    return main


wrong_operand_type()
wrong_accumulator_shape()
no_layout()
no_tcgen05_atom()
