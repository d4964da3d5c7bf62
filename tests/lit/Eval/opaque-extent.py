# A tensor extent tlc cannot evaluate (here a size from a module tlc does
# not model)
# is the argument's own at run time: a dynamic symbol NAME_shapeD that the
# launch binds, as for T.dynamic. The kernel builds for the CPU and CUDA
# targets and runs at any length its grid covers (checked against NumPy at
# a ragged one; accesses past the length are guarded).
# One opaque value is one symbol: `rows` in the shapes of X and Y is
# X_shape0 in both (as `UQ = q_unpad.shape[0]` in a varlen kernel's Q and
# Output), while another opaque value (`cols`, in Z) is its own symbol.
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s --check-prefix=HINT
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# RUN: tlc-build --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art -D X_shape0=1000 -D Z_shape0=5 --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy'); y=np.load(d+'Y.npy'); z=np.load(d+'Z.npy'); print(x.shape, y.shape, z.shape, bool((y == x + 1).all()))" | FileCheck %s
# HINT: "name":"X","kind":"tensor","shape":["X_shape0",64]
# HINT: "name":"Y","kind":"tensor","shape":["X_shape0",64]
# HINT: "name":"Z","kind":"tensor","shape":["Z_shape0",8]
# TILE: symbols(X_shape0: dynamic, Z_shape0: dynamic)
# TILE-NOT: Y_shape0
# CUDA: long long X_shape0
# CUDA-NOT: Y_shape0
# CHECK: (1000, 64) (1000, 64) (5, 8) True

import datasets
import tilelang
import tilelang.language as T


@tilelang.jit
def add_one(rows, cols, num_blocks, block=128):

    @T.prim_func
    def main(X: T.Tensor((rows, 64), "float32"), Y: T.Tensor((rows, 64), "float32"),
             Z: T.Tensor((cols, 8), "float32")):
        with T.Kernel(num_blocks, threads=128) as bx:
            for i, j in T.Parallel(block, 64):
                Y[bx * block + i, j] = X[bx * block + i, j] + 1

    return main


tokens = datasets.load_dataset("tokens")
add_one(tokens.num_rows, tokens.num_columns, 8)
