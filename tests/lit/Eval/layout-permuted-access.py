# A T.Parallel that touches every element of a fragment once through a
# permuted index (`y[t + 64 * k] = x[2 * t + k]`), newer TileLang's issue
# 2963 kernels. Layout inference gives such a fragment, when nothing else
# has, the layout the loop implies (each element on the thread that runs
# the iteration touching it), as TileLang inverts the access. Before, the
# fragment stayed without one until a later T.copy chose its own, which the
# loop then contradicted: "layout conflict on 'y'" between two layouts both
# printed "parallel · 2 regs/thread".
# RUN: tlc-build --check %s 2>&1 | not grep -E "(error|warning):"
# RUN: tlc-build --emit=tile --target=cuda:sm_90a --kernel=packed_sink %s | FileCheck %s --check-prefix=SINK
# x is split in pairs (T.copy's partition); the loop runs (t, k) on x's
# holder of 2t + k, thread t, so y[t + 64k] lives on thread t, register k.
# SINK: tile.alloc {layout = #tile.fragment<[128], thread = "i // 2", index = ["i % 2"]
# SINK: tile.alloc {layout = #tile.fragment<[128], thread = "i // 2", index = ["i % 2"]{{.*}}i4, local.fragment>
# SINK: tile.alloc {layout = #tile.fragment<[128], thread = "i % 64", index = ["i // 64"]
# RUN: tlc-build --emit=tile --target=cuda:sm_90a --kernel=tiled_sink %s | FileCheck %s --check-prefix=TILED
# The 2-D fragment written at [(t + 64k) // 16, (t + 64k) % 16]:
# TILED: tile.alloc {layout = #tile.fragment<[8, 16], thread = "16 * (i % 4) + j", index = ["i // 4"]
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 7 --save %t/out > /dev/null
# RUN: %python %S/Inputs/layout_permuted_access_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: packed_sink PASS
# REF: tiled_sink PASS
# REF: unrelated_reads PASS
# REF-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def packed_sink(n=128):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "int4"),
             C: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64):
            x = T.alloc_fragment((n,), "float32")
            q = T.alloc_fragment((n,), "int4")
            y = T.alloc_fragment((n,), "float32")
            T.copy(A, x)
            for i in T.Parallel(n):
                q[i] = T.cast(x[i], "int4")
            for t, k in T.Parallel(64, 2):
                y[t + 64 * k] = x[2 * t + k]
            T.copy(q, B)
            T.copy(y, C)

    return main


@tilelang.jit(out_idx=[1])
def tiled_sink(n=128):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), C: T.Tensor((8, 16), "float32")):
        with T.Kernel(1, threads=64):
            x = T.alloc_fragment((n,), "float32")
            y = T.alloc_fragment((8, 16), "float32")
            T.copy(A, x)
            for t, k in T.Parallel(64, 2):
                y[(t + 64 * k) // 16, (t + 64 * k) % 16] = x[2 * t + k] * 2.0
            T.copy(y, C)

    return main


@tilelang.jit(out_idx=[2, 3])
def unrelated_reads(n=128):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), Q: T.Tensor((n,), "int4"),
             B: T.Tensor((n,), "int4"), C: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64):
            x = T.alloc_fragment((n,), "float32")
            q = T.alloc_fragment((n,), "int4")
            y = T.alloc_fragment((n,), "float32")
            for i in T.Parallel(n):
                x[i] = A[i]
            T.copy(Q, q)
            for t, k in T.Parallel(64, 2):
                B[2 * t + k] = q[2 * t + k]
                y[t + 64 * k] = x[t + 64 * k]
            T.copy(y, C)

    return main


packed_sink()
tiled_sink()
unrelated_reads()
