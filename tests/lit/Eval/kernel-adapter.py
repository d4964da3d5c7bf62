# RUN: tlc-build --verify-diagnostics %s
# `compiled.adapter.dynamic_symbolic_map` is None for a kernel of TileLang's
# default tvm_ffi adapter (it allocates outputs in the callee and keeps no
# map from dynamic symbols to arguments), static or dynamic shape alike. A
# cython adapter keeps one: tlc does not know it, so an assertion on it is
# not decided. A call's outputs are what TileLang returns: a list of
# tensors where there are several, of the parameters' shapes; a parameter
# typed in the function's body gives a tensor of unknown shape, whose sizes
# no assertion refutes.
import torch
import tilelang
import tilelang.language as T


def copy(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(n):
                B[i] = A[i]

    return main


static = tilelang.compile(copy(64), out_idx=[-1])
assert static.adapter.dynamic_symbolic_map is None
dynamic = tilelang.compile(copy(T.dynamic("n")), execution_backend="tvm_ffi")
assert dynamic.adapter.dynamic_symbolic_map is None

cython = tilelang.compile(copy(T.dynamic("n")), execution_backend="cython")
assert cython.adapter.dynamic_symbolic_map is not None
# expected-warning@+1 {{AssertionError: assertion failed}}
assert static.adapter.dynamic_symbolic_map is not None


@T.prim_func
def body_typed(A, B, C):
    m = T.dynamic("m")
    A: T.Tensor[[m], T.float32]
    B: T.Tensor[[m * 2 + 1], T.float32]
    C: T.Tensor[[m + 1], T.float32]
    with T.Kernel(1, threads=1):
        for i in T.serial(m + 1):
            C[i] = T.cast(i, T.float32)


two = tilelang.compile(body_typed, out_idx=[1, 2])
outputs = two(torch.arange(19, dtype=torch.float32))
assert isinstance(outputs, list) and len(outputs) == 2
assert [tuple(value.shape) for value in outputs] == [(39,), (20,)]


@tilelang.jit
def eager_pair(A):
    m = T.dynamic("m")
    A: T.Tensor[[m], T.float32]
    B = T.empty([m], T.float32)
    C = T.empty([m + 1], T.float32)
    with T.Kernel(1, threads=1):
        for i in T.serial(m):
            B[i] = A[i] + 1.0
        for i in T.serial(m + 1):
            C[i] = T.cast(i, T.float32)
    return B, C


pair = eager_pair(torch.arange(29, dtype=torch.float32))
assert isinstance(pair, list)
