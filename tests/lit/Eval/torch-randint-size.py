# torch.randint(low, high, size) has the shape `size` (torch's signature
# `randint(low=0, high, size, ...)`). tlc dropped only `low`, read `high`
# as a size and lost the shape: `tuple(x.shape)` was unknown, and
# TileLang's arg_reduce test built a rank-1 instance of a rank-2 kernel
# (false errors "dim 1 is out of bounds", "0 indices were given").
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
import torch
import tilelang
import tilelang.language as T


@tilelang.jit
def copy_kernel(shape, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor(shape, dtype), B: T.Tensor(shape, dtype)):
        with T.Kernel(1, threads=128):
            T.copy(A, B)
    return main


# CHECK: tile.func @copy_kernel(%A: !tile.buffer<[4, 128], f16, global>
x = torch.randint(0, 32, (4, 128), device="cuda").to(torch.float16)
copy_kernel(tuple(x.shape), "float16")
# CHECK: tile.func @copy_kernel_1(%A: !tile.buffer<[6], f32, global>
y = torch.randint(9, (6,))
copy_kernel(tuple(y.shape))
# CHECK: tile.func @copy_kernel_2(%A: !tile.buffer<[2, 3], f32, global>
z = torch.randint(1, 9, size=(2, 3))
copy_kernel(tuple(z.shape))
