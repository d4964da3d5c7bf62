# T.gemm into tensor memory in a kernel launched in clusters of two CTAs,
# with B holding half of C's N columns (each CTA loads its half of B), is
# the CTA pair's 2-SM MMA that TileLang's tcgen05 lowering picks: no "N of
# B does not match N of C" error; the gemm is marked tile.use_2cta and its
# mbar arrival is the pair's; layout inference lays B out as the half it
# is. In clusters of four the halves are a shape error as before.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not="error:"
# RUN: not tlc-build --emit=tile %s 2>/dev/null | FileCheck %s
import tilelang
import tilelang.language as T


def gemm_2sm(M, N, K, cluster, bM=128, bN=256, bK=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "bfloat16"), B: T.Tensor((K, N), "bfloat16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, bM), T.ceildiv(N, bN), threads=128, cluster_dims=cluster) as (bx, by):
            A_s = T.alloc_shared((bM, bK), "bfloat16")
            B_s = T.alloc_shared((bK, bN // 2), "bfloat16")
            C_t = T.alloc_tmem([bM, bN], "float32")
            C_l = T.alloc_fragment((bM, bN), "float32")
            done = T.alloc_cluster_barrier([1])
            cta = T.block_rank_in_cluster()
            for k in T.serial(T.ceildiv(K, bK)):
                T.copy(A[bx * bM, k * bK], A_s)
                T.copy(B[k * bK, (by * 2 + cta) * (bN // 2)], B_s)
                if cta == 0:
                    T.gemm(A_s, B_s, C_t, mbar=done, wg_wait=-1, clear_accum=k == 0)
                T.mbarrier_wait_parity(done, k % 2)
            T.copy(C_t, C_l)
            T.copy(C_l, C[bx * bM, by * bN])

    return main


# CHECK-LABEL: tile.func @gemm_2sm(
# CHECK: tile.kernel
# CHECK-SAME: cluster_dims = array<i64: 2>
# CHECK: tile.gemm {{.*}}tile.use_2cta
# CHECK: tile.intrinsic "T.tcgen05_mma_arrive"({{.*}}) {{{.*}}arrive_2cta
k2 = tilelang.compile(gemm_2sm(512, 512, 256, 2), target="cuda:sm_100a")

# DIAG: gemm-2cta-inferred.py:27:21: error: T.gemm: N of B [64, 128] (128) does not match N of C [128, 256] (256)
k4 = tilelang.compile(gemm_2sm(512, 512, 256, 4), target="cuda:sm_100a")
