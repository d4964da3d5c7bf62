# Fragments that scalar code reads and writes: `acc[0]` outside any
# T.Parallel and inside one at an index that is not a loop variable, as the
# combine kernel of split-KV decoding writes them (a running max and sum of
# log-sum-exps, then a rescale of every output row). Every thread holds its
# own copy (TileLang's layout for them). Checked against NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; l=np.load(d+'inputs/Lse.npy').astype(np.float64); o=np.load(d+'inputs/Partial.npy').astype(np.float64); out=np.load(d+'Out.npy'); m=l.max(1,keepdims=True); w=np.exp2(l-m); w=w/w.sum(1,keepdims=True); ref=(w[:,:,None]*o).sum(1); print(np.abs(out-ref).max() < 1e-4, out.shape)" | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True (37, 96)
# CUDA: float lse_max_local[1];  // replicated · 1 reg/thread · rep 128
# CUDA: lse_max_local[0] = t;

import tilelang
import tilelang.language as T


@tilelang.jit
def combine(batch, num_split, dim, threads=128):
    accum_dtype = "float32"

    @T.prim_func
    def main(Lse: T.Tensor((batch, num_split), accum_dtype),
             Partial: T.Tensor((batch, num_split, dim), accum_dtype),
             Out: T.Tensor((batch, dim), accum_dtype)):
        with T.Kernel(batch, threads=threads) as bz:
            po_local = T.alloc_fragment([dim], accum_dtype)
            o_accum_local = T.alloc_fragment([dim], accum_dtype)
            lse_local_split = T.alloc_fragment([1], accum_dtype)
            lse_logsum_local = T.alloc_fragment([1], accum_dtype)
            lse_max_local = T.alloc_fragment([1], accum_dtype)
            scale_local = T.alloc_fragment([1], accum_dtype)

            T.clear(lse_logsum_local)
            T.clear(o_accum_local)
            lse_max_local[0] = -T.infinity(accum_dtype)
            for k in T.serial(num_split):
                lse_max_local[0] = T.max(lse_max_local[0], Lse[bz, k])
            for k in T.Pipelined(num_split, num_stages=1):
                lse_local_split[0] = Lse[bz, k]
                lse_logsum_local[0] += T.exp2(lse_local_split[0] - lse_max_local[0])
            lse_logsum_local[0] = T.log2(lse_logsum_local[0]) + lse_max_local[0]
            for k in T.serial(num_split):
                for i in T.Parallel(dim):
                    po_local[i] = Partial[bz, k, i]
                lse_local_split[0] = Lse[bz, k]
                scale_local[0] = T.exp2(lse_local_split[0] - lse_logsum_local[0])
                for i in T.Parallel(dim):
                    o_accum_local[i] += po_local[i] * scale_local[0]
            for i in T.Parallel(dim):
                Out[bz, i] = o_accum_local[i]

    return main


combine(37, 5, 96)
