# Cooperative kernels whose blocks exchange data through global memory
# across T.sync_grid, several times per launch: `rounds` writes a tile per
# block, then, twice, reads two other blocks' tiles (one reversed) into a
# second buffer and halves it back after another grid barrier, and sums its
# own tile through shared memory at the end; `tally` counts every thread
# of the grid with atomics before the barrier and reads the total after
# it; `exit_early` has its last block skip the barrier. The CPU target runs
# them here against NumPy (every block on a host thread of its own);
# tests/sim/cooperative.py runs them on the sim device for cuda:sm_80,
# cuda:sm_90a and hip:gfx942 against NumPy, with the barriers removed
# (racecheck), too-large grids (refused) and exit_early (synccheck).
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu --kernel rounds %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); f=lambda a: 0.5*(a[np.r_[1:6,0]][:, ::-1] + a[np.r_[5,0:5]]); a=f(f(2*x)); print(bool(np.abs(np.load(d+'Y.npy')-a).max() < 1e-5), bool(np.abs(np.load(d+'S.npy')-a.sum(1)).max() < 1e-3))" | FileCheck %s
# CHECK: True True
# RUN: rm -rf %t/tally && tlc-build --target=cpu -o %t/tally --kernel tally %s > /dev/null
# RUN: tlc-run %t/tally --save %t/tout > /dev/null
# RUN: %python -c "import numpy as np; d='%t/tout/'; c=np.load(d+'inputs/C.npy'); y=np.load(d+'Y.npy'); print(bool((y == c[0] + 6 * 64).all()), bool(np.load(d+'C.npy')[0] == c[0] + 6 * 64))" | FileCheck %s --check-prefix=TALLY
# TALLY: True True
# RUN: rm -rf %t/exit && tlc-build --target=cpu -o %t/exit --kernel exit_early %s > /dev/null
# RUN: not tlc-run %t/exit 2>&1 | FileCheck %s --check-prefix=EXIT
# EXIT: sync-grid-rounds.py:{{[0-9]+}}:{{[0-9]+}}: error: T.sync_grid: a block of the grid returned without reaching this barrier

import tilelang
import tilelang.language as T


@tilelang.jit
def rounds(per=100, blocks=6, threads=128, steps=2):

    @T.prim_func
    def main(X: T.Tensor((blocks, per), "float32"), A: T.Tensor((blocks, per), "float32"),
             B: T.Tensor((blocks, per), "float32"), Y: T.Tensor((blocks, per), "float32"),
             S: T.Tensor((blocks,), "float32")):
        with T.Kernel(blocks, threads=threads) as bx:
            tile = T.alloc_shared((per,), "float32")
            total = T.alloc_fragment((1,), "float32")
            for i in T.Parallel(per):
                A[bx, i] = X[bx, i] * 2
            T.sync_grid()
            for r in T.serial(steps):
                for i in T.Parallel(per):
                    B[bx, i] = A[(bx + 1) % blocks, per - 1 - i] + A[(bx + blocks - 1) % blocks, i]
                T.sync_grid()
                for i in T.Parallel(per):
                    A[bx, i] = B[bx, i] * 0.5
                T.sync_grid()
            T.copy(A[bx, :], tile)
            T.reduce_sum(tile, total, dim=0)
            S[bx] = total[0]
            for i in T.Parallel(per):
                Y[bx, i] = tile[i]

    return main


@tilelang.jit
def tally(blocks=6, threads=64):

    @T.prim_func
    def main(C: T.Tensor((1,), "int32"), Y: T.Tensor((blocks,), "int32")):
        with T.Kernel(blocks, threads=threads) as bx:
            for i in T.Parallel(threads):
                T.atomic_add(C[0], 1)
            T.sync_grid()
            Y[bx] = C[0]

    return main


@tilelang.jit
def exit_early(blocks=4, threads=32):

    @T.prim_func
    def main(Y: T.Tensor((blocks,), "float32")):
        with T.Kernel(blocks, threads=threads) as bx:
            if bx < blocks - 1:
                Y[bx] = 1
                T.sync_grid()

    return main


rounds()
tally()
exit_early()
