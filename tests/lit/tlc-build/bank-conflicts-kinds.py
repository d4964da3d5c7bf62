# RUN: tlc-build --target=cuda:sm_80 --verify-diagnostics %s
# RUN: tlc-build --target=cuda:sm_80 --check %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_90a --check %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=SM90A
# RUN: tlc-build --target=cpu --check %s 2>&1 | FileCheck %s --check-prefix=CPU --allow-empty
# Bank conflicts of the shared accesses of T.Parallel loops, the staged
# epilogue store and the reduction scratch.
#
# transpose: the loop is spread flat (element r * 128 + tid), so lane l
# reads A_s[l % 32, ...]: one column of rows of 32 floats, every lane in one
# bank (32-way); rows of 33 floats put them in 32 banks.
# acc_to_shared: the loop takes acc's mma.C layout; a warp's 4-byte stores
# are 8 rows x 4 even columns, which share banks 0, 2, 4, 6 in rows of 64
# floats (8-way) and still collide with any padding of up to 32 bytes.
# staged_f32: T.copy(acc, C) goes through a staging tile whose rows the CUDA
# target pads by 16 bytes (68 floats): a half warp's 8-byte stores cover 4
# rows of 8 words, shifted by 4 banks per row: 2-way. 32 bytes of padding
# would be conflict-free. In f16 (4-byte stores, rows of 72 halves) none.
# row_sum: the cross-warp reduction scratch is consecutive words: none.
# On sm_90a the same remarks: staged's gemm takes wgmma, whose descriptor
# reads of A_s and B_s (8-row x 16-byte core matrices in the 128-byte panel
# swizzle) are conflict-free, and the accumulator is staged the same way.
import tilelang
import tilelang.language as T


@tilelang.jit
def transpose(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((N, M), T.float32)):
        with T.Kernel(N // 32, M // 32, threads=128) as (bx, by):
            # expected-note@+1 {{padding each row of A_s by 1 element (allocate (32, 33) and use A_s[:, 0:32]) makes this access conflict-free}}
            A_s = T.alloc_shared((32, 32), T.float32)
            for i, j in T.Parallel(32, 32):
                A_s[i, j] = A[by * 32 + i, bx * 32 + j]
            for i, j in T.Parallel(32, 32):
                # expected-remark@+1 {{32-way bank conflict on A_s (4-byte ld.shared)}}
                B[bx * 32 + i, by * 32 + j] = A_s[j, i]
    return main


@tilelang.jit
def transpose_padded(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((N, M), T.float32)):
        with T.Kernel(N // 32, M // 32, threads=128) as (bx, by):
            A_s = T.alloc_shared((32, 33), T.float32)
            for i, j in T.Parallel(32, 32):
                A_s[i, j] = A[by * 32 + i, bx * 32 + j]
            for i, j in T.Parallel(32, 32):
                B[bx * 32 + i, by * 32 + j] = A_s[j, i]
    return main


@tilelang.jit
def acc_to_shared(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            # expected-note@+1 {{no row padding of up to 32 bytes removes it}}
            C_s = T.alloc_shared((64, 64), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            for i, j in T.Parallel(64, 64):
                # expected-remark@+1 {{8-way bank conflict on C_s (4-byte st.shared)}}
                C_s[i, j] = acc[i, j]
            T.copy(C_s, C[by * 64, bx * 64])
    return main


@tilelang.jit
def staged(M=256, N=256, K=256, out=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), out)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), T.float16)
            B_s = T.alloc_shared((64, 64), T.float16)
            # expected-note@+1 {{the CUDA target stages this store through shared memory in a tile whose rows it pads by 16 bytes; a padding of 8 elements would be conflict-free}}
            acc = T.alloc_fragment((64, 64), T.float32)
            T.clear(acc)
            for k in T.Pipelined(K // 64, num_stages=2):
                T.copy(A[by * 64, k * 64], A_s)
                T.copy(B[k * 64, bx * 64], B_s)
                T.gemm(A_s, B_s, acc)
            # expected-remark@+1 {{2-way bank conflict on the staging tile of acc (8-byte st.shared)}}
            T.copy(acc, C[by * 64, bx * 64])
    return main


@tilelang.jit
def row_sum(M=256, N=512):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), S: T.Tensor((M,), T.float32)):
        with T.Kernel(M // 4, threads=256) as bx:
            x = T.alloc_fragment((4, 512), T.float32)
            s = T.alloc_fragment((4,), T.float32)
            T.copy(A[bx * 4, 0], x)
            T.reduce_sum(x, s, dim=1)
            T.copy(s, S[bx * 4])
    return main


transpose()
transpose_padded()
acc_to_shared()
staged()
staged(out=T.float16)
row_sum()

# CHECK: bank-conflicts-kinds.py:40:17: remark: 32-way bank conflict on A_s (4-byte ld.shared)
# CHECK: bank-conflicts-kinds.py:35:19: note: padding each row of A_s by 1 element
# CHECK: bank-conflicts-kinds.py:73:17: remark: 8-way bank conflict on C_s (4-byte st.shared)
# CHECK: bank-conflicts-kinds.py:94:13: remark: 2-way bank conflict on the staging tile of acc (8-byte st.shared)
# CHECK-NOT: bank conflict

# HINTS: "kernel":"transpose",{{.*}}"name":"A_s","kind":"bank-conflict",{{.*}}"detail":"32-way bank conflict on A_s (4-byte ld.shared)"
# HINTS: "kernel":"acc_to_shared",{{.*}}"name":"C_s","kind":"bank-conflict",{{.*}}"detail":"8-way bank conflict on C_s (4-byte st.shared)"
# HINTS: "kernel":"staged",{{.*}}"name":"the staging tile of acc","kind":"bank-conflict",{{.*}}"detail":"2-way bank conflict on the staging tile of acc (8-byte st.shared)"

# The code the analysis describes: the flat partition, the staging pitch
# (68 floats, then 72 halves) and the reduction's scratch.
# CUDA: const int f{{[_0-9]*}} = r{{[_0-9]*}} * 128 + tid;
# CUDA: copyVector<8>(&staged[i0{{[_0-9]*}} * 68 + i1{{[_0-9]*}}], packed);
# CUDA: copyVector<4>(&staged[i0{{[_0-9]*}} * 72 + i1{{[_0-9]*}}], packed);
# CUDA: scratch{{.*}}[k * 256 + tid] =

# SM90A: wgmma.mma_async
# SM90A: copyVector<8>(&staged[i0{{[_0-9]*}} * 68 + i1{{[_0-9]*}}], packed);

# CPU-NOT: bank conflict
