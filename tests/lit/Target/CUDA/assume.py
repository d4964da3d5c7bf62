# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: tlc-build --emit=hip --target=hip:gfx942 %s | FileCheck %s
# RUN: tlc-build --emit=cpp --target=cpu %s | FileCheck %s --check-prefix=CPU
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nv %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --kernel=fill_range -D N=64 -D l=5 -D r=40 --verify --reference %t/cpu | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --kernel=copy_rows -D M=32 -D N=37 --verify --reference %t/cpu | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ not tlc-run %t/cu --device sim --kernel=fill_range -D N=64 -D l=-1 -D r=40 2>&1 | FileCheck %s --check-prefix=FALSE %}
# SIM: verify A: PASS
# FALSE: a T.assume promise is false
#
# T.assume(cond) on IR values is tile.assume: tile-legalize-bounds drops the
# index checks it proves for the accesses after it (TileLang's
# test_tilelang_language_assume.py looks for no "if (" in the CUDA code),
# and the printers hand it to the C++ compiler (__builtin_assume; on the
# CPU target __builtin_unreachable when false). The CPU target keeps its
# own checks, so the sim runs the unchecked CUDA code against it; a false
# promise (l = -1 writes A[-1]) is reported by the sim, where a GPU would
# write out of bounds.
import tilelang
import tilelang.language as T


@tilelang.jit
def fill_range():
    N = T.dynamic("N")

    # TILE-LABEL: tile.func @fill_range
    # TILE: tile.assume
    # CHECK-LABEL: fill_range_kernel(
    # CHECK: for (
    # CHECK: __builtin_assume(
    # CHECK-NOT: if (
    # CHECK: A[{{.*}}] = 0.0f;
    # CPU-LABEL: fill_range
    # CPU: __builtin_unreachable();
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), l: T.int32, r: T.int32):
        with T.Kernel(1, threads=32):
            for i in T.serial(r - l + 1):
                T.assume(l + i >= 0 and l + i < N)
                A[l + i] = 0

    return main


@tilelang.jit
def copy_rows():
    M = T.dynamic("M")
    N = T.dynamic("N")

    # A loop variable of T.serial(N) indexes N's dimension unchecked; the
    # thread index is checked against M until a promise says tid < M.
    # CHECK-LABEL: copy_rows_kernel(
    # CHECK: __builtin_assume(
    # CHECK-NOT: if (
    # CHECK-NOT: ?
    # CHECK: }
    @T.prim_func
    def main(B: T.Tensor((M, N), "float32"), A: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=32):
            tid = T.get_thread_binding()
            T.assume(tid < M)
            for j in T.serial(N):
                A[tid, j] = B[tid, j] * 2.0

    return main


fill_range()
copy_rows()
