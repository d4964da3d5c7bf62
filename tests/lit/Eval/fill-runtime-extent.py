# T.fill and T.clear of a slice whose extent is known only when the kernel
# runs (x[a:b], a and b read from memory; newer TileLang's issue 1008 test):
# the elements are written by a T.Parallel over the run-time extent (the
# CUDA target could not address the region before). Each block copies its
# row into shared tiles, fills / clears them between bounds it reads (one
# row's slice is empty) and copies them out; the CPU target's outputs are
# compared with NumPy and the CUDA code runs on the sim device against the
# CPU target.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: %python %S/Inputs/fill_runtime_extent_ref.py inputs %t/in
# RUN: tlc-run %t/art --inputs %t/in --save %t/out
# RUN: %python %S/Inputs/fill_runtime_extent_ref.py check %t/out | FileCheck %s
# CHECK: fill_rows X True Y True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --inputs %t/in --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-2: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def fill_rows(rows=8, cols=96):

    @T.prim_func
    def main(
        Bounds: T.Tensor((rows, 2), "int32"),
        XIn: T.Tensor((rows, cols), "int64"),
        YIn: T.Tensor((rows, cols, 4), "float32"),
        X: T.Tensor((rows, cols), "int64"),
        Y: T.Tensor((rows, cols, 4), "float32"),
    ):
        with T.Kernel(rows, threads=128) as r:
            a, b = T.alloc_var("int32"), T.alloc_var("int32")
            a = Bounds[r, 0]
            b = Bounds[r, 1]
            s = T.alloc_shared((cols,), "int64")
            t = T.alloc_shared((cols, 4), "float32")
            T.copy(XIn[r, :], s)
            T.copy(YIn[r, :, :], t)
            T.fill(s[a:b], 7)
            T.clear(t[a:b, 1:3])
            T.copy(s, X[r, :])
            T.copy(t, Y[r, :, :])

    return main


if __name__ == "__main__":
    fill_rows()
