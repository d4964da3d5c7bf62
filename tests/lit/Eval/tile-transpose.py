# T.transpose(src, dst) swaps the last two axes and keeps the leading ones
# (dst[..., j, i] = src[..., i, j], newer TileLang's rule, testing/python/cpu's
# transpose test), for global tensors and for shared tiles and regions of
# them; the elements are spread over the block's threads like a T.Parallel.
# The CPU target's outputs are compared with NumPy; the CUDA code runs on
# the sim device against the CPU target. A dst that is not src with its last
# two extents swapped is an error.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 6 --save %t/out
# RUN: %python %S/Inputs/tile_transpose_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: transpose_global (2, 40, 48) True
# REF: transpose_shared (2, 32, 64) True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --seed 6 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-2: PASS
# RUN: not tlc-build --check -D bad=1 --kernel=transpose_shared %s 2>&1 | FileCheck %s --check-prefix=ERR
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def transpose_global(B=2, M=48, N=40):

    @T.prim_func
    def main(A: T.Tensor((B, M, N), "float32"), C: T.Tensor((B, N, M), "float32")):
        with T.Kernel(1, threads=128):
            T.transpose(A, C)

    return main


@tilelang.jit(out_idx=[1])
def transpose_shared(M=64, N=32, bad=0):

    @T.prim_func
    def main(A: T.Tensor((2, M, N), "float16"), C: T.Tensor((2, N, M), "float32")):
        with T.Kernel(2, threads=128) as bx:
            # Rows padded by 2 elements: the column reads of the transpose
            # are then free of bank conflicts.
            s = T.alloc_shared((M + 8, N + 2), "float16")
            t = T.alloc_shared((N, M), "float32")
            T.copy(A[bx, 0:M, 0:N], s[8:M + 8, 0:N])
            if bad == 0:
                # A region of a shared tile into a shared tile of another dtype.
                T.transpose(s[8:M + 8, 0:N], t)
            else:
                # ERR: :[[@LINE+1]]:32: error: T.transpose: dst's shape (32, 64) is not src's (72, 34) with its last two extents swapped
                T.transpose(s, t)
            T.copy(t, C[bx, 0:N, 0:M])

    return main


if __name__ == "__main__":
    transpose_global()
    transpose_shared()
