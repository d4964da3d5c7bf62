# A torch tensor's `.dtype`, when tlc knows it (a factory's dtype=, a
# conversion), is the torch dtype: a dict keyed by torch dtypes maps it to
# the kernel's dtype string, so a kernel factory called from an autograd
# Function's forward (and backward, with the tensors forward saved) traces
# at the dtypes the tensors have (the upstream LayerNorm example), with no
# "cannot evaluate dtype" warning. Unknown dtypes stay unknown.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s

import torch
import tilelang
import tilelang.language as T

_TO_TL = {torch.float16: "float16", torch.bfloat16: "bfloat16"}


@tilelang.jit(out_idx=[1])
def scale_fwd(N, in_dtype="float32"):
    @T.prim_func
    def fwd(X: T.Tensor((N,), in_dtype), Y: T.Tensor((N,), in_dtype)):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                Y[bx * 128 + i] = X[bx * 128 + i] * T.cast(2.0, in_dtype)

    return fwd


@tilelang.jit(out_idx=[1])
def scale_bwd(N, in_dtype="float32"):
    @T.prim_func
    def bwd(dY: T.Tensor((N,), in_dtype), dX: T.Tensor((N,), in_dtype)):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i in T.Parallel(128):
                dX[bx * 128 + i] = dY[bx * 128 + i] * T.cast(2.0, in_dtype)

    return bwd


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        (N,) = x.shape
        ctx.save_for_backward(x)
        return scale_fwd(N, in_dtype=_TO_TL[x.dtype])(x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        (N,) = x.shape
        return scale_bwd(N, in_dtype=_TO_TL[x.dtype])(dy)


x = torch.randn(1024, dtype=torch.bfloat16, device="cuda", requires_grad=True)
y = Scale.apply(x)
y.backward(torch.randn(1024, dtype=torch.bfloat16, device="cuda"))
# A conversion keeps the dtype known: float16 here.
h = torch.randn(512, device="cuda").half()
scale_fwd(512, in_dtype=_TO_TL[h.dtype])(h)

# CHECK: tile.func @scale_fwd(%X: !tile.buffer<[1024], bf16, global>, %Y: !tile.buffer<[1024], bf16, global>)
# CHECK: tile.func @scale_bwd(%dY: !tile.buffer<[1024], bf16, global>, %dX: !tile.buffer<[1024], bf16, global>)
# CHECK: tile.func @scale_fwd{{.*}}(%X: !tile.buffer<[512], f16, global>, %Y: !tile.buffer<[512], f16, global>)
