# T.reduce_argmax / T.reduce_argmin(buffer, out, dim=-1): the index along
# dim of the largest / smallest element, the first one on ties (+0.0 and
# -0.0 are equal), the first NaN when a row holds one; out is int32 or
# int64 shaped like the input without dim or with extent 1 there. They
# were tile.intrinsic calls no target built ("'T.reduce_argmin' is not
# supported by the CUDA target yet"); now two tile reductions. The inputs
# (Inputs/arg_reduce_inputs.py) are full of ties, signed zeros, infinities
# and NaNs; NumPy's argmax/argmin (which share these rules) check the CPU
# target and, in arg-reduce-sim.test, the CUDA code on the sim device.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=argmax_rows %s | FileCheck %s --check-prefix=TILE
# TILE: tile.reduce max %{{.*}} dim = 1 clear
# TILE: tile.parallel
# TILE: math.isnan
# TILE: tile.reduce min %{{.*}} dim = 1 clear
# TILE: tile.parallel
# TILE-NOT: tile.intrinsic
# RUN: tlc-build --emit=tile --kernel=argmax_u16 %s | FileCheck %s --check-prefix=INT
# INT-NOT: math.isnan
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/arg_reduce_inputs.py %t/in
# RUN: tlc-run %t/cpu --inputs %t/in --save %t/out > /dev/null
# RUN: %python %S/Inputs/arg_reduce_ref.py %t/in %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-16: PASS
# REF-NOT: FAIL
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s > /dev/null
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s > /dev/null
import tilelang
import tilelang.language as T


def arg_kernel(shape, dim, kind, dtype, index_dtype, out_shape, threads=128,
               src_shared=False, dst_shared=False):
    op = T.reduce_argmax if kind == "max" else T.reduce_argmin

    @T.prim_func
    def main(A: T.Tensor(shape, dtype), B: T.Tensor(out_shape, index_dtype)):
        with T.Kernel(1, threads=threads):
            if src_shared:
                src = T.alloc_shared(shape, dtype)
            else:
                src = T.alloc_fragment(shape, dtype)
            if dst_shared:
                dst = T.alloc_shared(out_shape, index_dtype)
            else:
                dst = T.alloc_fragment(out_shape, index_dtype)
            T.copy(A, src)
            op(src, dst, dim)
            T.copy(dst, B)

    return main


@tilelang.jit
def argmax_rows():
    return arg_kernel((4, 128), 1, "max", "float32", "int32", (4,))


@tilelang.jit
def argmin_rows_keepdim():
    return arg_kernel((4, 128), -1, "min", "float32", "int64", (4, 1))


@tilelang.jit
def argmax_dim0():
    return arg_kernel((128, 4), 0, "max", "float32", "int32", (4,))


@tilelang.jit
def argmin_middle():
    return arg_kernel((4, 16, 8), 1, "min", "float32", "int32", (4, 8))


@tilelang.jit
def argmax_last_256():
    return arg_kernel((2, 4, 64), -1, "max", "float32", "int64", (2, 4, 1),
                      threads=256)


@tilelang.jit
def argmin_vector():
    return arg_kernel((128,), 0, "min", "float32", "int32", (1,), threads=32)


@tilelang.jit
def argmax_f16_shared():
    return arg_kernel((8, 256), 1, "max", "float16", "int32", (8,),
                      src_shared=True, dst_shared=True)


@tilelang.jit
def argmin_bf16_shared_src():
    return arg_kernel((8, 256), 1, "min", "bfloat16", "int32", (8,),
                      src_shared=True)


@tilelang.jit
def argmax_f64_shared_dst():
    return arg_kernel((8, 256), 1, "max", "float64", "int32", (8,),
                      dst_shared=True)


@tilelang.jit
def argmin_tail_7():
    return arg_kernel((4, 7), 1, "min", "float32", "int32", (4,),
                      src_shared=True)


@tilelang.jit
def argmax_tail_129():
    return arg_kernel((4, 129), 1, "max", "float32", "int32", (4,),
                      src_shared=True)


@tilelang.jit
def argmax_i64():
    return arg_kernel((4, 128), 1, "max", "int64", "int32", (4,))


@tilelang.jit
def argmin_i64():
    return arg_kernel((4, 128), 1, "min", "int64", "int32", (4,))


@tilelang.jit
def argmax_u16():
    return arg_kernel((4, 128), 1, "max", "uint16", "int32", (4,))


@tilelang.jit
def argmin_u64():
    return arg_kernel((4, 128), 1, "min", "uint64", "int64", (4,))


@tilelang.jit
def argmax_i8_pad():
    return arg_kernel((2, 7, 4), 1, "max", "int8", "int64", (2, 4),
                      src_shared=True, dst_shared=True)
