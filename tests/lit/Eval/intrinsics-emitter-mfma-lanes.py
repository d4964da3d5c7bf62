# Each lane's elements under tlc's model of TileLang's MFMA emitter, against
# the CDNA3 ISA's operand tables for v_mfma_f32_16x16x16f16 (written in
# Inputs/mfma_emitter_lanes.py, not taken from the model): one wavefront
# loads A and B with ldmatrix_a / ldmatrix_b, runs one mfma and writes its
# A, B and accumulator registers out by (lane, element). TileLang hands the
# instruction B as its first operand and A as its second, so A's registers
# follow the ISA's table of the B operand, B's the A operand's, and the
# accumulator holds the ISA's D transposed. Runs on the CPU target here and
# on sim for gfx942 (intrinsics-emitter-mfma-sim.test).
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/mfma_emitter_lanes.py tlc-run %t/cpu %t/work | FileCheck %s
# CHECK: mfma_lanes: A ok, B ok, C ok; a table with lanes l and l ^ 16 exchanged differs

import tilelang
import tilelang.language as T
from tilelang.intrinsics.mfma_macro_generator import MatrixCoreIntrinEmitter


@tilelang.jit
def mfma_lanes():
    emitter = MatrixCoreIntrinEmitter(a_dtype="float16", b_dtype="float16",
                                      accum_dtype="float32", a_transposed=False,
                                      b_transposed=True, block_row_warps=1,
                                      block_col_warps=1, warp_row_tiles=16,
                                      warp_col_tiles=16, chunk=16)

    @T.prim_func
    def main(A: T.Tensor((16, 16), "float16"), B: T.Tensor((16, 16), "float16"),
             OA: T.Tensor((64, 4), "float32"), OB: T.Tensor((64, 4), "float32"),
             OC: T.Tensor((64, 4), "float32")):
        with T.Kernel(1, threads=64) as bx:
            A_shared = T.alloc_shared((16, 16), "float16")
            B_shared = T.alloc_shared((16, 16), "float16")
            A_local = T.alloc_local((4,), "float16")
            B_local = T.alloc_local((4,), "float16")
            C_local = T.alloc_local((4,), "float32")
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.clear(C_local)
            emitter.ldmatrix_a(A_local, A_shared, 0)
            emitter.ldmatrix_b(B_local, B_shared, 0)
            emitter.mfma(A_local, B_local, C_local)
            tx = T.get_thread_binding()
            for e in T.serial(4):
                OA[tx, e] = T.cast(A_local[e], "float32")
                OB[tx, e] = T.cast(B_local[e], "float32")
                OC[tx, e] = C_local[e]

    return main


mfma_lanes()
