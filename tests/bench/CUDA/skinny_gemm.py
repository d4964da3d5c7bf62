# Skinny GEMM programs (issue 14: C = A @ B, or A @ B^T with trans_B, for
# M far below one wgmma tile, e.g. 16 x 8192 x 8192): the K dimension is
# split over several blocks so that enough multiprocessors stream B. Both
# are program-level choices (tlc does not split K behind a program's back):
#
# * splitk_serial: the K range of each output tile is cut into split_k
#   slices, one block each (grid z). Every block writes its float32 partial
#   tile into the workspace W[split, M, N], then counts itself in
#   Lock[tile] (an acq_rel atomic add); the block that arrives last sums
#   the slices' partials in slice order (the same sum whichever block came
#   last), stores C in the input dtype and puts the counter back to 0. No zeroed output, no second launch: the
#   caller allocates Lock zeroed once, and the program leaves it zeroed.
# * splitk_atomic: the public split-K example's form (every slice adds its
#   partial tile into a float32 C by atomics; the caller zeroes C).
#
# Tiles, pipeline depth and the split are factory parameters, bound with
# tlc-build -D.

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def splitk_serial(M, N, K, block_M=64, block_N=128, block_K=64, split_k=4, num_stages=4,
                  threads=128, trans_B=False, dtype=T.float16, accum_dtype=T.float32):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)
    tiles_n = T.ceildiv(N, block_N)
    tiles_m = T.ceildiv(M, block_M)
    per_split = T.ceildiv(T.ceildiv(K, block_K), split_k)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor(B_shape, dtype),
        W: T.Tensor((split_k, M, N), accum_dtype),
        Lock: T.Tensor((tiles_m * tiles_n,), T.int32),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(tiles_n, tiles_m, split_k, threads=threads) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared(B_tile, dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            arrived = T.alloc_shared((1,), T.int32)

            T.clear(C_local)
            for ko in T.Pipelined(per_split, num_stages=num_stages):
                T.copy(A[by * block_M, (bz * per_split + ko) * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, (bz * per_split + ko) * block_K], B_shared)
                else:
                    T.copy(B[(bz * per_split + ko) * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=trans_B)
            T.copy(C_local, W[bz, by * block_M, bx * block_N])
            T.sync_threads()
            for i in T.Parallel(1):
                arrived[i] = T.atomic_add(Lock[by * tiles_n + bx], 1, memory_order="acq_rel",
                                          return_prev=True)
            T.sync_threads()
            if arrived[0] == split_k - 1:
                # The slices in their order, whichever block came last: the
                # sum does not depend on the blocks' schedule.
                T.clear(C_local)
                for s in T.serial(split_k):
                    for i, j in T.Parallel(block_M, block_N):
                        C_local[i, j] += W[s, by * block_M + i, bx * block_N + j]
                T.copy(C_local, C[by * block_M, bx * block_N])
                for i in T.Parallel(1):
                    Lock[by * tiles_n + bx + i] = 0

    return main


@tilelang.jit
def splitk_atomic(M, N, K, block_M=64, block_N=128, block_K=64, split_k=4, num_stages=4,
                  threads=128, trans_B=False, dtype=T.float16, accum_dtype=T.float32):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)
    per_split = T.ceildiv(T.ceildiv(K, block_K), split_k)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor(B_shape, dtype),
        C: T.Tensor((M, N), accum_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), split_k, threads=threads) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared(B_tile, dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(C_local)
            for ko in T.Pipelined(per_split, num_stages=num_stages):
                T.copy(A[by * block_M, (bz * per_split + ko) * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, (bz * per_split + ko) * block_K], B_shared)
                else:
                    T.copy(B[(bz * per_split + ko) * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=trans_B)
            T.atomic_add(C[by * block_M, bx * block_N], C_local)

    return main


@tilelang.jit
def streamk_atomic(M, N, K, block_M=64, block_N=128, block_K=64, num_stages=4, threads=128,
                   programs=132, trans_B=False, dtype=T.float16, accum_dtype=T.float32):
    """Stream-K: the tiles' k-steps, laid end to end, are cut into
    `programs` even ranges, one block each; a block walks its range tile by
    tile and adds each tile's partial sum into the float32 C by atomics
    (the caller zeroes C)."""
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)
    tiles_n = T.ceildiv(N, block_N)
    iters = T.ceildiv(K, block_K)
    total = T.ceildiv(M, block_M) * tiles_n * iters
    per, extra = total // programs, total % programs

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor(B_shape, dtype),
        C: T.Tensor((M, N), accum_dtype),
    ):
        with T.Kernel(programs, threads=threads) as pid:
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared(B_tile, dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            it = T.alloc_var(T.int32)
            it = pid * per + T.min(pid, extra)
            last = it + per + T.if_then_else(pid < extra, 1, 0)
            while it < last:
                tile = it // iters
                k0 = it % iters
                seg = T.min(last - it, iters - k0)
                bm = tile // tiles_n * block_M
                bn = tile % tiles_n * block_N
                T.clear(C_local)
                for ko in T.Pipelined(seg, num_stages=num_stages):
                    T.copy(A[bm, (k0 + ko) * block_K], A_shared)
                    if trans_B:
                        T.copy(B[bn, (k0 + ko) * block_K], B_shared)
                    else:
                        T.copy(B[(k0 + ko) * block_K, bn], B_shared)
                    T.gemm(A_shared, B_shared, C_local, transpose_B=trans_B)
                T.atomic_add(C[bm, bn], C_local)
                it = it + seg

    return main
