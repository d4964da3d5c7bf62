# torch.autograd.Function: `Cls.apply(*args)` runs `forward(ctx, *args)`
# with a context that keeps what forward saves (`ctx.save_for_backward`,
# attributes), then `backward(ctx, *grads)` with a gradient of each
# output's shape, as `loss.backward()` would. The backward kernels trace at
# the sizes forward saw (not as default instances with symbolic sizes, which
# no target can build), and build.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t %s | FileCheck %s --check-prefix=BUILD

import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def square(M, N, block=32):
    @T.prim_func
    def fwd(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            for i, j in T.Parallel(block, N):
                Y[bx * block + i, j] = X[bx * block + i, j] * X[bx * block + i, j]

    return fwd


@tilelang.jit(out_idx=[2])
def square_bwd(M, N, scale, block=32):
    @T.prim_func
    def bwd(X: T.Tensor((M, N), T.float32), dY: T.Tensor((M, N), T.float32),
            dX: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, block), threads=128) as bx:
            for i, j in T.Parallel(block, N):
                dX[bx * block + i, j] = dY[bx * block + i, j] * X[bx * block + i, j] * scale

    return bwd


class _Square(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x):
        M, N = x.shape
        ctx.save_for_backward(x)
        ctx.two = 2.0
        return square(M, N)(x)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        M, N = x.shape
        return square_bwd(M, N, (1.0 / N) ** 0 * ctx.two)(x, dy)


x = torch.randn(256, 64).requires_grad_()
y = _Square.apply(x)
y.sum().backward()

# CHECK: tile.func @square(%X: !tile.buffer<[256, 64], f32, global>, %Y: !tile.buffer<[256, 64], f32, global>)
# CHECK: tile.func @square_bwd(%X: !tile.buffer<[256, 64], f32, global>, %dY: !tile.buffer<[256, 64], f32, global>, %dX: !tile.buffer<[256, 64], f32, global>)
# CHECK: arith.constant 2.000000e+00 : f32
# BUILD: wrote {{.*}}/square.so
# BUILD: wrote {{.*}}/square_bwd.so
