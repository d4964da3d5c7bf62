# A loop target named like a T.alloc_var binds the name afresh, as Python's
# `for` does: the loop does not store into the variable, and a name bound to
# the variable before (`saved = d`) still reads it. A T.alloc_var declared in
# a loop body that has ended is out of scope after it: assigning its name
# there (a loop target, `d = k + 10`) is a new binding, not a store into a
# variable the generated code no longer declares (the host C++ compiler
# rejected it: 'd' was not declared in this scope).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --target=cpu --kernel=live %s | FileCheck %s --check-prefix=LIVE
# LIVE: %var = tile.alloc init(%c19_i32 : i32) : !tile.buffer<[1], i32, local.var>
# LIVE-NOT: tile.store {{.*}}local.var
# LIVE: tile.for %d =
# LIVE-NOT: tile.store {{.*}}local.var
# LIVE: tile.load %var[] : !tile.buffer<[1], i32, local.var>
# LIVE-NEXT: tile.store
# RUN: tlc-build --emit=tile --target=cpu --kernel=expired %s | FileCheck %s --check-prefix=EXPIRED
# EXPIRED-COUNT-1: tile.alloc init
# EXPIRED-NOT: tile.store {{.*}}local.var
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s 2>&1 | FileCheck %s --check-prefix=BUILD
# BUILD-NOT: error
# BUILD: wrote {{.*}}expired
import tilelang
import tilelang.language as T


@T.prim_func
def live(A: T.Tensor((5,), "int32")):
    with T.Kernel(1, threads=1):
        d = T.alloc_var("int32", init=19)
        saved = d
        for d in T.serial(0, 4, step=2):
            A[d] = d
        A[4] = saved


@T.prim_func
def expired(A: T.Tensor((8,), "int32")):
    with T.Kernel(1, threads=1):
        for j in T.serial(2):
            d = T.alloc_var("int32", init=j)
            A[j] = d
        for d, j in T.grid(2, 2):
            A[2 + d * 2 + j] = d * 2 + j
        for k in T.serial(2):
            d = k + 10
            A[6 + k] = d
