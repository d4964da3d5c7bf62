# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# L + I: T.alloc_descriptor / alloc_wgmma_desc, T.initialize_wgmma_descriptor, T.ptx_wgmma_ss,
# warpgroup_* and the WGMMA C-fragment store. Shape: lazy factory called as f().
import tilelang
import tilelang.language as T
from tilelang.layout import make_wgmma_swizzled_layout


@tilelang.jit(out_idx=[-1])
def wgmma_tile(dtype=T.float16, accum_dtype=T.float32):
    m, n, k = 64, 64, 16
    regs = m * n // 128
    # 32-byte swizzle: layout type 3, leading byte offset 1 (unused for
    # K-major swizzled operands), stride byte offset = 8 rows * 32 B / 16
    swizzle_32b, lbo, sbo = 3, 1, (8 * k * 2) // 16

    @T.prim_func
    def main(A: T.Tensor((m, k), dtype), B: T.Tensor((n, k), dtype), C: T.Tensor((m, n), accum_dtype)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((m, k), dtype)
            B_s = T.alloc_shared((n, k), dtype)
            acc = T.alloc_local((regs,), accum_dtype)
            desc_a = T.alloc_descriptor("wgmma")
            desc_b = T.alloc_wgmma_desc()
            T.annotate_layout({
                A_s: make_wgmma_swizzled_layout(A_s, continuity=k, k_major=True),
                B_s: make_wgmma_swizzled_layout(B_s, continuity=k, k_major=True),
            })
            T.copy(A, A_s)
            T.copy(B, B_s)
            for r in T.serial(regs):
                acc[r] = T.cast(0, accum_dtype)
            T.initialize_wgmma_descriptor(desc_a, A_s.access_ptr("r"), swizzle_32b, lbo, sbo)
            T.initialize_wgmma_descriptor(desc_b, B_s.access_ptr("r"), swizzle_32b, lbo, sbo)
            T.fence_proxy_async()
            T.warpgroup_arrive()
            T.ptx_wgmma_ss(accum_dtype, "m64n64k16", True, True, "fp16", "fp16", "fp32",
                           desc_a.data, 0, desc_b.data, 0, acc.data, 0, 1, 1, 1)
            T.warpgroup_commit_batch()
            T.warpgroup_wait(0)
            tx = T.get_thread_binding()
            warp = tx // 32
            lane = tx % 32
            for r in T.serial(regs):
                row = 16 * warp + lane // 4 + 8 * ((r % 4) // 2)
                col = 8 * (r // 4) + 2 * (lane % 4) + r % 2
                C[row, col] = acc[r]

    return main


kernel = wgmma_tile()

# CHECK: "name":"A","kind":"tensor","shape":[64,16],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[64,16],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 32B"
# CHECK: "name":"B_s","kind":"buffer","shape":[64,16],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 32B"
# CHECK: "name":"acc","kind":"buffer","shape":[32],"dtype":"float32","scope":"local","layout":null
# CHECK: "name":"desc_a","kind":"buffer","shape":[1],"dtype":"uint64","scope":"local.descriptor.wgmma","layout":null
# CHECK: "name":"desc_b","kind":"buffer","shape":[1],"dtype":"uint64","scope":"local.descriptor.wgmma","layout":null
