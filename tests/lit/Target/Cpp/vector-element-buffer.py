# Tensors of vector elements (TileLang's int8x2 / float16x2 ... dtypes as
# a kernel parameter's element): --check accepts them; the CPU and CUDA
# targets refuse them with a located error that names the TileLang dtype
# and the rewrite. Shared, fragment and local tiles of vector elements (as
# in TileLang's issue 2714 test) are built when the kernel's tensors are
# scalar (../vector-element-buffers.py); a T.alloc_var of a vector dtype
# is a register value (Eval/vector-arith.py).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: not tlc-build --target=cpu -o %t %s 2>&1 | FileCheck %s --check-prefix=CPU
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s --check-prefix=CUDA
# CPU: vector-element-buffer.py:[[@LINE+10]]:9: error: the CPU target does not support values of type vector<2xi8> (TileLang's int8x2: buffers of vector elements are not built; use a buffer of int8 with the lanes as one more innermost dimension)
# CUDA: vector-element-buffer.py:[[@LINE+10]]:14: error: the CUDA target does not support element type 'vector<2xi8>' (TileLang's int8x2: buffers of vector elements are not built; use a buffer of int8 with the lanes as one more innermost dimension)
import tilelang
import tilelang.language as T


@tilelang.jit
def packed(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "int8x2"), B: T.Tensor((N,), "int8x2")):
        with T.Kernel(1, threads=64):
            tx = T.get_thread_binding()
            s = T.alloc_shared((N,), "int8x2")
            s[tx] = A[tx]
            B[tx] = s[tx]

    return main


packed()
