# For wgmma-region-operands-sim.test: gemms whose shared operands are
# regions of larger tiles, as staged warp-specialised Hopper kernels write
# them (issue 14). `kind` picks the kernel:
#   stages: A and B are stage `s` of [stages, 64, 64] tiles, in a K loop
#           (the stage index is a runtime value);
#   ksplit: a [64, 128] tile read as two K halves `X_s[:, 0:64]`, `[64:128]`;
#   cols:   B is the column range `S_s[0, :, 64:]` of a [1, 64, 128] tile
#           (sparse MLA's `S_shared[0, :, D:]`), A a K split of 32 columns
#           inside one 128-byte panel `Q_s[:, 32:64]`;
#   rows:   A is rows 4..67 of a [72, 64] tile: not on an 8-row group of
#           the swizzle, so the gemm keeps mma.sync (with a remark).
import tilelang
import tilelang.language as T


@tilelang.jit
def wgmma_region_operands(kind="stages", stages=2, k_blocks=2):

    if kind == "stages":

        @T.prim_func
        def main(A: T.Tensor((64, 64 * k_blocks), "bfloat16"),
                 B: T.Tensor((64, 64 * k_blocks), "bfloat16"),
                 C: T.Tensor((64, 64), "float32")):
            with T.Kernel(1, threads=128):
                A_s = T.alloc_shared((stages, 64, 64), "bfloat16")
                B_s = T.alloc_shared((stages, 64, 64), "bfloat16")
                acc = T.alloc_fragment((64, 64), "float32")
                T.clear(acc)
                for k in T.serial(k_blocks):
                    s = k % stages
                    T.copy(A[0, k * 64], A_s[s, :, :])
                    T.copy(B[0, k * 64], B_s[s, :, :])
                    T.gemm(A_s[s, :, :], B_s[s, :, :], acc, transpose_B=True)
                T.copy(acc, C)

        return main

    if kind == "ksplit":

        @T.prim_func
        def main(A: T.Tensor((64, 128), "float16"),
                 B: T.Tensor((64, 128), "float16"),
                 C: T.Tensor((64, 64), "float32")):
            with T.Kernel(1, threads=128):
                A_s = T.alloc_shared((64, 128), "float16")
                B_s = T.alloc_shared((64, 128), "float16")
                acc = T.alloc_fragment((64, 64), "float32")
                T.copy(A, A_s)
                T.copy(B, B_s)
                T.clear(acc)
                T.wgmma_gemm(A_s[:, 0:64], B_s[:, 0:64], acc, transpose_B=True)
                T.wgmma_gemm(A_s[:, 64:128], B_s[:, 64:128], acc,
                             transpose_B=True)
                T.wait_wgmma(0)
                T.copy(acc, C)

        return main

    if kind == "cols":

        @T.prim_func
        def main(Q: T.Tensor((64, 64), "bfloat16"),
                 S: T.Tensor((64, 128), "bfloat16"),
                 C: T.Tensor((64, 64), "float32")):
            with T.Kernel(1, threads=128):
                Q_s = T.alloc_shared((64, 64), "bfloat16")
                S_s = T.alloc_shared((1, 64, 128), "bfloat16")
                acc = T.alloc_fragment((64, 64), "float32")
                T.copy(Q, Q_s)
                T.copy(S, S_s[0, :, :])
                # C = Q[:, 32:64] . S[32:64, 64:128] (B is [K, N]).
                T.gemm(Q_s[:, 32:64], S_s[0, 32:64, 64:128], acc,
                       clear_accum=True)
                T.copy(acc, C)

        return main

    @T.prim_func
    def main(A: T.Tensor((72, 64), "float16"),
             B: T.Tensor((64, 64), "float16"),
             C: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((72, 64), "float16")
            B_s = T.alloc_shared((64, 64), "float16")
            acc = T.alloc_fragment((64, 64), "float32")
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.gemm(A_s[4:68, :], B_s, acc, transpose_B=True, clear_accum=True)
            T.copy(acc, C)

    return main
