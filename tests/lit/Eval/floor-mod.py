# Python's `%` on IR values is TileLang's floormod (TVM's PrimExpr.__mod__):
# the remainder has the sign of the divisor, for ints and floats.
# T.truncmod keeps C's remainder. Indices the IR shows to be non-negative
# (thread, parallel and loop indices, products and sums of them) over a
# positive divisor keep a plain remainder; other operands get the sign
# fix-up. End to end on the CPU target, the outputs are compared with
# Python's own % and math.fmod on inputs with negative values.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/floor_mod_run.py tlc-run %t/art %t | FileCheck %s --check-prefix=OUT

import tilelang
import tilelang.language as T


@tilelang.jit
def mods(N=256, threads=128):
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.float32),
             Floor: T.Tensor((N,), T.int32), NegDivisor: T.Tensor((N,), T.int32),
             Trunc: T.Tensor((N,), T.int32), Index: T.Tensor((N,), T.int32),
             FloatMod: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
            for i in T.Parallel(threads):
                g = bx * threads + i
                Floor[g] = X[g] % 7
                NegDivisor[g] = X[g] % -3
                Trunc[g] = T.truncmod(X[g], 7)
                Index[g] = (g - 100) % 8 + g % 16
                FloatMod[g] = Y[g] % 2.5

    return main


mods()

# X[g] % 7: remainder, then moved by the divisor where it is negative.
# CHECK-LABEL: tile.func @mods
# CHECK: %[[R:.*]] = arith.remsi %{{.*}}, %c7_i32 : i32
# CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[R]], %c0_i32 : i32
# CHECK-NEXT: %[[MOVED:.*]] = arith.addi %[[R]], %c7_i32 : i32
# CHECK-NEXT: arith.select %[[NEG]], %[[MOVED]], %[[R]] : i32
# CHECK-NEXT: tile.store {{.*}} %Floor
# X[g] % -3: moved where the remainder is positive.
# CHECK: %[[R3:.*]] = arith.remsi %{{.*}}, %c-3_i32 : i32
# CHECK: %[[POS:.*]] = arith.cmpi sgt, %[[R3]], %{{.*}} : i32
# CHECK-NEXT: %[[M3:.*]] = arith.addi %[[R3]], %c-3_i32 : i32
# CHECK-NEXT: arith.select %[[POS]], %[[M3]], %[[R3]] : i32
# CHECK-NEXT: tile.store {{.*}} %NegDivisor
# T.truncmod: C's remainder only.
# CHECK: arith.remsi %{{.*}}, %{{.*}} : i32
# CHECK-NEXT: tile.store {{.*}} %Trunc
# (g - 100) % 8 may be negative; g % 16 of the index g is not.
# CHECK: arith.subi
# CHECK: arith.remsi %{{.*}}, %c8 : index
# CHECK: arith.cmpi slt
# CHECK: arith.select
# CHECK: %[[G:.*]] = arith.remsi %{{.*}}, %c16 : index
# CHECK-NEXT: arith.addi %{{.*}}, %[[G]] : index
# Floats: lhs - floor(lhs / rhs) * rhs.
# CHECK: arith.divf
# CHECK-NEXT: math.floor
# CHECK-NEXT: arith.mulf
# CHECK-NEXT: arith.subf
# CHECK-NEXT: tile.store {{.*}} %FloatMod

# OUT: Floor ok
# OUT: NegDivisor ok
# OUT: Trunc ok
# OUT: Index ok
# OUT: FloatMod ok
