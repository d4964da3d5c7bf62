# tile-plan-tma-strides.test: pipelined GEMMs over strided operands, one
# kernel body (a macro) per operand strides.
import tilelang.language as T


@T.macro
def pipelined_gemm(A, B, C):
    with T.Kernel(2, 2, threads=128) as (bx, by):
        A_s = T.alloc_shared((64, 32), T.float16)
        B_s = T.alloc_shared((32, 64), T.float16)
        C_l = T.alloc_fragment((64, 64), T.float32)
        T.clear(C_l)
        for k in T.Pipelined(4, num_stages=2):
            T.copy(A[by * 64, k * 32], A_s)
            T.copy(B[k * 32, bx * 64], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[by * 64, bx * 64])


@T.prim_func
def padded(A: T.StridedTensor[(128, 128), (192, 1), T.float16],
           B: T.StridedTensor[(128, 128), (136, 1), T.float16],
           C: T.Tensor((128, 128), T.float32)):
    pipelined_gemm(A, B, C)


@T.prim_func
def transposed(A: T.StridedTensor[(128, 128), (1, 128), T.float16],
               B: T.Tensor((128, 128), T.float16),
               C: T.Tensor((128, 128), T.float32)):
    pipelined_gemm(A, B, C)


@T.prim_func
def unaligned(A: T.StridedTensor[(128, 128), (132, 1), T.float16],
              B: T.Tensor((128, 128), T.float16),
              C: T.Tensor((128, 128), T.float32)):
    pipelined_gemm(A, B, C)
