# T.call_intrin of a TileLang operator named through TVM's registry
# (`tvm.tirx.op.Op.get("tl.prefetch_tma_descriptor")`) or by its name, on a
# `T.handle("uint8x128", "grid_constant")` parameter (a TMA descriptor
# passed by value): an opaque call that keeps the operator's name, the
# handle as its operand and the declared result type. tlc lost both (the
# op was "<object>", the parameter was no parameter and the argument
# "<object>"; corpus44 G8, upstream test_tilelang_cuda_intrinsic_arch_
# guards and issue_2504).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECKED --allow-empty
# CHECKED-NOT: {{error|warning}}
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @main(%descriptor: i64, %p: i64)
# CHECK: tile.intrinsic "T.call_intrin"(%descriptor) {options = {op = "tl.prefetch_tma_descriptor"}, params = ["args"]} : (i64) -> i64
# CHECK: tile.intrinsic "T.call_intrin"(%descriptor) {options = {op = "tl.prefetch_tma_descriptor"}, params = ["args"]} : (i64) -> i64
# CHECK: tile.intrinsic "T.call_extern"(%p) {options = {func_name = "tl::prefetch_tma_descriptor"}, params = ["args"]} : (i64) -> i64
import tilelang.language as T
from tilelang import tvm


@T.prim_func
def main(descriptor: T.handle("uint8x128", "grid_constant"), p: T.handle):
    with T.Kernel(1, threads=32):
        if T.shuffle_elect(0):
            T.call_intrin("handle", tvm.tirx.op.Op.get("tl.prefetch_tma_descriptor"), descriptor)
        T.call_intrin("handle", "tl.prefetch_tma_descriptor", descriptor)
        T.call_extern("handle", "tl::prefetch_tma_descriptor", p)
