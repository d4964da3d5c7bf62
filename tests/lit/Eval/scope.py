# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s > %t.mlir 2>/dev/null
# RUN: tlc-opt %t.mlir > /dev/null
# Shared and fragment buffers exist only inside the T.Kernel region that
# allocates them.
import tilelang
import tilelang.language as T


@T.prim_func
def two_kernels(A: T.Tensor((256,), T.float32), B: T.Tensor((256,), T.float32)):
    # expected-error@+1 {{T.alloc_shared can only be used inside a T.Kernel region}}
    early = T.alloc_shared((128,), T.float32)
    workspace = T.alloc_global((256,), T.float32)
    with T.Kernel(2, threads=128) as bx:
        frag = T.alloc_fragment((128,), T.float32)
        T.copy(A[bx * 128], frag)
        T.copy(frag, workspace[bx * 128])
    with T.Kernel(2, threads=128) as bx:
        # expected-error@+1 {{fragment buffer 'frag' belongs to another T.Kernel region}}
        T.copy(frag, B[bx * 128])
        T.copy(workspace[bx * 128], B[bx * 128])
    # expected-error@+1 {{T.copy can only be used inside a T.Kernel region}}
    T.copy(A, B)
