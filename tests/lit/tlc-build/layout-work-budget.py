# Layout inference has a work budget per kernel (index operations evaluated
# in its enumerations; 2^29 by default, far above what real kernels need):
# past it, an error at the kernel names the budget, and the other kernels
# of the file keep their layouts. The hidden --layout-work-budget lowers it
# so that a small kernel reaches it. held_rows (a loop over rows holding a
# row index) needs more than 20,000 operations, add_one fewer.
#
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
# DEFAULT-NOT: error
# RUN: not tlc-build --check --layout-work-budget=20000 %s 2>&1 | FileCheck %s
# CHECK: layout-work-budget.py:23:10: error: layout inference stopped: its enumerations of this kernel's layouts ran over 20,000 index operations without settling them
# CHECK-NOT: error
# RUN: not tlc-build --emit=hints --format=json --layout-work-budget=20000 %s 2>/dev/null | FileCheck %s --check-prefix=HINTS
# HINTS: "name":"F",{{.*}}"layout":null
# HINTS: "name":"G",{{.*}}"layout":"parallel · 2 regs/thread"
import tilelang
import tilelang.language as T


@tilelang.jit
def held_rows(M=64, N=64):
    A: T.Tensor((M, N), T.float32)
    with T.Kernel(1, threads=128):
        F = T.alloc_fragment((M, N), T.float32)
        T.copy(A, F)
        for i in T.serial(M):
            for j in T.Parallel(N):
                F[i, j] = F[i, j] * 2
        T.copy(F, A)


@tilelang.jit
def add_one(N=256):
    B: T.Tensor((N,), T.float32)
    with T.Kernel(1, threads=128):
        G = T.alloc_fragment((N,), T.float32)
        T.copy(B, G)
        for i in T.Parallel(N):
            G[i] = G[i] + 1
        T.copy(G, B)
