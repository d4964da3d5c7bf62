# A T.Parallel no fragment partitions: the row maxima `m[h]` (a fragment of
# one dimension) read under T.Parallel(H, W) whose stores go to shared
# memory of another width than the fragment the maxima came from. The CUDA
# target refused it ("touches fragments but none at exactly the loop
# variables over its whole shape"); it now runs the loop flat over the
# threads and reads the fragment from the exchange area, as it reads
# fragments at other indices. The CPU target and the sim device (sm_80,
# sm_90a) are checked against NumPy.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: // T.Parallel
# CHECK: __syncthreads();  // the exchange area is free
# CHECK: exchanged[x0] = m[r_2];
# CHECK: const int f = r_3 * 128 + tid;
# CHECK: const float x_1 = exchanged[(i0_1)];
# CHECK-NEXT: const float t = (x - x_1);
# CHECK-NEXT: out[(i0_1) * 16 + i1_1] = t;
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy').astype(np.float64); print(np.allclose(y, x[:, :16] - x.max(axis=1, keepdims=True), 1e-6, 1e-6))" | FileCheck %s --check-prefix=REF
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --seed 5 --save %t/sm80out > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/sm80out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy').astype(np.float64); print(np.allclose(y, x[:, :16] - x.max(axis=1, keepdims=True), 1e-6, 1e-6))" | FileCheck %s --check-prefix=REF %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 5 --save %t/sm90out > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/sm90out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy').astype(np.float64); print(np.allclose(y, x[:, :16] - x.max(axis=1, keepdims=True), 1e-6, 1e-6))" | FileCheck %s --check-prefix=REF %}
# REF: True
import tilelang
import tilelang.language as T


@tilelang.jit
def centred_prefix(X, H=64, N=32, W=16):
    X: T.Tensor((H, N), T.float32)
    Y = T.empty((H, W), T.float32)
    with T.Kernel(1, threads=128):
        xs = T.alloc_fragment((H, N), T.float32)
        m = T.alloc_fragment((H,), T.float32)
        out = T.alloc_shared((H, W), T.float32)
        T.copy(X, xs)
        T.reduce_max(xs, m, dim=1)
        for h, k in T.Parallel(H, W):
            out[h, k] = X[h, k] - m[h]
        T.copy(out, Y)
    return Y


def main():
    import torch
    centred_prefix(torch.randn(64, 32))


if __name__ == "__main__":
    main()
