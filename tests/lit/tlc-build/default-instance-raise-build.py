# A kernel no call site instantiates whose body raises when traced (its
# parameters are symbols) is only warned about by --check, but its body
# stops at the raise: building it would write a kernel that silently does
# less. A build refuses it with an error at the raise and writes nothing
# for it; the file's other kernels are built. tlc-build used to write the
# cut-off kernel (here, one that never stored B).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECK-ONLY
# RUN: rm -rf %t && not tlc-build --defines-only --target=cpu -o %t %s 2>&1 | FileCheck %s
# RUN: ls %t | FileCheck %s --check-prefix=FILES
# RUN: not tlc-build --target=cpu --emit=cpp %s 2>&1 >/dev/null | FileCheck %s

# CHECK-ONLY: default-instance-raise-build.py:[[@LINE+20]]:13: warning: AttributeError: module 'tilelang.language' has no attribute 'clone_tile'
# CHECK-ONLY-NOT: error:
# CHECK: default-instance-raise-build.py:[[@LINE+18]]:13: error: cannot build this kernel: tracing its body raised here (AttributeError: module 'tilelang.language' has no attribute 'clone_tile'
# CHECK: default-instance-raise-build.py:[[@LINE+29]]:17: error: cannot build this kernel: tracing its body raised here (ValueError: block must divide 256)
# FILES-NOT: eager
# FILES-NOT: checked
# FILES: whole.json

import tilelang
import tilelang.language as T


@tilelang.jit
def eager(A, B, block=64):
    N = T.const("N")
    A: T.Tensor((N,), T.float32)
    B: T.Tensor((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
        s = T.alloc_shared((block,), T.float32)
        T.copy(A[bx * block], s)
        t = T.clone_tile(s)
        T.copy(t, B[bx * block])


@tilelang.jit
def checked(block):

    @T.prim_func
    def main(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
        with T.Kernel(1, threads=128):
            T.copy(A, B)
            if 256 % block != 0:
                raise ValueError("block must divide 256")
            T.fill(B, 0)

    return main


@T.prim_func
def whole(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
    with T.Kernel(1, threads=128):
        T.copy(A, B)
