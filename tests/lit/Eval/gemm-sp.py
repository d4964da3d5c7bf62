# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s 2>/dev/null | FileCheck %s
# T.gemm_sp: A_sparse [M, K/2], metadata E [M, K/e_factor] of an 8/16/32-bit
# integer type (e_factor = bits / 4 * group, group 4, or 2 for float32),
# B [K, N] ([N, K] with transpose_B); built as the expansion of A into a
# dense shared tile (each element picked by its group's metadata chunk)
# and the dense tile.gemm.
import tilelang
import tilelang.language as T
from tilelang.layout import make_cutlass_metadata_layout


@tilelang.jit
def sparse(block_M=64, block_N=64, block_K=64):
    with T.Kernel(1, 1, threads=128) as (bx, by):
        A = T.alloc_shared((block_M, block_K // 2), T.float16)
        E = T.alloc_shared((block_M, block_K // 16), T.int16)
        E8 = T.alloc_shared((block_M, block_K // 8), T.uint8)
        Ef = T.alloc_shared((block_M, block_K // 16), T.float16)
        B = T.alloc_shared((block_K, block_N), T.float16)
        B32 = T.alloc_shared((32, block_N), T.float16)
        Af = T.alloc_shared((block_M, block_K // 2), T.float64)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        A8 = T.alloc_shared((block_M, 48), T.int8)
        E8_96 = T.alloc_shared((block_M, 6), T.int16)
        B8 = T.alloc_shared((96, block_N), T.int8)
        C8 = T.alloc_fragment((block_M, block_N), T.int32)
        E48 = T.alloc_shared((48, 4), T.int16)
        T.gemm_sp(A, E, B, C)  # expected-warning {{nothing has written yet}}
        T.gemm_sp_v2(A, E8, B, C)
        # expected-error@+1 {{T.gemm_sp: metadata E must be [64, 8] (M x K/e_factor with e_factor 8 for uint8 metadata of float16), got [64, 4]}}
        T.gemm_sp(A, E8[:, 0:4], B, C)
        # expected-error@+1 {{T.gemm_sp: A_sparse holds K/2 = 32 columns, but B's K is 32 (must be twice as many)}}
        T.gemm_sp(A, E, B32, C)
        # expected-error@+1 {{T.gemm_sp: metadata E must be an 8-, 16- or 32-bit integer buffer, not float16}}
        T.gemm_sp(A, Ef, B, C)
        # expected-error@+1 {{T.gemm_sp: structured sparsity is not defined for float64}}
        T.gemm_sp(Af, E, B, C)
        # expected-error@+1 {{T.gemm_sp: transpose_A and transpose_E are not supported}}
        T.gemm_sp(A, E, B, C, transpose_A=True)
        # expected-error@+1 {{T.gemm_sp: K tile size 96 must be divisible by 64, the K of the int8 sparse MMA}}
        T.gemm_sp(A8, E8_96, B8, C8)
        # expected-error@+1 {{make_cutlass_metadata_layout: metadata should be 8 bit, got int16}}
        T.annotate_layout({E: make_cutlass_metadata_layout(E, "float16", arch="9.0", block_k=64)})
        # expected-error@+1 {{make_cutlass_metadata_layout: metadata M=48 must be a multiple of 32}}
        T.annotate_layout({E48: make_cutlass_metadata_layout(E48, "float16", arch="8.0")})


# CHECK-LABEL: tile.kernel
# CHECK: %[[DENSE:.*]] = tile.alloc {{.*}} !tile.buffer<[64, 64], f16, shared.dyn>
# CHECK: tile.parallel
# CHECK: arith.shrui
# CHECK: arith.select
# CHECK: tile.store {{.*}}%[[DENSE]]
# CHECK: tile.gemm %[[DENSE]]
