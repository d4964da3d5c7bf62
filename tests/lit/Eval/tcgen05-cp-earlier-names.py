# T.tcgen05_cp and T.sf_warp_transpose are TileLang's earlier names of
# T.tcgen05_cp_warpx4 and T.tcgen05_sf_warp_transpose (same parameters:
# smem_src, tmem_dst, tmem_col_offset=0, *, use_2cta=False; smem_src);
# its gemm_sm100 examples (gemm_mxfp8_blockscaled_1d1d_2cta.py) still use
# them. Both spellings make the same intrinsic.
# RUN: tlc-build --target=cuda:sm_100a --check %s 2>&1 | count 0
# RUN: tlc-build --target=cuda:sm_100a --emit=tile %s | FileCheck %s
# CHECK: tile.intrinsic "T.tcgen05_sf_warp_transpose"(%[[OLD:[a-z_0-9]+]]) {params = ["smem_src"]}
# CHECK: tile.intrinsic "T.tcgen05_sf_warp_transpose"(%[[NEW:[a-z_0-9]+]]) {params = ["smem_src"]}
# CHECK: tile.intrinsic "T.tcgen05_cp_warpx4"(%[[OLD]], %[[TMEM:[a-z_0-9]+]], %c0_i32, %{{.*}}) {params = ["smem_src", "tmem_dst", "tmem_col_offset", "use_2cta"]}
# CHECK: tile.intrinsic "T.tcgen05_cp_warpx4"(%[[NEW]], %[[TMEM]], %c4_i32, %{{.*}}) {params = ["smem_src", "tmem_dst", "tmem_col_offset", "use_2cta"]}
import tilelang
import tilelang.language as T


@tilelang.jit
def stage_scales(SF):
    SF: T.Tensor[[128, 4], T.uint8]
    with T.Kernel(2, threads=128, cluster_dims=2) as bx:
        S_old = T.alloc_shared((128, 4), T.uint8)
        S_new = T.alloc_shared((128, 4), T.uint8)
        tmem = T.alloc_tmem([128, 8], T.uint8)
        T.copy(SF, S_old)
        T.copy(SF, S_new)
        T.sf_warp_transpose(S_old)
        T.tcgen05_sf_warp_transpose(S_new)
        T.fence_proxy_async()
        T.tcgen05_cp(S_old, tmem, 0, use_2cta=True)
        T.tcgen05_cp_warpx4(S_new, tmem, 4, use_2cta=True)
    return SF


stage_scales.compile()
