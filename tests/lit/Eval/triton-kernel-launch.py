# Triton kernels next to TileLang ones (TileLang's tests compare the two):
# `@triton.jit` (bare, called with options, under `@triton.autotune` or
# `@triton.heuristics`, or imported as `jit`) makes a Triton kernel object,
# launched as `kernel[grid](...)`. tlc does not analyse Triton code: the
# launch is an opaque call, no warning (it was a false "'function' object
# is not subscriptable"), and the TileLang kernel keeps its hints.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK: "instance":"fill(1024)","name":"A","kind":"tensor","shape":[1024],"dtype":"float32"
import torch
import triton
import triton.language as tl
from triton import jit
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[0])
def fill(M):

    @T.prim_func
    def main(A: T.Tensor((M,), T.float32)):
        with T.Kernel(T.ceildiv(M, 128), threads=128) as bx:
            for i in T.Parallel(128):
                A[bx * 128 + i] = 1.0

    return main


@triton.jit
def triton_fill(X, M, BLOCK: tl.constexpr):
    offset = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(X + offset, 1.0, mask=offset < M)


@triton.autotune(configs=[triton.Config({"BLOCK": 128})], key=["M"])
@triton.jit(do_not_specialize=["M"])
def triton_tuned(X, M, BLOCK: tl.constexpr):
    offset = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(X + offset, 2.0, mask=offset < M)


@triton.heuristics({"EVEN": lambda args: args["M"] % 128 == 0})
@jit
def triton_even(X, M, EVEN: tl.constexpr):
    offset = tl.program_id(0) * 128 + tl.arange(0, 128)
    tl.store(X + offset, 3.0)


M = 1024
a = fill(M)()
b = torch.empty(M, device="cuda")
triton_fill[(triton.cdiv(M, 128),)](b, M, BLOCK=128)
triton_tuned[lambda meta: (triton.cdiv(M, meta["BLOCK"]),)](b, M)
triton_even[(M // 128,)](b, M)
torch.testing.assert_close(a, b)
