# A gemm operand tile far past a workgroup's LDS ([128, 2^24] f16, a fuzz
# input's block_K = 1 << 24) gets the shared-memory budget error at once
# for hip:gfx942, in --check and in a build: choosing its LDS swizzle
# enumerated every MFMA read of the tile and kept tlc-build (and the
# editor's hints for an AMD target) busy for minutes. A tile of the same
# kernel that fits still gets its swizzle.
# RUN: not tlc-build --target=hip:gfx942 --check %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=hip:gfx942 -o %t %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=hip:gfx942 --emit=hip -Dblock_K=32 %s | FileCheck %s --check-prefix=FITS
# CHECK: error: shared memory usage {{.*}} exceeds the 64 KiB budget of hip:gfx942
# FITS: tlc::hip::xorSwizzledIndex<
import tilelang
import tilelang.language as T


@tilelang.jit
def gemm(M=256, N=256, K=1 << 24, block_M=128, block_N=128, block_K=1 << 24):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=256) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), T.float16)
            B_s = T.alloc_shared((block_K, block_N), T.float16)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


gemm()
