# A pointer table whose element views disagree (here in shape) has no one
# pointee: the manifest keeps it a plain int64 tensor (no `pointee`, version
# 1), which the caller fills. pointer-table.py has tables that agree.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t %s
# RUN: FileCheck %s < %t/mixed_views.json
# CHECK: "name": "P",
# CHECK-NOT: pointee
# CHECK: "version": 1
import tilelang.language as T


@T.prim_func
def mixed_views(P: T.Tensor([2], T.ptr), Out: T.Tensor([4], T.float32)):
    with T.Kernel(1, threads=4) as bx:
        A = T.make_tensor(P[0], (4,), T.float32)
        B = T.make_tensor(P[1], (8,), T.float32)
        for i in T.Parallel(4):
            Out[i] = A[i] + B[i]
