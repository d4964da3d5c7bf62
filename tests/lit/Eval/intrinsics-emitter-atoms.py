# GEMMs issued atom by atom through the Hopper and Blackwell emitters of
# tilelang.intrinsics (WGMMATensorCoreIntrinEmitter: wgmma_ss_atom /
# wgmma_rs_atom between the fence/arrive and commit/wait calls;
# TCGEN05TensorCoreIntrinEmitter: tcgen05_ss_atom into tensor memory, then
# tcgen05_atom_arrive on a barrier). tlc models an atom by its value, a
# T.gemm of the operand slices the atom reads into its slab of C
# (Eval/IntrinsicEmittersSM90.py.inc). The CPU runs are compared with NumPy
# exactly (small integer inputs): several warpgroups along M, two warp
# columns, N atoms narrower than a warp tile (gcd(warp_col_tiles, 256)),
# K-major and MN-major B, A from a fragment (RS), and a tcgen05
# accumulation over two K chunks whose clear flag is known only at run time.
# RUN: tlc-build --check %s 2>&1 | not grep -E "warning:|error:"
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINT
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/intrinsics_emitter_run.py tlc-run %t/cpu %t/work | FileCheck %s --check-prefix=OUT
import tilelang
import tilelang.language as T
from tilelang.intrinsics import WGMMATensorCoreIntrinEmitter
from tilelang.intrinsics.tcgen05_macro_generator import TensorCoreIntrinEmitter as Tcgen05Emitter
from tilelang.layout import make_full_bank_swizzled_layout, make_linear_layout


def wgmma_ss(M, N, K, row_warps, col_warps, b_transposed, dtype=T.float16):
    emi = WGMMATensorCoreIntrinEmitter(
        a_dtype=dtype, b_dtype=dtype, accum_dtype=T.float32,
        b_transposed=b_transposed, block_row_warps=row_warps,
        block_col_warps=col_warps, warp_row_tiles=M // row_warps,
        warp_col_tiles=N // col_warps, chunk=K)
    b_shape = (N, K) if b_transposed else (K, N)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=32 * row_warps * col_warps):
            A_s = T.alloc_shared((M, K), dtype)
            B_s = T.alloc_shared(b_shape, dtype)
            C_f = T.alloc_fragment((M, N), T.float32)
            emi._assign_a_shared_layout(make_full_bank_swizzled_layout(A_s))
            emi._assign_b_shared_layout(make_linear_layout(B_s))
            T.annotate_layout({C_f: emi.make_mma_store_layout(C_f)})
            T.copy(A, A_s)
            T.copy(B, B_s)
            a_params = emi.compute_wgmma_a_desc_params(A_s)
            b_params = emi.compute_wgmma_b_desc_params(B_s)
            desc_a = T.alloc_wgmma_desc()
            desc_b = T.alloc_wgmma_desc()
            emi.init_wgmma_a_desc(desc_a, A_s, a_params)
            emi.init_wgmma_b_desc(desc_b, B_s, b_params)
            emi.wgmma_fence_c(C_f)
            emi.wgmma_arrive()
            for n in T.unroll(emi.wgmma_num_inst_n):
                for m in T.unroll(emi.wgmma_num_inst_m):
                    for ki in T.unroll(emi.wgmma_num_k_atoms):
                        emi.wgmma_ss_atom(desc_a, desc_b, C_f, m, n, ki, a_params, b_params, True)
            emi.wgmma_commit()
            emi.wgmma_wait(0)
            emi.wgmma_fence_c(C_f)
            T.copy(C_f, C)

    return main


def wgmma_rs(M, N, K):
    emi = WGMMATensorCoreIntrinEmitter(
        a_dtype=T.bfloat16, b_dtype=T.bfloat16, accum_dtype=T.float32,
        block_row_warps=4, block_col_warps=1, warp_row_tiles=M // 4,
        warp_col_tiles=N, chunk=K)

    @T.prim_func
    def main(A: T.Tensor((M, K), T.bfloat16), B: T.Tensor((K, N), T.bfloat16), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128):
            A_f = T.alloc_fragment((M, K), T.bfloat16)
            B_s = T.alloc_shared((K, N), T.bfloat16)
            C_f = T.alloc_fragment((M, N), T.float32)
            emi._assign_b_shared_layout(make_linear_layout(B_s))
            T.copy(A, A_f)
            T.copy(B, B_s)
            b_params = emi.compute_wgmma_b_desc_params(B_s)
            desc_b = T.alloc_wgmma_desc()
            emi.init_wgmma_b_desc(desc_b, B_s, b_params)
            emi.wgmma_fence_a(A_f)
            emi.wgmma_fence_c(C_f)
            emi.wgmma_arrive()
            for n in T.unroll(emi.wgmma_num_inst_n):
                for m in T.unroll(emi.wgmma_num_inst_m):
                    for ki in T.unroll(emi.wgmma_num_k_atoms):
                        emi.wgmma_rs_atom(A_f, desc_b, C_f, m, n, ki, b_params, True)
            emi.wgmma_commit()
            emi.wgmma_wait(0)
            T.copy(C_f, C)

    return main


