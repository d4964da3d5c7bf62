# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: tlc-translate --tile-to-cuda %t.mlir | FileCheck %s
# An index read from an index tensor (a scatter into a cache by position)
# may be anything: its guard checks both ends, as the CPU target's does
# (an upper bound alone let a negative position write before the buffer),
# and an int64 position that does not fit the kernel's 32-bit indexing
# becomes -1, which the guard drops, instead of wrapping into range.
# Indices computed from loop variables keep their one-sided guards.
import tilelang
import tilelang.language as T


@tilelang.jit
def set_cache(S=10, D=2, pos_dtype="int64"):

    @T.prim_func
    def main(pos: T.Tensor((S,), pos_dtype), value: T.Tensor((S, D), "float32"),
             cache: T.Tensor((S, D), "float32")):
        with T.Kernel(S, threads=128) as bx:
            slot = pos[bx]
            for i in T.Parallel(D):
                cache[slot, i] = value[bx, i]

    return main


# CHECK-LABEL: void {{.*}}set_cache_kernel(
# CHECK: const int64_t [[X:[a-z0-9_]+]] = pos[bx];
# CHECK: const int [[T:[a-z0-9_]+]] = (int)((long long)(int)([[X]]) == ([[X]]) ? ([[X]]) : -1);
# CHECK: if ([[T]] >= 0 && [[T]] < 10) cache[([[T]]) * 2 + {{[a-z0-9_]+}}] =
k64 = set_cache(10, 2, "int64")

# CHECK-LABEL: void {{.*}}set_cache_1_kernel(
# CHECK: const int [[T32:[a-z0-9_]+]] = (int)(
# CHECK: if ([[T32]] >= 0 && [[T32]] < 10) cache[
k32 = set_cache(10, 2, "int32")
