# T.copy of regions whose extent is known only when the kernel runs, to
# and from tiles of static shape: varlen slices `X[s:e, :]` with bounds
# read from memory (into shared memory and into a fragment, and from a
# fragment back), and a T.dynamic row length. TileLang's copy visits the
# region's indices: reads outside the tensor give 0, indices past the
# run-time extent or the tile are neither read nor written (the tile keeps
# what T.fill put there). The CPU target against NumPy at two sets of
# sizes (extents shorter and longer than the tile, slices starting before
# row 0 and ending past the tensor); in the CUDA code each element is
# copied under its run-time extent test, its global access guarded.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art -D total=300 -D N=100 --save %t/out1
# RUN: %python %S/Inputs/check_varlen_copy.py %t/out1 300 100 | FileCheck %s
# RUN: tlc-run %t/art -D total=250 -D N=200 --seed 3 --save %t/out2
# RUN: %python %S/Inputs/check_varlen_copy.py %t/out2 250 200 | FileCheck %s
# CHECK: varlen_rows True
# CHECK: varlen_fragment True True
# CHECK: dynamic_row True True
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA-LABEL: varlen_rows_kernel(
# CUDA: const int [[N:t_[0-9]+]] = ({{t_[0-9]+}} - [[S:t_[0-9]+]]);
# CUDA: const int [[ROW:t_[0-9]+]] = ([[S]] + [[I:i0_[0-9]+]]);
# CUDA-NEXT: const bool [[IN:t_[0-9]+]] = ([[I]] < [[N]]);
# CUDA: if ([[IN]]) {
# CUDA-NEXT: const float {{.*}} = ([[ROW]] >= 0 && [[ROW]] < total) ? {{.*}} : float(0);
# CUDA-LABEL: varlen_fragment_kernel(
# CUDA: if ({{t_[0-9]+}}) {
# CUDA: if ([[Z:t_[0-9]+]] >= 0 && [[Z]] < total) Z[
# CUDA-LABEL: dynamic_row_kernel(
# CUDA: const bool [[IN2:t_[0-9]+]] = ({{i0_[0-9]+}} < N);
# CUDA: if ([[IN2]]) {
# CUDA-NEXT: const float {{.*}} = ({{[a-z_0-9]+}} < N) ? {{.*}} : float(0);

import tilelang
import tilelang.language as T


@tilelang.jit
def varlen_rows(batch=5, block=32, dim=48, dtype="float16"):
    total = T.dynamic("total")

    @T.prim_func
    def main(X: T.Tensor((total, dim), dtype), Starts: T.Tensor((batch,), "int32"),
             Lens: T.Tensor((batch,), "int32"), Y: T.Tensor((batch, block, dim), dtype)):
        with T.Kernel(batch, threads=128) as b:
            S = T.alloc_shared((block, dim), dtype)
            T.fill(S, -1)
            start = b * 72 + Starts[b]
            end = start + 20 + Lens[b]
            T.copy(X[start:end, :], S)
            T.copy(S, Y[b, :, :])

    return main


@tilelang.jit
def varlen_fragment(batch=5, block=32, dim=32):
    total = T.dynamic("total")

    @T.prim_func
    def main(X: T.Tensor((total, dim), "float32"), Starts: T.Tensor((batch,), "int32"),
             Lens: T.Tensor((batch,), "int32"), Y: T.Tensor((batch, block, dim), "float32"),
             Z: T.Tensor((total, dim), "float32")):
        with T.Kernel(batch, threads=128) as b:
            F = T.alloc_fragment((block, dim), "float32")
            T.fill(F, 0.5)
            start = b * 72 + Starts[b]
            end = start + 20 + Lens[b]
            T.copy(X[start:end, :], F)
            for i, j in T.Parallel(block, dim):
                F[i, j] = F[i, j] * 2
            T.copy(F, Y[b, :, :])
            G = T.alloc_fragment((block, dim), "float32")
            T.fill(G, 0)
            T.copy(Z[start:end, :], G)
            for i, j in T.Parallel(block, dim):
                G[i, j] = G[i, j] + F[i, j]
            T.copy(G, Z[start:end, :])

    return main


def dynamic_row(N, rows=4, block=128, dtype="float32"):

    @T.prim_func
    def main(X: T.Tensor((rows, N), dtype), Y: T.Tensor((rows, block), dtype),
             Z: T.Tensor((rows, N), dtype)):
        with T.Kernel(rows, threads=128) as b:
            S = T.alloc_shared((block,), dtype)
            T.fill(S, 7)
            T.copy(X[b, :], S)
            T.copy(S, Y[b, :])
            S2 = T.alloc_shared((block,), dtype)
            T.fill(S2, 0)
            T.copy(Z[b, :], S2)
            for i in T.Parallel(block):
                S2[i] = S2[i] + S[i]
            T.copy(S2, Z[b, :])

    return main


varlen_rows()
varlen_fragment()
dynamic_row(T.dynamic("N"))
