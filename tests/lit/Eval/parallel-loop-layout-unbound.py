# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# RUN: tlc-build --check --kernel=unbound %s 2>&1 | FileCheck %s --check-prefix=ASKED
# A kernel that takes its T.Parallel loop_layout as a parameter. With no call
# site the layout has no value: the loop is analysed without it (no error,
# and no warning either: only a call supplies it, and TileLang traces no
# factory nothing calls; --kernel asking for it says what was assumed). A
# test that builds the kernel through `kernel.compile(...)` is a call site:
# its fragment is the loop's layout.
# ASKED: parallel-loop-layout-unbound.py:[[@LINE+11]]:38: warning: loop_layout 'placement' has no value in this instance; the loop is analysed without it
import tilelang
import tilelang.language as T


@tilelang.jit
def unbound(X, Y, placement):
    M, N = T.const("M, N")
    X: T.Tensor[(M, N), T.float16]
    Y: T.Tensor[(M, N), T.float16]
    with T.Kernel(1, threads=64):
        for i, j in T.Parallel(M, N, loop_layout=placement):
            Y[i, j] = X[i, j] * 2


@tilelang.jit
def bound(X, Y, placement):
    M, N = T.const("M, N")
    X: T.Tensor[(M, N), T.float16]
    Y: T.Tensor[(M, N), T.float16]
    with T.Kernel(1, threads=64):
        acc = T.alloc_fragment((M, N), T.float16)
        for i, j in T.Parallel(M, N, loop_layout=placement):
            acc[i, j] = X[i, j]
        T.copy(acc, Y)


def test_rows_to_threads():
    # Row i to thread i, its 16 columns in registers.
    placement = T.Fragment((64, 16), forward_fn=lambda i, j: (i, j))
    bound.compile(M=64, N=16, placement=placement)


# The fragment the test passes decides acc's layout: thread = i.
# CHECK: "name":"acc","kind":"buffer","shape":[64,16],{{.*}}"layout":"{{[^"]*}}16 regs/thread"{{.*}}thread = i\n
