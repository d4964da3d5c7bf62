# RUN: tlc-build --verify-diagnostics %s
# A compiled kernel's `params` (TileLang's KernelParam objects: `shape`, a
# list of the sizes, and `dtype`, the torch dtype) and `result_idx` (the
# parameter indices out_idx made outputs, negative ones counted from the
# end). Scripts allocate the inputs from them and pass the list to a
# reference with `*ins`; a size tlc does not know (a dynamic dimension) is
# an unknown value. Wrong expectations are refuted, at the assertion.
import torch
import tilelang
import tilelang.language as T


def scale_rows(m, n):

    @T.prim_func
    def main(A: T.Tensor((m, n), T.float16), s: T.Tensor((m,), T.float32), B: T.Tensor((m, n), T.float32)):
        with T.Kernel(1, threads=128):
            for i, j in T.Parallel(m, n):
                B[i, j] = A[i, j] * s[i]

    return main


def reference(A, s):
    return A.float() * s[:, None]


kernel = tilelang.compile(scale_rows(64, 32), out_idx=[-1])
assert len(kernel.params) == 3
assert kernel.result_idx == [2]
assert kernel.params[0].shape == [64, 32]
assert kernel.params[1].shape == [64]
assert kernel.params[0].dtype == torch.float16
assert kernel.params[2].dtype == torch.float32
ins = []
for i in range(len(kernel.params)):
    if i not in kernel.result_idx:
        shape = [int(x) for x in kernel.params[i].shape]
        ins.append(torch.randn(shape, device="cuda", dtype=kernel.params[i].dtype))
assert len(ins) == 2
ref = reference(*ins)
out = kernel(*ins)

# expected-warning@+1 {{AssertionError: assertion failed}}
assert kernel.result_idx == [0]
# expected-warning@+1 {{AssertionError: assertion failed}}
assert kernel.params[1].shape == [32]

# A dynamic size is unknown: no assertion on it is decided.
dynamic = tilelang.compile(scale_rows(T.dynamic("m"), 32), out_idx=[2])
assert dynamic.params[0].shape[1] == 32
assert dynamic.params[0].shape[0] == 64
