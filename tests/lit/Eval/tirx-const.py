# `tvm.tirx.const(value, dtype)` (TVM's newer namespace) and
# `tvm.tir.const` are typed constant expressions: the value in that dtype,
# so an unsigned constant converts as unsigned and a negative int32 as
# signed, and `.astype` works on it as on any PrimExpr. TileLang
# keeps its quantization helpers under examples/dequantize_gemm/quantize/
# and its tests import them by that dotted path from a checkout's root
# (TileLang issue 2947's test); with no such directory next to the file,
# that path names tlc's model of tilelang.quantize, not an unknown object.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not="warning:" --implicit-check-not="error:"
# RUN: tlc-build --emit=tile %s 2>&1 | FileCheck %s
# DIAG-NOT: {{.}}
import tilelang
import tilelang.language as T
import tvm
from tvm import tirx
from examples.dequantize_gemm.quantize.quantization import _tir_packed_to_unsigned_convert_with_zeros

# CHECK-LABEL: tile.func @consts(
# CHECK: %[[U:.*]] = arith.constant -1 : i32
# CHECK: %[[S:.*]] = arith.constant -1 : i32
# CHECK: arith.uitofp %[[U]] : i32 to f32
# CHECK: arith.sitofp %[[S]] : i32 to f32
# CHECK: %[[B:.*]] = arith.constant -56 : i8
# CHECK: arith.extui %[[B]] : i8 to i32
@T.prim_func
def consts(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=4):
        t = T.get_thread_binding()
        big = tirx.const(4294967295, "uint32")
        neg = tvm.tirx.const(-1, "int32")
        A[t] = big.astype("float32") + neg.astype("float32")
        B[t] = tirx.const(200, "uint8").astype("int32")


# The zero point is subtracted in a signed domain: field - 8, not a
# wrapped uint32.
# CHECK-LABEL: tile.func @dequantize(
# CHECK: %[[ZERO:.*]] = arith.constant 8 : i32
# CHECK: %[[W:.*]] = tile.load %packed
# CHECK: %[[F:.*]] = arith.shrui %[[W]],
# CHECK: %[[M:.*]] = arith.andi %[[F]], %c15_i32
# CHECK: %[[D:.*]] = arith.subi %[[M]], %[[ZERO]] : i32
# CHECK: arith.sitofp %[[D]] : i32 to f16
convert = _tir_packed_to_unsigned_convert_with_zeros("uint", 32)


@T.prim_func
def dequantize(packed: T.Tensor((16,), "uint32"), decoded: T.Tensor((16,), "float16")):
    with T.Kernel(1, threads=16):
        t = T.get_thread_binding()
        decoded[t] = convert(4, packed[t], tirx.const(0, "int32"), tirx.const(8, "uint32"), "float16")
