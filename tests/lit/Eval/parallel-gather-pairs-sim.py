# The CUDA code of a T.Parallel loop whose iterations read a fragment two
# to an element (`Af[i, j // 2]`, the loop taking its threads from `Af`,
# see parallel-gather-loop.py) computes what the CPU target does: built for
# sm_90a and run on the sim device against the CPU build.
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py gather-pairs tlc-run %t/cpu %t/w | FileCheck %s --check-prefix=REF
# REF: gather-pairs ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM-NOT: FAIL

import tilelang
import tilelang.language as T


@tilelang.jit
def gather_pairs(M=32, K=16):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float32), B: T.Tensor((M, 2 * K), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((M, K), T.float32)
            Af = T.alloc_fragment((M, K), T.float32)
            Df = T.alloc_fragment((M, 2 * K), T.float32)
            T.copy(A, A_shared)
            T.copy(A_shared, Af)
            for i, j in T.Parallel(M, 2 * K):
                Df[i, j] = Af[i, j // 2] * 2.0 + (j % 2)
            T.copy(Df, B)

    return main


gather_pairs()
