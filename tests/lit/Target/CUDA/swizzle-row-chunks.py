# A shared tile is row-swizzled (swizzledIndex) only when its rows are 2,
# 4 or a multiple of 8 16-byte chunks: the swizzle XORs a row's chunk with
# up to 3 row bits, which sent chunks 8..11 of a 12-chunk row (96 f16) to
# 12..15, into the next row, so two elements shared one address and the
# gemm read garbage. A_shared [64, 96] is now row-major (its hint says so);
# B_shared [96, 64] (8 chunks) keeps the swizzle.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %s 2>/dev/null | FileCheck %s --check-prefix=HINTS
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/ref > /dev/null
# RUN: %python -c "import numpy as np; d='%t/ref/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(np.allclose(c, a @ b, 2e-2, 2e-2))" | FileCheck %s --check-prefix=REF
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# CUDA-NOT: swizzledIndex<12>
# CUDA: {{A_shared\[\(}}{{[a-z0-9_]+}}) * 96 +
# CUDA: {{B_shared\[}}tlc::cuda::swizzledIndex<8>(
# HINTS: "name":"A_shared",{{.*}}"layout":"linear",{{.*}}stored by the CUDA target row-major
# HINTS: "name":"B_shared",{{.*}}"layout":"swizzle 128B",{{.*}}tlc::cuda::swizzledIndex<8>
# REF: True
# SIM: verify C: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm96(M, N, K, block_M=64, block_N=64, block_K=96, dtype="float16", accum_dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


kernel = gemm96(128, 128, 192)
