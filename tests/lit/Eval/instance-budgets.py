# Every traced instance has half the file's evaluation budgets (steps, time,
# memory) of its own: a kernel whose trace runs away stops with an error
# naming the budget, and the file's other kernels are still analysed (the
# file's budget stopped everything after it before).
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: instance-budgets.py:22:17: error: evaluation budget of this instance exhausted (2000000 steps, half the file's); the file's other instances are analysed
# CHECK: instance-budgets.py:18:9: note: in instance runaway()
# CHECK: instance-budgets.py:36:30: error: undefined name 'undefined_name'
# CHECK: instance-budgets.py:33:9: note: in instance fine()
import tilelang
import tilelang.language as T


@tilelang.jit
def runaway(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as _:
            n = 0
            while True:
                n = n + 1
            for i in T.Parallel(N):
                A[i] = 1.0

    return main


@tilelang.jit
def fine(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as _:
            for i in T.Parallel(N):
                A[i] = 2.0 + undefined_name

    return main
