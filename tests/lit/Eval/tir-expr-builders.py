# TVM's expression builders used inside kernels are evaluated as their
# TileLang spellings: `tir.const(v, dtype)` is a typed constant,
# `tir.reinterpret(dtype, v)` reinterprets bits (TVM's argument order, no
# warning), `tir.Cast(dtype, v)` and `tir.if_then_else` are T.Cast and
# T.if_then_else. A decoder written with them analyses and builds; the CPU
# build checks the values against Python.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --target=cuda:sm_90a %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py tir-builders tlc-run %t/cpu %t/w | FileCheck %s --check-prefix=OUT

import tilelang
import tilelang.language as T
from tvm import tir


def nibble_to_f32(byte, pos):
    # The 4-bit field `pos` of a byte, as 2 ** (value - 8) built from its
    # float32 bit pattern (exponent value + 119).
    field = (byte >> (pos.astype("uint32") * tir.const(4, "uint32"))) & tir.const(15, "uint32")
    bits = (field + tir.const(119, "uint32")) << tir.const(23, "uint32")
    return tir.reinterpret("float32", bits)


@tilelang.jit
def decode(N=64):

    @T.prim_func
    def main(Q: T.Tensor((N,), T.uint8), Out: T.Tensor((2 * N,), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(2 * N):
                v = nibble_to_f32(tir.Cast("uint32", Q[i // 2]), i % 2)
                Out[i] = tir.if_then_else(v > tir.const(1.0, "float32"), v, tir.const(0.0, "float32"))

    return main


decode()

# CHECK: tile.func @decode
# CHECK: arith.bitcast {{.*}} : i32 to f32
# CHECK-NOT: opaque
# OUT: tir-builders ok
