# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --target=cuda:sm_90a --kernel=mixed -o %t %s 2>&1 | FileCheck %s --check-prefix=BUILD
# A and B of one T.gemm may differ in dtype where the MMA takes a type per
# operand: any two of the FP8/FP6/FP4 codes (sm_120's kind::f8f6f4, wgmma's
# e4m3 x e5m2), and signed with unsigned integers of one width (.s8.u8).
# Other pairs stay errors. Whether a target generates a pair is its build's
# question: the sm_90a build refuses e4m3 x e5m2 at the gemm, --check does
# not.
import tilelang
import tilelang.language as T


@tilelang.jit
def mixed(block_M=64, block_N=64, block_K=64):
    with T.Kernel(1, 1, threads=128) as (bx, by):
        A8 = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
        B8 = T.alloc_shared((block_N, block_K), T.float8_e5m2)
        A4 = T.alloc_shared((block_M, block_K), T.float4_e2m1fn)
        B48 = T.alloc_shared((block_N, block_K), T.float8_e4m3fn)
        Ai = T.alloc_shared((block_M, block_K), T.int8)
        Bu = T.alloc_shared((block_N, block_K), T.uint8)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        C4 = T.alloc_fragment((block_M, block_N), T.float32)
        Ci = T.alloc_fragment((block_M, block_N), T.int32)
        # BUILD: [[@LINE+1]]:9: error: the CUDA target lowers T.gemm
        T.gemm(A8, B8, C, transpose_B=True)  # expected-warning {{nothing has written yet}}
        T.gemm(A4, B48, C4, transpose_B=True)  # expected-warning {{nothing has written yet}}
        T.gemm(Ai, Bu, Ci, transpose_B=True)  # expected-warning {{nothing has written yet}}


@tilelang.jit
def unmixable(block_M=64, block_N=64, block_K=64):
    with T.Kernel(1, 1, threads=128) as (bx, by):
        Ah = T.alloc_shared((block_M, block_K), T.float16)
        B8 = T.alloc_shared((block_N, block_K), T.float8_e4m3fn)
        Ai = T.alloc_shared((block_M, block_K), T.int8)
        B4 = T.alloc_shared((block_N, block_K), T.int4)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        Ci = T.alloc_fragment((block_M, block_N), T.int32)
        # expected-error@+1 {{T.gemm operands A and B have different dtypes (float16 and float8_e4m3fn)}}
        T.gemm(Ah, B8, C, transpose_B=True)
        # expected-error@+1 {{T.gemm operands A and B have different dtypes (int8 and int4)}}
        T.gemm(Ai, B4, Ci, transpose_B=True)
