# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# `str(torch.float32)` is "torch.float32", and scripts slice the prefix off
# to get TileLang's dtype name (`str(dtype)[len("torch."):]`). tlc printed
# every torch dtype as a placeholder, so the slice gave "t>" and the kernel
# an "unknown dtype" error. torch's aliases print by their canonical names.
# CPython runs this file too (`%python %s`, with Debian's torch): the
# assertions hold in both (CPython has no tilelang: the kernels are traced by
# tlc only).
import torch

assert str(torch.float32) == "torch.float32"
assert repr(torch.bfloat16) == "torch.bfloat16"
assert str(torch.half) == "torch.float16"
assert str(torch.long) == "torch.int64"
if hasattr(torch, "float8_e4m3fn"):  # torch >= 2.1
    assert f"{torch.float8_e4m3fn}" == "torch.float8_e4m3fn"
assert str(torch.int8)[len("torch."):] == "int8"


def scale(n, dtype="float32"):
    import tilelang.language as T

    @T.prim_func
    def main(X: T.Tensor((n,), dtype), Y: T.Tensor((n,), dtype)):
        with T.Kernel(T.ceildiv(n, 128), threads=128) as bx:
            for i in T.Parallel(128):
                if bx * 128 + i < n:
                    Y[bx * 128 + i] = X[bx * 128 + i] * 2

    return main


try:
    # CHECK-LABEL: tile.func @scale(
    # CHECK-SAME: !tile.buffer<[100], bf16, global>
    k1 = scale(100, str(torch.bfloat16)[len("torch."):])
    # CHECK-LABEL: tile.func @scale_1(
    # CHECK-SAME: !tile.buffer<[64], f16, global>
    k2 = scale(64, str(torch.half).split(".")[-1])
except ImportError:
    pass
