# A T.Layout index map whose simplified form starts with a negative floor
# division or modulo term (2 * (n // 2 - 1 - i // 2) + i % 2 stores the byte
# pairs of a tile in reverse, newer TileLang's issue 2963 test): the
# symbolic form is read back as -(i // 2) * 2 + ..., not -i // 2 * 2, which
# is (-i) // 2 * 2 and negative for odd i. The layout is used (no "is
# negative" warning), the shared tile's storage is the reversed pairs, and
# the data passes through unchanged on the CPU target (NumPy).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.annotate_layout
# CHECK-SAME: map = ["-2 * (i // 2) + i % 2 + 126"]
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 8 --save %t/out
# RUN: %python -c "import numpy as np; a = np.load('%t/out/inputs/A.npy'); b = np.load('%t/out/B.npy'); print('same', bool((a == b).all()))" | FileCheck %s --check-prefix=OUT
# OUT: same True
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def reversed_pairs(n=128):

    def reversed_byte_storage(i):
        return 2 * (n // 2 - 1 - i // 2) + i % 2

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64):
            shared = T.alloc_shared((n,), "float32")
            T.annotate_layout({shared: T.Layout((n,), reversed_byte_storage)})
            for i in T.Parallel(n):
                shared[i] = A[i]
            for i in T.Parallel(n):
                B[i] = shared[i]

    return main


if __name__ == "__main__":
    reversed_pairs()
