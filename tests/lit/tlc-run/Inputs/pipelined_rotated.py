# T.Pipelined with explicit order/stage lists whose rotated schedule differs
# from the program order (pipelined-rotated.test runs them and checks the
# results against a NumPy model of TileLang's software pipeline).
import tilelang
import tilelang.language as T


@tilelang.jit
def rotated_acc(n_tiles):
    """acc += A_t @ B one pipeline stage after acc *= 0.5 of the same tile:
    the gemm (stage 3) runs before the scaling (stage 2) in each step."""
    M, N, BK = 64, 64, 32

    @T.prim_func
    def main(A: T.Tensor((M, BK * n_tiles), "float16"), B: T.Tensor((BK, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as _:
            A_sh = T.alloc_shared((M, BK), "float16")
            B_sh = T.alloc_shared((BK, N), "float16")
            acc = T.alloc_fragment((M, N), "float32")
            T.clear(acc)
            T.copy(B, B_sh)
            for ko in T.Pipelined(n_tiles, order=[0, 1, 2], stage=[0, 3, 2]):
                T.copy(A[0, ko * BK], A_sh)
                T.gemm(A_sh, B_sh, acc)
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] * 0.5
            T.copy(acc, C)

    return main


@tilelang.jit
def carried_tile(n_tiles):
    """Three statements around two shared tiles: X_sh is filled in stage 0,
    Y_sh = 2 X_sh + 1 is made in stage 2 and read (acc = acc / 2 + Y_sh) in
    stage 1, ordered first."""
    M, N = 32, 32

    @T.prim_func
    def main(A: T.Tensor((M, N * n_tiles), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as _:
            X_sh = T.alloc_shared((M, N), "float32")
            Y_sh = T.alloc_shared((M, N), "float32")
            acc = T.alloc_fragment((M, N), "float32")
            T.fill(acc, 1.0)
            T.fill(Y_sh, 3.0)
            for t in T.Pipelined(n_tiles, order=[1, 0, 2], stage=[0, 1, 2]):
                T.copy(A[0, t * N], X_sh)
                for i, j in T.Parallel(M, N):
                    acc[i, j] = acc[i, j] * 0.5 + Y_sh[i, j]
                for i, j in T.Parallel(M, N):
                    Y_sh[i, j] = X_sh[i, j] * 2.0 + 1.0
            T.copy(acc, C)

    return main


for n in (1, 2, 4, 7):
    rotated_acc(n)
for n in (1, 2, 5):
    carried_tile(n)
