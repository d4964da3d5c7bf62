# A fragment row picked by a value the T.Parallel loop does not change
# (example_mha_inference.py's combine kernel): lse[S, M] is reduced over
# dim 0, its row k copied with T.copy(lse[k, :], row) and read as lse[k, i]
# inside serial loops over k, next to an o[M, D] accumulator annotated
# thread = row. Layout inference keeps lse's dim 0 whole in each thread's
# registers (thread of i, register k), so the reduction result and every
# [M] vector share the annotated rows and nothing conflicts; the copy of a
# fragment part is TileLang's element loop (a tile.parallel, no tile.copy
# between fragments). The CPU target's output is checked against NumPy in
# float64 (Inputs/fragment_held_rows_ref.py).
# No error or warning; the fragment-exchange remarks describe the CUDA code.
# RUN: tlc-build --check %s 2>&1 | not grep -E "(error|warning):"
# RUN: tlc-build --emit=tile --target=cuda:sm_90a %s | FileCheck %s --check-prefix=TILE
# TILE: tile.alloc {layout = #tile.fragment<[4, 64], thread = "j", index = ["i"]
# TILE: tile.alloc {layout = #tile.fragment<[64], thread = "i", index = ["0"]
# TILE: tile.reduce max
# TILE-NOT: tile.copy {{.*}}local.fragment> to !tile.buffer<[64], f32, local.fragment>
# TILE: tile.parallel
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA: void __launch_bounds__(64)
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 3 --save %t/out
# RUN: %python %S/Inputs/fragment_held_rows_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: combine (2, 128, 3, 32) True
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def combine(batch=2, heads=3, seqlen_q=128, dim=32, block_M=64, num_split=4):
    dtype = T.float16
    accum_dtype = T.float32

    @T.prim_func
    def main(
            glse: T.Tensor([batch, heads, num_split, seqlen_q], dtype),
            Output_partial: T.Tensor([batch, seqlen_q, heads, num_split, dim], dtype),
            Output: T.Tensor([batch, seqlen_q, heads, dim], dtype),
    ):
        with T.Kernel(T.ceildiv(seqlen_q, block_M), heads, batch, threads=block_M) as (bx, by, bz):
            po_local = T.alloc_fragment([block_M, dim], dtype)
            o_accum_local = T.alloc_fragment([block_M, dim], accum_dtype)
            lse_local = T.alloc_fragment([num_split, block_M], dtype)
            lse_local_split = T.alloc_fragment([block_M], accum_dtype)
            lse_logsum_local = T.alloc_fragment([block_M], accum_dtype)
            lse_max_local = T.alloc_fragment([block_M], accum_dtype)
            scale_local = T.alloc_fragment([block_M], accum_dtype)
            T.annotate_layout({
                o_accum_local: T.Fragment(o_accum_local.shape, forward_thread_fn=lambda i, j: i),
            })
            T.clear(lse_logsum_local)
            T.clear(o_accum_local)
            T.copy(glse[bz, by, :, bx * block_M:(bx + 1) * block_M], lse_local)
            T.reduce_max(lse_local, lse_max_local, dim=0, clear=True)
            for k in T.Pipelined(num_split):
                T.copy(lse_local[k, :], lse_local_split)
                for i in T.Parallel(block_M):
                    lse_logsum_local[i] += T.exp2(lse_local_split[i] - lse_max_local[i])
            for i in T.Parallel(block_M):
                lse_logsum_local[i] = T.log2(lse_logsum_local[i]) + lse_max_local[i]
            for k in T.serial(num_split):
                T.copy(Output_partial[bz, bx * block_M:(bx + 1) * block_M, by, k, :], po_local)
                for i in T.Parallel(block_M):
                    scale_local[i] = T.exp2(lse_local[k, i] - lse_logsum_local[i])
                for i, j in T.Parallel(block_M, dim):
                    o_accum_local[i, j] += po_local[i, j] * scale_local[i]
            T.copy(o_accum_local, Output[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


combine()
