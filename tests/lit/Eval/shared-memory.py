# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check --no-source-lines --target=cuda:sm_80 %s 2>&1 | FileCheck %s --check-prefix=SM80
# RUN: not tlc-build --check --no-source-lines --target=hip:gfx90a %s 2>&1 | FileCheck %s --check-prefix=GFX90A
# Shared memory per block counts the shared buffers live at the same time
# (as TileLang plans it, buffers whose lifetimes do not overlap share
# bytes), each multiplied by the stages of the T.Pipelined loop that copies
# into it.
import tilelang
import tilelang.language as T


@tilelang.jit
def pipelined(K=4096, block_M=256, block_N=128, block_K=64, stages=4):
    A: T.Tensor((block_M, K), T.float16)
    B: T.Tensor((K, block_N), T.float16)
    # A_shared: 4 x 32 KiB, B_shared: 4 x 16 KiB = 192 KiB: fits sm_90a.
    # CDNA's 64 KiB hold one stage (48 KiB): the loop runs single-buffered
    # there, as TileLang runs every T.Pipelined on gfx90a and gfx942.
    # The warning is at the T.Pipelined that asked for the stages (it was
    # at the T.Kernel, without num_stages).
    # SM80: [[@LINE+1]]:10: error: shared memory usage 192 KiB exceeds the 163 KiB budget of cuda:sm_80
    with T.Kernel(1, threads=256) as bx:
        A_shared = T.alloc_shared((block_M, block_K), T.float16)
        B_shared = T.alloc_shared((block_K, block_N), T.float16)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        # GFX90A: [[@LINE+1]]:18: warning: num_stages=4 needs 192 KiB of LDS, more than the 64 KiB of hip:gfx90a: this T.Pipelined runs with one buffer (no overlap, as TileLang runs it on gfx90a and gfx942), 48 KiB of LDS
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
            T.copy(A[0, k * block_K], A_shared)
            T.copy(B[k * block_K, 0], B_shared)
            T.gemm(A_shared, B_shared, C)  # expected-warning {{nothing has written yet}}


@tilelang.jit
def too_big(K=4096, block_M=256, block_N=256, block_K=64, stages=3):
    A: T.Tensor((block_M, K), T.float16)
    B: T.Tensor((K, block_N), T.float16)
    D: T.Tensor((block_M, block_N), T.float16)
    # 3 x 32 KiB + 3 x 32 KiB + 128 KiB = 320 KiB, all live in the loop;
    # even one stage (192 KiB) is too much for CDNA.
    # expected-error@+2 {{shared memory usage 320 KiB exceeds the 227 KiB budget of cuda:sm_90a}}
    # GFX90A: [[@LINE+1]]:10: error: shared memory usage 320 KiB exceeds the 64 KiB budget of hip:gfx90a, the LDS a workgroup can allocate on this GPU (a hardware limit: the AMDGPU back end that TileLang's HIP build uses rejects such a kernel too); smaller tiles or fewer buffers fit
    with T.Kernel(1, threads=256) as bx:
        A_shared = T.alloc_shared((block_M, block_K), T.float16)
        B_shared = T.alloc_shared((block_K, block_N), T.float16)
        C_shared = T.alloc_shared((block_M, block_N), T.float16)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
            T.copy(A[0, k * block_K], A_shared)
            T.copy(B[k * block_K, 0], B_shared)
            T.gemm(A_shared, B_shared, C)  # expected-warning {{nothing has written yet}}
            T.copy(C, C_shared)
        T.copy(C_shared, D)


@tilelang.jit
def reused(K=4096, block_M=256, block_N=256, block_K=64, stages=3):
    A: T.Tensor((block_M, K), T.float16)
    B: T.Tensor((K, block_N), T.float16)
    D: T.Tensor((block_M, block_N), T.float16)
    # The same 320 KiB, but the epilogue tile is only live after the loop:
    # its 128 KiB reuse the stages' 192 KiB, a peak of 192 KiB that fits.
    with T.Kernel(1, threads=256) as bx:
        A_shared = T.alloc_shared((block_M, block_K), T.float16)
        B_shared = T.alloc_shared((block_K, block_N), T.float16)
        C_shared = T.alloc_shared((block_M, block_N), T.float16)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
            T.copy(A[0, k * block_K], A_shared)
            T.copy(B[k * block_K, 0], B_shared)
            T.gemm(A_shared, B_shared, C)  # expected-warning {{nothing has written yet}}
        T.copy(C, C_shared)
        T.copy(C_shared, D)


@tilelang.jit
def annotated_early(K=4096, block_M=256, block_N=256, block_K=64, stages=3):
    A: T.Tensor((block_M, K), T.float16)
    B: T.Tensor((K, block_N), T.float16)
    D: T.Tensor((block_M, block_N), T.float16)
    # Annotating C_shared's layout before the loop does not make it live
    # there: the peak stays at the stages' 192 KiB.
    with T.Kernel(1, threads=256) as bx:
        A_shared = T.alloc_shared((block_M, block_K), T.float16)
        B_shared = T.alloc_shared((block_K, block_N), T.float16)
        C_shared = T.alloc_shared((block_M, block_N), T.float16)
        C = T.alloc_fragment((block_M, block_N), T.float32)
        T.annotate_layout({C_shared: tilelang.layout.make_swizzled_layout(C_shared)})
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
            T.copy(A[0, k * block_K], A_shared)
            T.copy(B[k * block_K, 0], B_shared)
            T.gemm(A_shared, B_shared, C)  # expected-warning {{nothing has written yet}}
        T.copy(C, C_shared)
        T.copy(C_shared, D)
