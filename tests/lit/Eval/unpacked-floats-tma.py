# What TileLang accepts of the unpacked 4/6-bit float storage dtypes beyond
# copies of their own dtype (unpacked-floats-errors.py has what it
# refuses):
# - a TMA copy between packed codes in global memory and their unpacked
#   form in shared memory, in both directions: TileLang's TMA descriptors
#   unpack on load and pack on store (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B
#   for float4_e2m1fn), so upstream test_tilelang_language_tma_copy.py
#   round-trips fp4 this way; only its SIMT copy of the pair is an error;
# - unpacked tiles as block-scaled GEMM operands: kind::mxf8f6f4 reads
#   float4_e2m1_unpacked (upstream
#   test_tilelang_language_mxf8f6f4_subbyte_operands.py, W4A8).
# No tlc target generates either yet (the CUDA target would copy the
# codes' float values): that is said when building, never by --check.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=tma_round_trip %s | FileCheck %s --check-prefix=TMA
# TMA: tile.copy %{{.*}} to %{{.*}} {tile.tma_copy} : !tile.buffer<[64, 128], f4E2M1FN, global> to !tile.buffer<[64, 128], ui8, shared.dyn>
# TMA: tile.copy %{{.*}} to %{{.*}} {tile.tma_copy} : !tile.buffer<[64, 128], ui8, shared.dyn> to !tile.buffer<[64, 128], f4E2M1FN, global>
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s --check-prefix=BUILD
# BUILD: unpacked-floats-tma.py:30:9: error: cannot build this kernel: T.tma_copy from float4_e2m1fn to float4_e2m1_unpacked: no tlc target generates the TMA copy that packs or unpacks the codes yet
# BUILD: unpacked-floats-tma.py:33:9: error: cannot build this kernel: T.tma_copy from float4_e2m1_unpacked to float4_e2m1fn
# BUILD: unpacked-floats-tma.py:50:9: error: cannot build this kernel: T.mma_gemm_blockscaled of the float4_e2m1_unpacked operand 'A_shared': no tlc target generates that operand format yet
import tilelang.language as T


@T.prim_func
def tma_round_trip(A: T.Tensor((128, 256), T.float4_e2m1fn), B: T.Tensor((128, 256), T.float4_e2m1fn)):
    with T.Kernel(2, 2, threads=128) as (bx, by):
        A_shared = T.alloc_shared((64, 128), T.float4_e2m1_unpacked)
        mbar = T.alloc_barrier(128)
        T.tma_copy(A[by * 64, bx * 128], A_shared, barrier=mbar)
        T.barrier_arrive(mbar)
        T.mbarrier_wait_parity(mbar, 0)
        T.tma_copy(A_shared, B[by * 64, bx * 128])


@T.prim_func
def w4a8(A_packed: T.Tensor((64, 64), T.uint8), B: T.Tensor((64, 128), T.float8_e4m3fn),
         SFA: T.Tensor((64, 1), T.uint32), SFB: T.Tensor((64, 1), T.uint32), C: T.Tensor((64, 64), T.float32)):
    with T.Kernel(1, 1, threads=128):
        A_shared = T.alloc_shared((64, 128), T.float4_e2m1_unpacked)
        B_shared = T.alloc_shared((64, 128), T.float8_e4m3fn)
        SFA_shared = T.alloc_shared((64, 1), T.uint32)
        SFB_shared = T.alloc_shared((64, 1), T.uint32)
        C_local = T.alloc_fragment((64, 64), T.float32)
        for i, g, j in T.Parallel(64, 8, 8):
            A_shared[i, 16 * g + j] = T.reinterpret(T.float4_e2m1_unpacked, A_packed[i, 8 * g + j])
        T.copy(B, B_shared)
        T.copy(SFA, SFA_shared)
        T.copy(SFB, SFB_shared)
        T.mma_gemm_blockscaled(A_shared, B_shared, C_local, SFA_shared, SFB_shared, transpose_B=True,
                               clear_accum=True, k_start=0, sf_a_granularity_k=32, sf_b_granularity_k=32)
        T.copy(C_local, C)
