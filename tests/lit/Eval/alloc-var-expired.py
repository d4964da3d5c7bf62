# A T.alloc_var exists only inside the loop body or branch that declared it
# (the generated C++/CUDA declares it there). Reading it after that region
# ended, directly, through an alias bound inside, as an index or through
# `v[0]`, or augmenting it, is an error at the read with a note at the
# declaration (it was code naming an undeclared variable, rejected late by
# the host or CUDA compiler). Reads inside the region, and a var declared
# before the loop, are fine.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: alloc-var-expired.py:38:17: note: 'd' declared here
# CHECK: alloc-var-expired.py:40:16: error: T.alloc_var 'd' is used after the region that declared it ended
# CHECK: alloc-var-expired.py:48:21: note: 'v' declared here
# CHECK: alloc-var-expired.py:52:16: error: T.alloc_var 'v' is used after
# CHECK: alloc-var-expired.py:53:11: error: T.alloc_var 'v' is used after
# CHECK: alloc-var-expired.py:54:16: error: T.alloc_var 'v' is used after
# CHECK: alloc-var-expired.py:61:17: note: 'w' declared here
# CHECK: alloc-var-expired.py:63:9: error: T.alloc_var 'w' is used after
# CHECK-NOT: error
# RUN: tlc-build --emit=tile --target=cpu --kernel=declared_before %s | FileCheck %s --check-prefix=OK
# OK: tile.func @declared_before
import tilelang
import tilelang.language as T


@T.prim_func
def declared_before(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1):
        d = T.alloc_var("int32", init=0)
        for j in T.serial(2):
            d = d + j
            A[j] = d
        A[3] = d + 1


@T.prim_func
def expired_read(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1):
        for j in T.serial(2):
            d = T.alloc_var("int32", init=j)
            A[j] = d
        A[3] = d + 1


@T.prim_func
def expired_in_branch(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1):
        for j in T.serial(2):
            if A[j] > 0:
                v = T.alloc_var("int32")
                s = v
                v = 5
                A[j] = s
        A[0] = v[0]
        A[v] = 1
        A[1] = s


@T.prim_func
def expired_augassign(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1):
        for j in T.serial(2):
            w = T.alloc_var("int32", init=1)
            A[j] = w
        w += 1
