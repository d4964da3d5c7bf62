# RUN: tlc-build --check %s
# RUN: not tlc-build --check -Dheads=32 -Dblock_M=128 -Dsteps=8 %s 2>&1 | FileCheck %s
# A fragment of `heads` elements filled and read by T.Parallel(block_M), as
# TileLang's attention-sink example (example_mha_sink_fwd_bshd_wgmma_
# pipelined.py) does: right only while block_M <= heads; with heads = 32 and
# block_M = 128 the loop writes and reads elements 32..127 of a 32-element
# fragment, which TileLang does not check. A thread's T.alloc_local array
# indexed past its end by T.serial (steps = L) is the same error. Guarded accesses and
# T.if_then_else are not reported.
import tilelang
import tilelang.language as T


@tilelang.jit
def sink_rows(heads=128, block_M=128, L=8, steps=7):
    @T.prim_func
    def main(Sinks: T.Tensor((heads,), "float16"),
             O: T.Tensor((block_M,), "float32")):
        with T.Kernel(heads, threads=128) as by:
            sinks = T.alloc_fragment([heads], "float16")
            logsum = T.alloc_fragment([block_M], "float32")
            acc = T.alloc_local([L], "float32")
            # CHECK: fragment-out-of-bounds.py:[[@LINE+4]]:17: error: write outside 'sinks': the index of dimension 0 takes the values 0 to 127 here, but the dimension has 32 elements
            # CHECK-SAME: TileLang does not check this either
            # CHECK: fragment-out-of-bounds.py:[[@LINE-5]]:21: note: 'sinks' is allocated here with shape [32]
            for i in T.Parallel(block_M):
                sinks[i] = Sinks[by]
            # CHECK: fragment-out-of-bounds.py:[[@LINE+2]]:36: error: read outside 'sinks': the index of dimension 0 takes the values 0 to 127 here
            for i in T.Parallel(block_M):
                logsum[i] = T.exp2(T.cast(sinks[i], "float32"))
            for i in T.Parallel(block_M):
                if i < heads:
                    logsum[i] += T.cast(sinks[i], "float32")
            for i in T.Parallel(block_M):
                logsum[i] += T.if_then_else(i < heads,
                                            T.cast(sinks[i], "float32"), 0)
            # CHECK: fragment-out-of-bounds.py:[[@LINE+2]]:17: error: write outside 'acc': the index of dimension 0 takes the values 1 to 8 here, but the dimension has 8 elements
            for k in T.serial(steps):
                acc[k + 1] = 0
            for k in T.serial(L - 1):
                acc[k + 1] = acc[k]
            for i in T.Parallel(block_M):
                O[i] = logsum[i] + acc[0]
    return main
# CHECK-NOT: error:
