# TileLang's Ascend T.set_hf32_mode(mode=None) (None, "nearest_zero",
# "nearest_even", by position or as mode=) and T.MixedKernel(blocks,
# sids=2) with `as (bx, sid)`: --check accepts them with no diagnostic and
# the sub-core index is an i32 the body computes with; building for a tlc
# target refuses the kernel at its first Ascend-only name.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=mixed %s | FileCheck %s --check-prefix=TILE
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=BUILD
# TILE: %[[SID:.*]] = tile.intrinsic "T.MixedKernel"() {options = {sids = 1 : i64}} : () -> i32
# TILE: tile.intrinsic "tlc.ascend"() {options = {what = "T.MixedKernel"}}
# TILE: tile.intrinsic "T.set_hf32_mode"() {options = {mode = "nearest_even"}}
# TILE: arith.muli %[[SID]], %c32_i32 : i32
# BUILD: ascend-modes.py:[[@LINE+12]]:14: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.MixedKernel,
# BUILD: ascend-modes.py:[[@LINE+28]]:13: error: cannot build this kernel: it is written for Huawei Ascend NPUs (T.set_hf32_mode,
# BUILD-NOT: error
import tilelang
import tilelang.language as T


@tilelang.jit
def mixed(M=128, N=64, TM=64):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.MixedKernel(M // TM, sids=1) as (bx, sid):
            T.set_hf32_mode("nearest_even")
            half = T.alloc_shared((TM // 2, N), T.float32)
            with T.Vector(1):
                T.copy(X[bx * TM + sid * 32, 0], half)
                T.copy(half, Y[bx * TM + sid * 32, 0])
            T.set_hf32_mode(None)

    return main


@tilelang.jit
def modes(M=64):

    @T.prim_func
    def main(X: T.Tensor((M,), T.float32)):
        with T.Kernel(1) as bx:
            T.set_hf32_mode()
            T.set_hf32_mode(mode="nearest_zero")
            T.set_hf32_mode(mode=None)

    return main
