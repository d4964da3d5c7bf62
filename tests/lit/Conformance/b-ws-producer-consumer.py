# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# On CDNA (64 KiB of LDS per workgroup) the two mbarrier lists pass the
# budget by 32 bytes, which the message says exactly.
# RUN: not tlc-build --check --target=hip:gfx942 %s 2>&1 | FileCheck %s --check-prefix=LDS
# LDS: error: shared memory usage 64 KiB + 32 bytes exceeds the 64 KiB budget of hip:gfx942
# LDS: note: 'full' uses 16 bytes
# The consumer's gemm reads its stage slices through wgmma descriptors (B as
# two 64-column panels of 128-byte swizzle atoms), accumulating in wgmma.C.
# Group B (+C, I): manual warp specialisation. Warp group 1 produces A/B tiles
# into a ring of shared stages, warp group 0 consumes them with T.gemm;
# T.ws + T.alloc_barrier lists + T.mbarrier_arrive / T.mbarrier_wait_parity.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def ws_matmul(M, N, K, block_M=128, block_N=128, block_K=64, num_stages=2,
              dtype=T.float16, accum_dtype=T.float32):
    k_iters = T.ceildiv(K, block_K)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_shared = T.alloc_shared((num_stages, block_M, block_K), dtype)
            B_shared = T.alloc_shared((num_stages, block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            full = T.alloc_barrier([128] * num_stages)
            empty = T.alloc_barrier([128] * num_stages)

            with T.ws(0):
                T.clear(C_local)

            for ko in T.serial(k_iters):
                stage = ko % num_stages
                phase = (ko // num_stages) & 1
                with T.ws(1):
                    T.mbarrier_wait_parity(empty[stage], phase ^ 1)
                    T.copy(A[by * block_M:(by + 1) * block_M, ko * block_K:(ko + 1) * block_K], A_shared[stage, :, :])
                    T.copy(B[ko * block_K:(ko + 1) * block_K, bx * block_N:(bx + 1) * block_N], B_shared[stage, :, :])
                    T.mbarrier_arrive(full[stage])
                with T.ws(0):
                    T.mbarrier_wait_parity(full[stage], phase)
                    T.gemm(A_shared[stage, :, :], B_shared[stage, :, :], C_local)
                    T.mbarrier_arrive(empty[stage])

            with T.ws(0):
                T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    kernel = ws_matmul(8192, 8192, 8192)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"A","kind":"tensor","shape":[8192,8192],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[64,64],{{.*}}"detail":"256 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[2,128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[2,64,128],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B, 2 panels"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"full","kind":"buffer","shape":[2],"dtype":"uint64","scope":"shared.barrier"
# CHECK: "name":"empty","kind":"buffer","shape":[2],"dtype":"uint64","scope":"shared.barrier"
