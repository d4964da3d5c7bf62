# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# A T.Fragment given by its thread map alone (forward_thread_fn, no
# forward_index_fn) gets TileLang's register index: the parts of each
# coordinate the thread map leaves unused, flattened with the first
# dimension outermost. Row-major numbering per thread (`flat // T`,
# `flat % (E / T)`) covers the cyclic and contiguous maps; these take
# pieces of two dimensions at once (the per-token cast example's
# `(i // (blk_m // 4)) * 32 + j % 32`). A map whose unused part of one
# coordinate is split in two (its middle bits used) is left unannotated,
# with the warning.
import tilelang
import tilelang.language as T


@tilelang.jit
def thread_map_only(rows=8, cols=128, threads=128):

    @T.prim_func
    def main(X: T.Tensor((rows, cols), T.float32), Y: T.Tensor((rows, cols), T.float32)):
        with T.Kernel(1, threads=threads):
            a = T.alloc_fragment((rows, cols), T.float32)
            b = T.alloc_fragment((rows, cols), T.float32)
            c = T.alloc_fragment((cols,), T.float32)
            T.annotate_layout({
                # rows // 4 warps over the row groups, lanes over j % 32.
                a: T.Fragment(a.shape, forward_thread_fn=lambda i, j: (i // (rows // 4)) * 32 + j % 32),
                # A column's 4-blocks spread over the threads, row bits unused.
                b: T.Fragment(b.shape, forward_thread_fn=lambda i, j: (j // 4) % 32 + 32 * (i % 4)),
            })
            T.copy(X, a)
            T.copy(a, b)
            T.copy(b, Y)
            for k in T.Parallel(cols):
                c[k] = X[0, k]

    return main


thread_map_only()
thread_map_only(rows=16)


@tilelang.jit
def middle_bits(n=128):

    @T.prim_func
    def main(X: T.Tensor((n,), T.float32), Y: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=8):
            a = T.alloc_fragment((n,), T.float32)
            # DIAG: fragment-thread-map-only.py:[[@LINE+1]]:13: warning: the layout annotated for 'a' is not used: tlc cannot infer a register index for its thread map; give forward_index_fn
            T.annotate_layout({a: T.Fragment(a.shape, forward_thread_fn=lambda i: (i // 4) % 8)})
            T.copy(X, a)
            T.copy(a, Y)

    return main


middle_bits()
# DIAG: warning: layout inference ignores this annotation: not a fragment layout

# CHECK: "instance":"thread_map_only()","name":"a",{{.*}}"layout":"fragment · 8 regs/thread"
# CHECK-SAME: thread = 32 * (i // 2) + j % 32\nindex  = 4 * (i % 2) + j // 32
# CHECK: "instance":"thread_map_only()","name":"b",{{.*}}"layout":"fragment · 8 regs/thread"
# CHECK-SAME: thread = 32 * (i % 4) + j // 4\nindex  = 4 * (i // 4) + j % 4
# CHECK: "instance":"thread_map_only(rows=16)","name":"a",{{.*}}"layout":"fragment · 16 regs/thread"
# CHECK-SAME: thread = 32 * (i // 4) + j % 32\nindex  = 4 * (i % 4) + j // 32
