# T.gemm / T.wgmma_gemm on sm_90a with operands that are regions of larger
# shared tiles (issue 14; corpus44 G4): a pipeline stage `A_s[s, :, :]` of
# a [stages, 64, 64] tile and a K split `A_s[:, 64:128]` take wgmma, their
# descriptors starting at the region's first element in the tile's panels
# (a runtime stage index included), and the accumulator gets the wgmma
# layout. A region that does not start on an 8-row group of the swizzle
# (the descriptor's base offset would not be 0) keeps mma.sync with a
# remark, and T.wgmma_gemm says why it cannot take it. Sim runs:
# tests/lit/tlc-run/wgmma-region-operands-sim.test.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D kind=stages 2>&1 | FileCheck %s --check-prefix=STAGES
# STAGES-NOT: remark: T.gemm uses mma.sync
# STAGES: const int [[S:[a-z_0-9]+]] = (k % 2);
# STAGES: tlc::cuda::wgmmaDescriptor((A_s + tlc::cuda::panelSwizzledIndex<8, 8, 64, 64>([[S]], 0, 0)),
# STAGES: tlc::cuda::wgmmaDescriptor((B_s + tlc::cuda::panelSwizzledIndex<8, 8, 64, 64>([[S]], 0, 0)),
# STAGES: tlc::cuda::wgmmaM64N64K16F32BF16<0, 0>(
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s -D kind=stages | FileCheck %s --check-prefix=HINT
# HINT: "name":"acc",{{.*}}"layout":"wgmma.C · 4×1 warps · 32 regs/thread"
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D kind=ksplit | FileCheck %s --check-prefix=KSPLIT
# KSPLIT: tlc::cuda::wgmmaDescriptor((A_s + tlc::cuda::panelSwizzledIndex<8, 8, 64, 128>(0, 0, 64)),
# KSPLIT: tlc::cuda::wgmmaDescriptor((B_s + tlc::cuda::panelSwizzledIndex<8, 8, 64, 128>(0, 0, 64)),
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D kind=rows 2>&1 | FileCheck %s --check-prefix=ROWS
# ROWS: remark: T.gemm uses mma.sync, not wgmma: the matrix descriptors cannot address operand A: the region starts at row 4 of its tile, not on an 8-row group of the 128-byte swizzle
# ROWS-NOT: tlc::cuda::wgmma
# ROWS: tlc::cuda::mma
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s -D kind=rows -D explicit=True 2>&1 | FileCheck %s --check-prefix=EXPLICIT
# EXPLICIT: error: T.wgmma_gemm is Hopper's wgmma.mma_async, but this gemm does not fit it: the matrix descriptors cannot address operand A: the region starts at row 4 of its tile, not on an 8-row group of the 128-byte swizzle; T.gemm would use mma.sync
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s -D kind=cols -D explicit=True 2>&1 | FileCheck %s --check-prefix=COLS
# COLS: error: T.wgmma_gemm is Hopper's wgmma.mma_async, but this gemm does not fit it: the matrix descriptors cannot address operand B: the region starts at column 8 of its tile, inside a 128-byte swizzle panel of 64 columns on its M/N dimension
import tilelang
import tilelang.language as T


@tilelang.jit
def regions(kind="stages", explicit=False):
    gemm = T.wgmma_gemm if explicit else T.gemm

    if kind == "stages":

        @T.prim_func
        def main(A: T.Tensor((64, 256), "bfloat16"),
                 B: T.Tensor((64, 256), "bfloat16"),
                 C: T.Tensor((64, 64), "float32")):
            with T.Kernel(1, threads=128):
                A_s = T.alloc_shared((2, 64, 64), "bfloat16")
                B_s = T.alloc_shared((2, 64, 64), "bfloat16")
                acc = T.alloc_fragment((64, 64), "float32")
                T.clear(acc)
                for k in T.serial(4):
                    s = k % 2
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
                T.gemm(A_s[:, 0:64], B_s[:, 0:64], acc, transpose_B=True)
                T.gemm(A_s[:, 64:128], B_s[:, 64:128], acc, transpose_B=True)
                T.copy(acc, C)

        return main

    if kind == "cols":

        @T.prim_func
        def main(A: T.Tensor((64, 64), "float16"),
                 B: T.Tensor((64, 128), "float16"),
                 C: T.Tensor((64, 64), "float32")):
            with T.Kernel(1, threads=128):
                A_s = T.alloc_shared((64, 64), "float16")
                B_s = T.alloc_shared((64, 128), "float16")
                acc = T.alloc_fragment((64, 64), "float32")
                T.copy(A, A_s)
                T.copy(B, B_s)
                # B is [K, N] (N-major): N must start on a panel.
                gemm(A_s, B_s[:, 8:72], acc, clear_accum=True)
                if explicit:
                    T.wait_wgmma(0)
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
            gemm(A_s[4:68, :], B_s, acc, transpose_B=True, clear_accum=True)
            if explicit:
                T.wait_wgmma(0)
            T.copy(acc, C)

    return main
