# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s > %t.mlir 2>/dev/null
# RUN: tlc-opt %t.mlir > /dev/null
# RUN: not tlc-build --check --format=json --no-source-lines %s | FileCheck %s --check-prefix=JSON
# T.Parallel bodies are elementwise: no tile operators and no T.Pipelined
# inside (atomics and a T.Parallel that is a T.Parallel's whole body are
# fine; parallel-nested-continuous.py has the other nests). TileLang raises
# the T.Pipelined one from its nested-loop check, a lowering pass: when the
# kernel is compiled, not where its prim_func is defined.
# JSON: "category": "ValueError",
# JSON: "line": 48,
# JSON-NEXT: "message": "ValueError: T.Pipelined cannot be used inside T.Parallel",
# JSON: "raisedAt": "compile",
import tilelang
import tilelang.language as T


@tilelang.jit
def nesting(M=128, N=128):
    A: T.Tensor((M, N), T.float32)
    B: T.Tensor((M, N), T.float32)
    with T.Kernel(1, threads=128) as bx:
        S = T.alloc_shared((M, N), T.float32)
        F = T.alloc_fragment((M, N), T.float32)
        for i in T.Parallel(M):
            for j in T.Parallel(N):
                F[i, j] = A[i, j] * 2
                T.atomic_add(B[i, j], F[i, j])
        for i, j in T.Parallel(M, N):
            # expected-error@+1 {{T.copy cannot be used inside T.Parallel}}
            T.copy(A, S)
            # expected-error@+1 {{T.gemm cannot be used inside T.Parallel}}
            T.gemm(S, S, F)
        for i in T.Parallel(M):
            # expected-error@+1 {{T.reduce_sum cannot be used inside T.Parallel}}
            T.reduce_sum(F, S[0, :], dim=0)


# A T.Pipelined inside a T.Parallel raises the ValueError TileLang raises
# (which ends the kernel's evaluation, as in Python).
@tilelang.jit
def pipelined_in_parallel(M=128):
    A: T.Tensor((M, 4), T.float32)
    with T.Kernel(1, threads=128) as bx:
        F = T.alloc_fragment((M, 4), T.float32)
        for i in T.Parallel(M):
            # expected-error@+1 {{ValueError: T.Pipelined cannot be used inside T.Parallel}}
            for k in T.Pipelined(4, num_stages=2):
                F[i, k] = 0
        T.copy(F, A)
