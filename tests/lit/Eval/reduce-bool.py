# T.reduce_max / reduce_min / reduce_bitand of bool tiles: TileLang refuses
# them when it lowers the kernel (issue 2568: "not supported for bool"),
# so --check accepts the program and every build gives one located error
# per reduction; the other reductions of bool tiles still build.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: not tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=hip:gfx942 --emit=hip %s 2>&1 | FileCheck %s
# CHECK: reduce-bool.py:[[@LINE+18]]:17: error: T.reduce_max is not supported for bool tiles
# CHECK: reduce-bool.py:[[@LINE+19]]:17: error: T.reduce_min is not supported for bool tiles
# CHECK: reduce-bool.py:[[@LINE+20]]:17: error: T.reduce_bitand is not supported for bool tiles
# CHECK-NOT: error
import tilelang
import tilelang.language as T


@tilelang.jit
def reduce_bool(op, M=32, N=32):

    @T.prim_func
    def main(A: T.Tensor((M, N), "bool"), Out: T.Tensor((M,), "bool")):
        with T.Kernel(1, threads=128) as bx:
            A_fr = T.alloc_fragment((M, N), "bool")
            B_fr = T.alloc_fragment((M,), "bool")
            T.copy(A, A_fr)
            if op == "max":
                T.reduce_max(A_fr, B_fr, dim=1)
            elif op == "min":
                T.reduce_min(A_fr, B_fr, dim=1)
            elif op == "bitand":
                T.reduce_bitand(A_fr, B_fr, dim=1)
            else:
                T.reduce_bitor(A_fr, B_fr, dim=1)
            T.copy(B_fr, Out)

    return main


reduce_bool("max")
reduce_bool("min")
reduce_bool("bitand")
reduce_bool("bitor")
