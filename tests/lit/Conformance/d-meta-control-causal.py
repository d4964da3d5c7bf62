# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group D (+F): trace-time control folding. A Python-bool `if causal:`, a
# Python ternary choosing the loop bound, `for h in range(n)` over a meta int,
# `break` on an IR condition inside T.serial, chained comparisons and
# `and` on PrimExprs; two instances (causal and not) of a masked row softmax.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def masked_softmax(seq, block_M=64, causal=True, heads_per_block=2, dtype=T.float16):
    accum_dtype = T.float32
    log2e = 1.44269504

    @T.prim_func
    def main(S: T.Tensor((heads_per_block * 8, seq, seq), dtype), P: T.Tensor((heads_per_block * 8, seq, seq), dtype)):
        with T.Kernel(T.ceildiv(seq, block_M), 8, threads=128) as (bx, bh):
            s = T.alloc_fragment((block_M, seq), accum_dtype)
            row_max = T.alloc_fragment((block_M,), accum_dtype)
            row_sum = T.alloc_fragment((block_M,), accum_dtype)
            last = T.alloc_var(T.int32, init=0)
            limit = bx * block_M + block_M if causal else seq

            for t in T.serial(T.ceildiv(seq, block_M)):
                if t * block_M >= limit:
                    break
                last = t

            for h in range(heads_per_block):
                head = bh * heads_per_block + h
                T.copy(S[head, bx * block_M, 0], s)
                if causal:
                    for i, j in T.Parallel(block_M, seq):
                        s[i, j] = T.if_then_else(0 <= j <= bx * block_M + i and j < seq, s[i, j], -T.infinity(accum_dtype))
                T.reduce_max(s, row_max, dim=1)
                for i, j in T.Parallel(block_M, seq):
                    s[i, j] = T.exp2((s[i, j] - row_max[i]) * log2e)
                T.reduce_sum(s, row_sum, dim=1)
                for i, j in T.Parallel(block_M, seq):
                    s[i, j] = s[i, j] / row_sum[i]
                T.copy(s, P[head, bx * block_M, 0])

    return main


causal_kernel = masked_softmax(256)
full_kernel = masked_softmax(256, block_M=32, causal=False)

# CHECK: "instance":"masked_softmax(256)","name":"S","kind":"tensor","shape":[16,256,256],"dtype":"float16","scope":"global","layout":null
# CHECK: "instance":"masked_softmax(256)","name":"s","kind":"buffer","shape":[64,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 128 regs/thread"
# CHECK: "instance":"masked_softmax(256)","name":"row_max","kind":"buffer","shape":[64],"dtype":"float32","scope":"local.fragment"
# CHECK: "instance":"masked_softmax(256)","name":"last","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null
# CHECK: "instance":"masked_softmax(256, block_M=32, causal=False)","name":"s","kind":"buffer","shape":[32,256],"dtype":"float32","scope":"local.fragment"
