# A loop target exists only inside its loop (the generated C++/CUDA declares
# it there), although Python keeps the name bound after the loop. Reading it
# after the loop, directly or in an expression, index or nested loop bound,
# is an error at the read (it was C++ naming an undeclared variable, rejected
# late by the host compiler). Reads inside the loop, a target rebound by a
# later loop, and a value kept in a T.alloc_var declared before the loop
# are fine.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: loop-target-expired.py:38:16: error: 'd' is the target of a loop that has ended
# CHECK: loop-target-expired.py:46:11: error: 'i' is the target of a loop that has ended
# CHECK: loop-target-expired.py:47:19: error: 'j' is the target of a loop that has ended
# CHECK: loop-target-expired.py:48:27: error: 'i' is the target of a loop that has ended
# CHECK-NOT: error
# RUN: tlc-build --emit=tile --target=cpu --kernel=still_fine %s | FileCheck %s --check-prefix=OK
# OK: tile.func @still_fine
# OK: tile.for %d
# OK: tile.for %d
import tilelang
import tilelang.language as T


@T.prim_func
def still_fine(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1):
        last = T.alloc_var("int32", init=0)
        for d in T.serial(2):
            A[d] = d
            last = d
        for d in T.serial(2, 4):
            A[d] = d + last


@T.prim_func
def read_after_loop(A: T.Tensor((1,), "int32")):
    with T.Kernel(1, threads=1):
        for d in T.serial(2):
            A[0] = d
        A[0] = d


@T.prim_func
def uses_after_loops(A: T.Tensor((4, 4), "int32")):
    with T.Kernel(1, threads=1):
        for i, j in T.grid(4, 4):
            A[i, j] = i + j
        A[i, 0] = 1
        A[0, 0] = j * 2
        for k in T.serial(i):
            A[k, k] = 0
