# A stride tlc cannot evaluate (`view.stride(1)` of a torch view) is a
# dynamic symbol of the kernel, `NAME_strideD`, bound from the argument's
# stride at launch, as an extent it cannot evaluate is `NAME_shapeD`
# (issue 12, H10: language/test_tilelang_language_subtype's strided
# kernels). It was an error: "strides must be integers or symbols, not
# 'object'". A stride of another type is still one.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECK-ERR
# CHECK-ERR: strided-opaque-stride.py:[[# @LINE + 23]]:78: error: strides must be integers or symbols, not 'str'
# CHECK-ERR-NOT: error
# RUN: tlc-build --emit=tile --kernel=kern %s | FileCheck %s
# CHECK: tile.func @kern(%src: !tile.buffer<[n, 128], f32, global>, %dst: !tile.buffer<[n, 128], f32, global> {tile.strides = ["dst_stride0", 1]}) symbols(n: dynamic, dst_stride0: dynamic)
import torch
import tilelang
import tilelang.language as T


@tilelang.jit
def kern(s0):
    n = T.dynamic("n")

    @T.prim_func
    def f(src: T.Tensor((n, 128), T.float32), dst: T.StridedTensor((n, 128), (s0, 1), T.float32)):
        with T.Kernel(n, threads=128) as i:
            for k in T.Parallel(128):
                dst[i, k] = src[i, k]

    return f


@T.prim_func
def named(src: T.Tensor((8, 128), T.float32), dst: T.StridedTensor((8, 128), ("pitch", 1), T.float32)):
    with T.Kernel(8, threads=128) as i:
        for k in T.Parallel(128):
            dst[i, k] = src[i, k]


back = torch.zeros(8, 132 * 4, device="cuda")
view = back[:, :128 * 4].view(8, 4, 128)
kern(view.stride(1))
