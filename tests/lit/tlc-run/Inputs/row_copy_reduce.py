# For row-copy-reduce-sim.test: flash-attention's split combine
# (flash_attention/example_mha_inference.py's `combine`): the rows of a
# [num_split, block_M] fragment are copied one at a time into a row whose
# layout is annotated (thread i holds element i), after a T.reduce over the
# splits of the whole fragment.
import tilelang
import tilelang.language as T


@tilelang.jit
def row_copy_reduce(num_split=4, block_M=128, dim=64):

    @T.prim_func
    def main(lse: T.Tensor((num_split, block_M), "float16"),
             P: T.Tensor((num_split, block_M, dim), "float16"),
             Out: T.Tensor((block_M, dim), "float16")):
        with T.Kernel(1, threads=128):
            po_local = T.alloc_fragment((block_M, dim), "float16")
            po_shared = T.alloc_shared((block_M, dim), "float16")
            o_acc = T.alloc_fragment((block_M, dim), "float32")
            lse_local = T.alloc_fragment((num_split, block_M), "float16")
            split = T.alloc_fragment((block_M,), "float32")
            lmax = T.alloc_fragment((block_M,), "float32")
            lsum = T.alloc_fragment((block_M,), "float32")
            scale = T.alloc_fragment((block_M,), "float32")
            T.annotate_layout({
                o_acc: T.Fragment(o_acc.shape, forward_thread_fn=lambda i, j: i),
                split: T.Fragment(split.shape, forward_thread_fn=lambda i: i),
            })
            T.clear(lsum)
            T.clear(o_acc)
            T.copy(lse, lse_local)
            T.reduce_max(lse_local, lmax, dim=0, clear=False)
            for k in T.Pipelined(num_split):
                T.copy(lse_local[k, :], split)
                for i in T.Parallel(block_M):
                    lsum[i] += T.exp2(split[i] - lmax[i])
            for i in T.Parallel(block_M):
                lsum[i] = T.log2(lsum[i]) + lmax[i]
            for k in T.Pipelined(num_split, num_stages=2):
                T.copy(P[k, :, :], po_shared)
                T.copy(po_shared, po_local)
                T.copy(lse_local[k, :], split)
                for i in T.Parallel(block_M):
                    scale[i] = T.exp2(split[i] - lsum[i])
                for i, j in T.Parallel(block_M, dim):
                    o_acc[i, j] += po_local[i, j] * scale[i]
            T.copy(o_acc, Out)

    return main
