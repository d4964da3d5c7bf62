# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group E (+H, K): explicit layouts. T.annotate_layout with
# tilelang.layout.make_swizzled_layout for GEMM operands, a custom
# T.Layout(shape, lambda i, j: ...) XOR swizzle for the epilogue tile,
# T.use_swizzle(order="column") rasterisation; a split-combine kernel pins
# its accumulator with T.Fragment(shape, forward_thread_fn=...).
import tilelang
import tilelang.language as T
from tilelang.layout import make_swizzled_layout


@tilelang.jit(out_idx=[-1])
def matmul_swizzled(M, N, K, block_M=128, block_N=128, block_K=64, dtype=T.float16):
    accum_dtype = T.float32

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.annotate_layout({
                A_shared: make_swizzled_layout(A_shared),
                B_shared: tilelang.layout.make_swizzled_layout(B_shared),
                C_shared: T.Layout((block_M, block_N), lambda i, j: [i, j ^ ((i % 8) * 8)]),
            })
            T.use_swizzle(panel_size=8, order="column")

            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return main


@tilelang.jit(out_idx=[-1])
def combine_splits(batch, heads, num_split, dim, block_M=128):
    accum_dtype = T.float32

    @T.prim_func
    def main(
        Partial: T.Tensor((batch, num_split, heads, dim), accum_dtype),
        Lse: T.Tensor((batch, num_split, heads), accum_dtype),
        Out: T.Tensor((batch, heads, dim), T.float16),
    ):
        with T.Kernel(T.ceildiv(heads, block_M), batch, threads=block_M) as (bx, bz):
            o_acc = T.alloc_fragment((block_M, dim), accum_dtype)
            lse_max = T.alloc_fragment((block_M,), accum_dtype)
            lse_sum = T.alloc_fragment((block_M,), accum_dtype)
            T.annotate_layout({
                o_acc: T.Fragment(o_acc.shape, forward_thread_fn=lambda i, j: i),
                lse_max: T.Fragment(lse_max.shape, forward_thread_fn=lambda i: i),
                lse_sum: T.Fragment(lse_sum.shape, forward_thread_fn=lambda i: i),
            })
            T.clear(o_acc)
            T.clear(lse_sum)
            T.fill(lse_max, -T.infinity(accum_dtype))
            for s in T.serial(num_split):
                for i in T.Parallel(block_M):
                    lse_max[i] = T.max(lse_max[i], Lse[bz, s, bx * block_M + i])
            for s in T.serial(num_split):
                for i in T.Parallel(block_M):
                    lse_sum[i] += T.exp2(Lse[bz, s, bx * block_M + i] - lse_max[i])
                for i, j in T.Parallel(block_M, dim):
                    o_acc[i, j] += Partial[bz, s, bx * block_M + i, j] * T.exp2(Lse[bz, s, bx * block_M + i] - lse_max[i])
            for i, j in T.Parallel(block_M, dim):
                Out[bz, bx * block_M + i, j] = o_acc[i, j] / lse_sum[i]

    return main


def main():
    matmul_swizzled(4096, 4096, 4096)
    combine_splits(16, 128, 8, 64)


if __name__ == "__main__":
    main()

# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# CHECK: "name":"C_shared","kind":"buffer","shape":[128,128],"dtype":"float16","scope":"shared.dyn"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"Partial","kind":"tensor","shape":[16,8,128,64],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"o_acc","kind":"buffer","shape":[128,64],"dtype":"float32","scope":"local.fragment","layout":"fragment · 64 regs/thread"
# CHECK: "name":"lse_max","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"fragment · 1 reg/thread"

# No remark: the epilogue tile C_shared, annotated with an XOR swizzle of its
# 16-byte chunks, is stored row-swizzled by the CUDA target (it had an
# 8-way bank-conflict remark when the annotation kept it row-major).
