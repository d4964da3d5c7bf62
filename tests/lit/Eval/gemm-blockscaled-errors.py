# What T.gemm_blockscaled / T.mma_gemm_blockscaled reject whatever the
# target: TileLang's dense-operand asserts (M, N, K agreement; with
# a_packed_words, eight E2M1 codes per A word) and the operand contract of
# every block-scaled MMA (FP8/FP6/FP4 A and B, packed words only against
# E2M1 B, a float32 accumulator, a fragment C for the mma.sync form, scale
# factors of 8- or 32-bit elements, on chip, positive integer
# granularities, k_start not negative). The valid calls beside them (see
# gemm-blockscaled.py) get no diagnostic.
# RUN: tlc-build --verify-diagnostics %s
import tilelang.language as T

fp4 = T.float4_e2m1fn


@T.prim_func
def bad(SFG: T.Tensor((128, 2), T.uint32)):
    with T.Kernel(1, threads=256):
        A = T.alloc_shared((128, 128), fp4)
        B = T.alloc_shared((128, 128), fp4)
        B8 = T.alloc_shared((128, 128), T.float8_e4m3fn)
        Ah = T.alloc_shared((128, 128), T.bfloat16)
        Aw = T.alloc_fragment((128, 16), T.uint32)
        SFA = T.alloc_shared((128, 2), T.uint32)
        SFB = T.alloc_shared((128, 2), T.uint32)
        SFf = T.alloc_shared((128, 8), T.float32)
        acc = T.alloc_fragment((128, 128), T.float32)
        acc_h = T.alloc_fragment((128, 128), T.float16)
        acc_s = T.alloc_shared((128, 128), T.float32)
        # The valid forms first: no diagnostic.
        T.mma_gemm_blockscaled(A, B, acc, SFA, SFB, transpose_B=True, k_start=0,
                               sf_a_granularity_k=16, sf_b_granularity_k=16)
        T.mma_gemm_blockscaled(Aw, B, acc, SFA, SFB, transpose_B=True, k_start=0,
                               sf_a_granularity_k=16, sf_b_granularity_k=16,
                               a_packed_words=True)
        T.gemm_blockscaled(A, B8, acc, SFA, SFB, transpose_B=True, k_start=64,
                           sf_a_granularity_k=32, sf_b_granularity_k=32)
        # expected-error@+1 {{the packed A words are E2M1, so B must be float4_e2m1fn, but 'B8' is float8_e4m3fn}}
        T.mma_gemm_blockscaled(Aw, B8, acc, SFA, SFB, transpose_B=True, k_start=0,
                               sf_a_granularity_k=16, sf_b_granularity_k=16,
                               a_packed_words=True)
        # expected-error@+1 {{T.gemm_blockscaled operand A must hold FP8, FP6 or FP4 codes}}
        T.gemm_blockscaled(Ah, B, acc, SFA, SFB, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)
        # expected-error@+1 {{T.gemm_blockscaled accumulates in float32, but 'acc_h' is float16}}
        T.gemm_blockscaled(A, B, acc_h, SFA, SFB, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)
        # expected-error@+1 {{T.mma_gemm_blockscaled accumulator C must be a fragment (T.alloc_fragment): mma.sync accumulates in registers, but 'acc_s' is in shared.dyn}}
        T.mma_gemm_blockscaled(A, B, acc_s, SFA, SFB, transpose_B=True, k_start=0,
                               sf_a_granularity_k=16, sf_b_granularity_k=16)
        # expected-error@+1 {{T.gemm_blockscaled scale factors SFB are stored in bytes}}
        T.gemm_blockscaled(A, B, acc, SFA, SFf, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)
        # expected-error@+1 {{T.gemm_blockscaled scale factors SFA must be on chip}}
        T.gemm_blockscaled(A, B, acc, SFG, SFB, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)
        # expected-error@+2 {{sf_b_granularity_k is the number of K elements one scale factor covers and must be positive, got 0}}
        T.gemm_blockscaled(A, B, acc, SFA, SFB, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=0)
        # expected-error@+1 {{k_start is the logical K index of the tile's first element and cannot be negative, got -16}}
        T.gemm_blockscaled(A, B, acc, SFA, SFB, transpose_B=True, k_start=-16,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)


# TileLang's shape asserts raise (an AssertionError ends the trace): one
# kernel each.
@T.prim_func
def k_mismatch():
    with T.Kernel(1, threads=256):
        A = T.alloc_shared((128, 64), fp4)
        B = T.alloc_shared((128, 128), fp4)
        SF = T.alloc_shared((128, 2), T.uint32)
        acc = T.alloc_fragment((128, 128), T.float32)
        # expected-error@+1 {{T.gemm_blockscaled K shape check failed: K of A [128, 64] is 64, K of B [128, 128] is 128}}
        T.gemm_blockscaled(A, B, acc, SF, SF, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)


@T.prim_func
def m_mismatch():
    with T.Kernel(1, threads=256):
        A = T.alloc_shared((128, 128), fp4)
        B = T.alloc_shared((128, 128), fp4)
        SF = T.alloc_shared((128, 2), T.uint32)
        acc = T.alloc_fragment((64, 128), T.float32)
        # expected-error@+1 {{T.gemm_blockscaled M shape check failed: M of A [128, 128] is 128, M of C [64, 128] is 64}}
        T.gemm_blockscaled(A, B, acc, SF, SF, transpose_B=True, k_start=0,
                           sf_a_granularity_k=16, sf_b_granularity_k=16)


@T.prim_func
def packed_k_mismatch():
    with T.Kernel(1, threads=256):
        Aw = T.alloc_fragment((128, 8), T.uint32)
        B = T.alloc_shared((128, 128), fp4)
        SF = T.alloc_shared((128, 2), T.uint32)
        acc = T.alloc_fragment((128, 128), T.float32)
        # expected-error@+1 {{K of A [128, 8] is 64 (8 codes per packed word), K of B [128, 128] is 128}}
        T.mma_gemm_blockscaled(Aw, B, acc, SF, SF, transpose_B=True, k_start=0,
                               sf_a_granularity_k=16, sf_b_granularity_k=16,
                               a_packed_words=True)
