# RUN: tlc-build --target=cuda:sm_80 --verify-diagnostics %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cuda:sm_90a --verify-diagnostics %s
# An accumulator written out through a shared tile only copies use (the
# softmax scores of mla_decode_persistent.py: T.copy(acc_s, S_shared), then
# T.copy(S_shared, acc_s_cast)): a warp's 4-byte stores cover 8 rows of one
# 16-byte chunk column, 8-way conflicting in row-major rows of 128 bytes;
# the CUDA target row-swizzles such a tile (XOR of the chunk with the row),
# which is conflict-free. T.annotate_layout({S: make_swizzled_layout(S)})
# asks TileLang for that swizzle; it used to make tlc store the tile
# row-major instead (a use other than a copy), with an 8-way remark TileLang's
# kernel does not have. `plain` has no annotation; `row_major`'s tile is also
# written by a T.Parallel loop, so it stays row-major: the remark is true.
import tilelang
import tilelang.language as T
from tilelang.layout import make_swizzled_layout


@tilelang.jit
def scores(annotate=True, H=64, N=64):

    @T.prim_func
    def main(Q: T.Tensor((H, 64), T.float16), K: T.Tensor((N, 64), T.float16),
             O: T.Tensor((H, N), T.float16)):
        with T.Kernel(1, threads=128):
            Q_s = T.alloc_shared((H, 64), T.float16)
            K_s = T.alloc_shared((N, 64), T.float16)
            S_s = T.alloc_shared((H, N), T.float16)
            acc = T.alloc_fragment((H, N), T.float32)
            acc_cast = T.alloc_fragment((H, N), T.float16)
            if annotate:
                T.annotate_layout({S_s: make_swizzled_layout(S_s)})
            T.copy(Q, Q_s)
            T.copy(K, K_s)
            T.gemm(Q_s, K_s, acc, transpose_B=True, clear_accum=True)
            T.copy(acc, S_s)
            T.copy(S_s, acc_cast)
            T.copy(acc_cast, O)

    return main


@tilelang.jit
def row_major(H=64, N=64):

    @T.prim_func
    def main(Q: T.Tensor((H, 64), T.float16), K: T.Tensor((N, 64), T.float16),
             O: T.Tensor((H, N), T.float16)):
        with T.Kernel(1, threads=128):
            Q_s = T.alloc_shared((H, 64), T.float16)
            K_s = T.alloc_shared((N, 64), T.float16)
            # expected-note@+1 {{padding each row of S_s by 8 elements (allocate (64, 72) and use S_s[:, 0:64]) makes this access conflict-free; so would XOR-swizzling its 16-byte chunks}}
            S_s = T.alloc_shared((H, N), T.float16)
            acc = T.alloc_fragment((H, N), T.float32)
            acc_cast = T.alloc_fragment((H, N), T.float16)
            T.annotate_layout({S_s: make_swizzled_layout(S_s)})
            T.copy(Q, Q_s)
            T.copy(K, K_s)
            T.gemm(Q_s, K_s, acc, transpose_B=True, clear_accum=True)
            # expected-remark@+1 {{8-way bank conflict on S_s (4-byte st.shared)}}
            T.copy(acc, S_s)
            for i, j in T.Parallel(H, N):
                S_s[i, j] = S_s[i, j] * 2
            T.copy(S_s, acc_cast)
            T.copy(acc_cast, O)

    return main


scores()
scores(annotate=False)
row_major()

# Both instances of `scores` address S_s through the row swizzle.
# CUDA-COUNT-2: S_s[tlc::cuda::swizzledIndex<8>(
