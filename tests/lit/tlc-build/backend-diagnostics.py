# A back end's refusal reads like every other diagnostic: file:line:col,
# the source line and a caret, never an MLIR location.
# RUN: not tlc-build --target=cuda:sm_90a -o %t %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --no-source-lines -o %t %s 2>&1 | FileCheck %s --check-prefix=BARE

# CHECK-NOT: loc(
# CHECK: backend-diagnostics.py:[[@LINE+14]]:17: error: local buffers need static shapes on the CUDA target
# CHECK-NEXT: {{^}}            S = T.alloc_local((N,), "float32")
# CHECK-NEXT: {{^}}                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
# BARE: backend-diagnostics.py:[[@LINE+11]]:17: error: local buffers need static shapes on the CUDA target
# BARE-NOT: T.alloc_local

import tilelang
import tilelang.language as T


def copy_row(N):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_local((N,), "float32")
            T.copy(A, S)
            T.copy(S, B)

    return main


# A run-time extent (T.dynamic) reaches the back end: the local buffer has no
# static shape (a shared one is sized at launch: dynamic-shared-buffer.py).
copy_row(T.dynamic("N"))
