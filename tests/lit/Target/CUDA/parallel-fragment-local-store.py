# A T.Parallel that touches a fragment spread over the threads and stores
# into a T.alloc_local buffer: TileLang's layout inference partitions no
# loop that stores into "local" scope (every thread runs every iteration,
# reading the fragment from its own registers at each element's register
# index: elements of other threads). tlc deals the iterations out by the
# fragment's layout, as it does any loop over a fragment, and says so at
# the store when building for a GPU target (the next loop, which reads the
# local buffer and stores into the fragment, is partitioned in both).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECK-CLEAN --allow-empty
# CHECK-CLEAN-NOT: warning
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 >/dev/null | FileCheck %s
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s 2>&1 >/dev/null | FileCheck %s
# CHECK: parallel-fragment-local-store.py:[[@LINE+19]]:13: warning: this T.Parallel stores into the T.alloc_local buffer 'l' and touches a fragment spread over the threads
# CHECK-SAME: where TileLang runs such a loop whole in every thread
# CHECK: note: the loop
# CHECK-NOT: warning
# (The CPU target gives `l` a copy per thread and runs both loops on their
# owning threads, the GPU targets' 2 * A[t] + 3:
# Target/Cpp/parallel-fragment-local-store.py checks it against NumPy and
# the sim.)
import tilelang
import tilelang.language as T


@tilelang.jit
def spread(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as _:
        f = T.alloc_fragment((128,), "float32")
        l = T.alloc_local((1,), "float32")
        T.copy(A, f)
        for i in T.Parallel(128):
            l[0] = f[i] * 2.0
        for i in T.Parallel(128):
            f[i] = l[0] + 3.0
        T.copy(f, B)
