# Where the CPU target cannot give each thread its own copy of a local
# buffer that a T.Parallel dealt out by a fragment stores into (here `l`
# is also read by block code, outside any T.Parallel), it runs the loop as
# one loop over a single copy and warns at the store when building for cpu
# (not under --check: the program is fine; parallel-fragment-local-store.py
# is the case it handles).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
# CLEAN-NOT: warning
# RUN: tlc-build --target=cpu --emit=cpp %s 2>&1 >/dev/null | FileCheck %s
# CHECK: parallel-fragment-local-store-warn.py:[[@LINE+15]]:13: warning: this T.Parallel stores into the T.alloc_local buffer 'l' and touches a fragment spread over the threads: the CPU target runs it as one loop over a single copy of the buffer (it is used outside a T.Parallel), where the GPU targets give each thread its own copy
# CHECK: parallel-fragment-local-store-warn.py:[[@LINE+13]]:18: note: the loop
# CHECK-NOT: warning
import tilelang
import tilelang.language as T


@tilelang.jit
def spread(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32"),
           C: T.Tensor((1,), "float32")):
    with T.Kernel(1, threads=128) as _:
        f = T.alloc_fragment((128,), "float32")
        l = T.alloc_local((1,), "float32")
        T.copy(A, f)
        for i in T.Parallel(128):
            l[0] = f[i] * 2.0
        for i in T.Parallel(128):
            f[i] = l[0] + 3.0
        C[0] = l[0]
        T.copy(f, B)
