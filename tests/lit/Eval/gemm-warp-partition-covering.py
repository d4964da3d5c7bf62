# T.gemm's warps tile the accumulator exactly (newer TileLang's search since
# its issue 2537): each warp owns a multiple of 16 rows and 8 columns, wgmma
# warp rows a multiple of 4. FullRow 48x64 over 8 warps falls back to 1x8,
# wgmma FullRow 128x192 over 12 warps picks 4x3, Square 16x104 over 13
# warps 1x13; all three were errors before. The CPU target's results are
# compared with NumPy (float64 products of the float16 inputs); the CUDA
# code compiles with NVRTC (bank-conflict remarks aside, no diagnostics). A
# shape no partition covers is an error.
# RUN: tlc-build --check %s 2>&1 | not grep -E "error|warning"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 9 --save %t/out
# RUN: %python %S/Inputs/gemm_warp_partition_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: matmul 48x64 threads 256 ok
# REF: matmul 128x192 threads 384 ok
# REF: matmul 16x104 threads 416 ok
# RUN: %if nvrtc %{ tlc-build --target=cuda:sm_90a --cuda-compiler=nvrtc -o %t/cu %s > /dev/null %}
# RUN: not tlc-build --check -D M=16 -D N=104 -D threads=384 -D policy=Square --kernel=matmul %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: error: cannot lay out operand C ('C_frag') of this gemm: no Square warp partition of 12 warps for a 16x104 accumulator: each warp must own a multiple of 16 rows and 8 columns
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def matmul(M=48, N=64, K=32, threads=256, policy="FullRow"):
    warp_policy = getattr(T.GemmWarpPolicy, policy)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, 1, threads=threads):
            A_shared = T.alloc_shared((M, K), "float16")
            B_shared = T.alloc_shared((K, N), "float16")
            C_frag = T.alloc_fragment((M, N), "float32")
            T.clear(C_frag)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.gemm(A_shared, B_shared, C_frag, policy=warp_policy)
            T.copy(C_frag, C)

    return main


if __name__ == "__main__":
    matmul(48, 64, 32, 256, "FullRow")
    matmul(128, 192, 32, 384, "FullRow")
    matmul(16, 104, 32, 416, "Square")
