# Which elements each lane of a warp holds after TensorCoreIntrinEmitter's
# ldmatrix_a / ldmatrix_b, and where stmatrix puts each lane's
# accumulators: every lane writes its local buffers out, and
# Inputs/intrinsics_emitter_lanes.py compares them with the fragment
# tables of PTX's mma.sync (m16n8k16 for float16, m16n8k32 for int8: the
# layouts TileLang's ldmatrix offsets deliver), element by element.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/intrinsics_emitter_lanes.py tlc-run %t/cpu %t/work | FileCheck %s

import tilelang
import tilelang.language as T
from tilelang.intrinsics import TensorCoreIntrinEmitter


@tilelang.jit
def lanes(in_dtype="float16", accum_dtype="float32", K=16):
    emitter = TensorCoreIntrinEmitter(
        a_dtype=in_dtype, b_dtype=in_dtype, accum_dtype=accum_dtype,
        a_transposed=False, b_transposed=True, block_row_warps=1,
        block_col_warps=1, warp_row_tiles=16, warp_col_tiles=16, chunk=K)
    la, lb, lc = emitter.local_size_a, emitter.local_size_b, emitter.local_size_out

    @T.prim_func
    def main(A: T.Tensor((16, K), in_dtype), B: T.Tensor((16, K), in_dtype),
             ALanes: T.Tensor((32, la), in_dtype), BLanes: T.Tensor((32, lb), in_dtype),
             C: T.Tensor((16, 16), accum_dtype)):
        with T.Kernel(1, threads=32) as bx:
            A_shared = T.alloc_shared((16, K), in_dtype)
            B_shared = T.alloc_shared((16, K), in_dtype)
            C_shared = T.alloc_shared((16, 16), accum_dtype)
            A_local = T.alloc_local((la,), in_dtype)
            B_local = T.alloc_local((lb,), in_dtype)
            C_local = T.alloc_local((lc,), accum_dtype)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            emitter.ldmatrix_a(A_local, A_shared, 0)
            emitter.ldmatrix_b(B_local, B_shared, 0)
            tx = T.get_thread_binding()
            for e in T.serial(la):
                ALanes[tx, e] = A_local[e]
            for e in T.serial(lb):
                BLanes[tx, e] = B_local[e]
            # Accumulator e of lane tx holds 16 tx + e.
            for e in T.serial(lc):
                C_local[e] = tx * 16 + e
            emitter.stmatrix(C_local, C_shared)
            T.copy(C_shared, C)

    return main


lanes()
lanes("int8", "int32", 32)

# CHECK: lanes: A ok, B ok, C ok
# CHECK: lanes_1: A ok, B ok, C ok
