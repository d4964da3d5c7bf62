# RUN: tlc-build --target=cuda:sm_80 --verify-diagnostics %s
# RUN: tlc-build --target=cuda:sm_80 --check %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --target=cpu --check %s 2>&1 | FileCheck %s --check-prefix=CPU --allow-empty
# Bank conflicts of the shared-memory stores the CUDA code makes, as hint
# diagnostics at the statement with the padding or swizzle that removes
# them. mma.C gives lane l two consecutive f32 of row l / 4: a half warp's
# 8-byte stores cover rows 0..3, 32 bytes each. With rows of 256 bytes they
# hit the same 8 banks (4 ways); a pitch of 72 floats (288 bytes) spreads
# them over all 32. Converted to f16 (4-byte stores, 8 rows per warp, rows
# of 128 bytes: 8 ways), the CUDA target swizzles the tile's 16-byte
# chunks when only copies use it, which removes the conflict.
import tilelang
import tilelang.language as T


@tilelang.jit
def store_unpadded(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            # expected-note@+1 {{padding each row of C_s by 8 elements (allocate (64, 72) and use C_s[:, 0:64]) makes this access conflict-free}}
            C_s = T.alloc_shared((64, 64), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            # expected-remark@+1 {{4-way bank conflict on C_s (8-byte st.shared)}}
            T.copy(acc, C_s)
            T.copy(C_s, C[by * 64, bx * 64])
    return main


@tilelang.jit
def store_padded(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            C_s = T.alloc_shared((64, 72), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(acc, C_s[:, 0:64])
            T.copy(C_s[:, 0:64], C[by * 64, bx * 64])
    return main


@tilelang.jit
def store_swizzled(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float16)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            D_s = T.alloc_shared((64, 64), T.float16)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(acc, D_s)
            T.copy(D_s, C[by * 64, bx * 64])
    return main


@tilelang.jit
def store_unswizzled(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float16)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            # expected-note@+1 {{padding each row of D_s by 8 elements (allocate (64, 72) and use D_s[:, 0:64]) makes this access conflict-free; so would XOR-swizzling its 16-byte chunks}}
            D_s = T.alloc_shared((64, 64), T.float16)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            # expected-remark@+1 {{8-way bank conflict on D_s (4-byte st.shared)}}
            T.copy(acc, D_s)
            # Read element-wise as well: the tile is not swizzled.
            for i, j in T.Parallel(64, 64):
                C[by * 64 + i, bx * 64 + j] = D_s[i, j]
    return main


store_unpadded()
store_padded()
store_swizzled()
store_unswizzled()

# CHECK: bank-conflicts.py:32:13: remark: 4-way bank conflict on C_s (8-byte st.shared)
# CHECK: bank-conflicts.py:27:19: note: padding each row of C_s by 8 elements
# CHECK: bank-conflicts.py:88:13: remark: 8-way bank conflict on D_s (4-byte st.shared)
# CHECK-NOT: bank conflict

# HINTS: "kernel":"store_unpadded",{{.*}}"name":"C_s","kind":"bank-conflict",{{.*}}"detail":"4-way bank conflict on C_s (8-byte st.shared)"
# HINTS: "kernel":"store_unswizzled",{{.*}}"name":"D_s","kind":"bank-conflict",{{.*}}"detail":"8-way bank conflict on D_s (4-byte st.shared)"

# CPU-NOT: bank conflict
