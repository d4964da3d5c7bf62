# T.atomic_addx2 / T.atomic_addx4 add 2 / 4 adjacent elements (TileLang
# passes both operands as addresses): a split-K GEMM's epilogue adding
# C_shared[i, 2 * j : 2 * j + 2] into C[m, n : n + 2]. Once they added only
# the first element, so odd columns kept their start value. Checked against
# NumPy on the CPU target; the IR holds one atomic add per element.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/split_add/'; l=lambda n: np.load(d+n).astype(np.float64); a=l('inputs/A.npy'); print(np.allclose(l('C.npy'), l('inputs/C.npy') + a[0:8] + a[8:16], rtol=1e-2, atol=1e-2))" | FileCheck %s
# RUN: %python -c "import numpy as np; d='%t/out/quad_add/'; l=lambda n: np.load(d+n).astype(np.float64); print(np.allclose(l('W.npy'), l('inputs/W.npy') + 3 * l('inputs/A.npy')[0:4], rtol=1e-5, atol=1e-5))" | FileCheck %s
# CHECK: True
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# IR-LABEL: tile.func @split_add
# IR-COUNT-2: tile.atomic_add %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tile.buffer<[8, 16], f16, global>, f16
# IR-NOT: tile.atomic_add
# IR-LABEL: tile.func @quad_add
# IR-COUNT-4: tile.atomic_add %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tile.buffer<[4, 16], f32, global>, f32

import tilelang
import tilelang.language as T


@tilelang.jit
def split_add(M=8, N=16):
    # Two blocks each add their half of A's rows into C: C += A[0:8] + A[8:16].
    A: T.Tensor((2 * M, N), T.float16)
    C: T.Tensor((M, N), T.float16)
    with T.Kernel(2, threads=64) as bz:
        S = T.alloc_shared((M, N), T.float16)
        T.copy(A[bz * M, 0], S)
        for i, j in T.Parallel(M, N // 2):
            T.atomic_addx2(C[i, j * 2], S[i, j * 2])


@tilelang.jit
def quad_add(M=4, N=16):
    # Three blocks add the same rows: W += 3 * A[0:4].
    A: T.Tensor((4 * M, N), T.float32)
    W: T.Tensor((M, N), T.float32)
    with T.Kernel(3, threads=32) as bx:
        for i, j in T.Parallel(M, N // 4):
            T.atomic_addx4(W[i, j * 4], A[i, j * 4])
