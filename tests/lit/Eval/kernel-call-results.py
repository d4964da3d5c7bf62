# What a call of a compiled kernel returns where a script tests it: None
# for a kernel without outputs (it writes its arguments), and a profiler's
# timing is some object isinstance cannot decide (a float at run time).
# --check reports no warning or error: were either assertion decided
# false, it would be reported as an AssertionError raised by module-level
# code. The timing's comparison is not checked, and a remark says so.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=remark:
# CHECK: kernel-call-results.py:31:8: remark: tlc cannot check this assertion: `isinstance(ms, float) and ms > 0` depends on a value tlc does not model
import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def accumulate(N, block=64):

    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Acc: T.Tensor((N,), T.int32)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                Acc[bx * block + i] += X[bx * block + i]

    return main


kernel = accumulate(256)
x = torch.ones(256, dtype=torch.int32)
acc = torch.zeros(256, dtype=torch.int32)
assert kernel(x, acc) is None
ms = kernel.get_profiler().do_bench(n_warmup=1, n_repeat=2)
assert isinstance(ms, float) and ms > 0, ms
