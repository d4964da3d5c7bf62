# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# L + G: fp8 GEMM + requant: T.max_value/min_value, T.clamp, T.Select, T.if_then_else,
# T.reinterpret/shift_left/shift_right. Shape: lazy factory + plain PrimExpr helper.
import tilelang
import tilelang.language as T


def pow2_floor(x):
    """Plain helper: largest power of two <= x (x > 0, finite), via bits."""
    bits = T.reinterpret(x, T.uint32)
    exponent = T.shift_right(bits, T.uint32(23)) & T.uint32(0xFF)
    return T.reinterpret(T.shift_left(exponent, T.uint32(23)), T.float32)


@tilelang.jit(out_idx=[4, 5])
def fp8_gemm_requant(M, N, K, block_M=128, block_N=128, block_K=128, num_stages=3,
                     in_dtype=T.float8_e4m3fn, out_dtype=T.float8_e4m3fn):
    fp8_max = T.max_value(out_dtype)
    fp8_min = T.min_value(out_dtype)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), in_dtype),
        B: T.Tensor((N, K), in_dtype),
        scale_a: T.float32,
        scale_b: T.float32,
        C: T.Tensor((M, N), out_dtype),
        RowScale: T.Tensor((M, T.ceildiv(N, block_N)), T.float32),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), in_dtype)
            B_s = T.alloc_shared((block_N, block_K), in_dtype)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            amax = T.alloc_fragment((block_M,), T.float32)
            row_scale = T.alloc_fragment((block_M,), T.float32)
            C_s = T.alloc_shared((block_M, block_N), out_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                T.gemm(A_s, B_s, acc, transpose_B=True)
            for i, j in T.Parallel(block_M, block_N):
                # drop non-finite products instead of propagating them
                acc[i, j] = T.if_then_else(acc[i, j] > -T.infinity(T.float32), acc[i, j] * scale_a * scale_b, 0.0)
            T.reduce_absmax(acc, amax, dim=1)
            for i in T.Parallel(block_M):
                row_scale[i] = T.Select(amax[i] > 0.0, pow2_floor(amax[i] / fp8_max) * 2.0, 1.0)
            for i, j in T.Parallel(block_M, block_N):
                C_s[i, j] = T.clamp(acc[i, j] / row_scale[i], fp8_min, fp8_max)
            T.copy(C_s, C[by * block_M, bx * block_N])
            for i in T.Parallel(block_M):
                RowScale[by * block_M + i, bx] = row_scale[i]

    return main


kernel = fp8_gemm_requant(4096, 4096, 4096)

# CHECK: "name":"A","kind":"tensor","shape":[4096,4096],"dtype":"float8_e4m3fn","scope":"global","layout":null
# CHECK: "name":"RowScale","kind":"tensor","shape":[4096,32],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"A_s","kind":"buffer","shape":[128,128],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_s","kind":"buffer","shape":[128,128],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"acc","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 128 regs/thread"
# CHECK: "name":"amax","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C row · 4×1 warps · 4 regs/thread · rep 4"
# CHECK: "name":"row_scale","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C row · 4×1 warps · 4 regs/thread · rep 4"
# CHECK: "name":"C_s","kind":"buffer","shape":[128,128],"dtype":"float8_e4m3fn","scope":"shared.dyn","layout":"linear"

# The element-wise shared accesses of T.Parallel (one element per lane at the
# loop's thread partition):
# DIAG: 50:17: remark: 8-way bank conflict on C_s (1-byte st.shared)