def tcgen05_ss(M, N, K, chunk):
    emi = Tcgen05Emitter(
        a_dtype=T.bfloat16, b_dtype=T.bfloat16, accum_dtype=T.float32,
        b_transposed=True, block_row_warps=1, block_col_warps=1,
        warp_row_tiles=M, warp_col_tiles=N, chunk=chunk)
    emi.get_tcgen5_mma_meta(M, N, chunk, True)
    instr_desc = emi.compute_tcgen05_instr_desc()

    @T.prim_func
    def main(A: T.Tensor((M, K), T.bfloat16), B: T.Tensor((N, K), T.bfloat16), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((M, chunk), T.bfloat16)
            B_s = T.alloc_shared((N, chunk), T.bfloat16)
            C_t = T.alloc_tmem((M, N), T.float32)
            mbar = T.alloc_barrier(1)
            C_f = T.alloc_fragment((M, N), T.float32)
            emi._assign_a_shared_layout(make_full_bank_swizzled_layout(A_s))
            emi._assign_b_shared_layout(make_full_bank_swizzled_layout(B_s))
            T.annotate_layout({C_t: emi.make_mma_store_layout(C_t)})
            for ko in T.serial(K // chunk):
                T.copy(A[0:M, ko * chunk:(ko + 1) * chunk], A_s)
                T.copy(B[0:N, ko * chunk:(ko + 1) * chunk], B_s)
                a_params = emi.compute_tcgen05_a_desc_params(A_s)
                b_params = emi.compute_tcgen05_b_desc_params(B_s)
                desc_a = T.alloc_tcgen05_smem_desc()
                desc_b = T.alloc_tcgen05_smem_desc()
                emi.init_tcgen05_a_desc(desc_a, A_s, a_params)
                emi.init_tcgen05_b_desc(desc_b, B_s, b_params)
                for n in T.unroll(emi.tcgen05_num_inst_n):
                    for m in T.unroll(emi.tcgen05_num_inst_m):
                        for ki in T.unroll(emi.tcgen05_num_k_atoms):
                            emi.tcgen05_ss_atom(desc_a, desc_b, C_t, m, n, ki, a_params, b_params,
                                                instr_desc, ko == 0)
                emi.tcgen05_atom_arrive(mbar)
                T.mbarrier_wait_parity(mbar, ko % 2)
            T.copy(C_t, C_f)
            T.copy(C_f, C)

    return main


# Two warpgroups along M, N = 96 in atoms of n32, K in four k16 steps.
k_ss_two_groups = tilelang.compile(wgmma_ss(128, 96, 64, 8, 1, False), target="cuda")
# Two warp columns (n32 each), B stored (N, K): K-major.
k_ss_bt = tilelang.compile(wgmma_ss(64, 64, 48, 4, 2, True), target="cuda")
# Hopper with fp8 inputs: k32 atoms.
k_ss_fp8 = tilelang.compile(wgmma_ss(64, 48, 96, 4, 1, True, T.float8_e4m3fn), target="cuda")
k_rs = tilelang.compile(wgmma_rs(64, 40, 32), target="cuda")
k_tc = tilelang.compile(tcgen05_ss(128, 64, 96, 48), target="cuda")

# The wgmma accumulator layout (register r of lane l of warp w: row 16 w +
# l // 4 + 8 ((r % 4) // 2), column 8 (r // 4) + 2 (l % 4) + r % 2).
# HINT: "name":"C_f","kind":"buffer","shape":[128,96],"dtype":"float32","scope":"local.fragment","layout":"fragment · 48 regs/thread"
# HINT-SAME: thread = 32 * (i // 16) + 4 * (i % 8) + (j // 2) % 4
# OUT: tcgen05_ss: ok, 0 of 8192 elements differ
# OUT: wgmma_rs: ok, 0 of 2560 elements differ
# OUT: wgmma_ss: ok, 0 of 12288 elements differ
# OUT: wgmma_ss_1: ok, 0 of 4096 elements differ
# OUT: wgmma_ss_2: ok, 0 of 3072 elements differ
