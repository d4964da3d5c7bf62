# T.sync_grid, a barrier across every block of the grid: phase 1 writes
# one partial sum per block, phase 2 reads every block's partial. The CPU
# target runs such a kernel with every block on its own host thread and a
# grid barrier (against NumPy); CUDA and HIP print cooperative groups' grid
# barrier and the manifest asks for a cooperative launch, which the sim
# device runs with every block resident at once (against NumPy; it used to
# refuse it). A block that returns without reaching the barrier is an error
# at the barrier on the CPU and on the sim.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --kernel two_phase --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy'); p=np.load(d+'Part.npy'); ref=[x[b*125:(b+1)*125].sum() for b in range(8)]; print(bool(np.abs(p-ref).max() < 1e-3), bool(np.abs(y - x/x.sum()).max() < 1e-5))" | FileCheck %s
# CHECK: True True
# RUN: not tlc-run %t/cpu --kernel early_exit 2>&1 | FileCheck %s --check-prefix=EXIT
# EXIT: sync-grid.py:{{[0-9]+}}:{{[0-9]+}}: error: T.sync_grid: a block of the grid returned without reaching this barrier
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel two_phase %s | FileCheck %s --check-prefix=CUDA
# CUDA: #include "tlc_device/cuda/grid.h"
# CUDA: Part[bx] =
# CUDA-NEXT: // T.sync_grid  sync-grid.py:[[# @LINE + 32]]:{{[0-9]+}}
# CUDA-NEXT: tlc::cuda::syncGrid();
# RUN: tlc-build --target=hip:gfx942 --emit=hip --kernel two_phase %s | FileCheck %s --check-prefix=HIP
# HIP: #include "tlc_device/hip/grid.h"
# HIP: tlc::hip::syncGrid();
# RUN: tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel two_phase -o %t/cu %s
# RUN: FileCheck %s --check-prefix=MANIFEST < %t/cu/two_phase.json
# MANIFEST: "cooperative": true
# RUN: %if sim-compiler %{ rm -rf %t/sim && tlc-run %t/cu --device sim --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/sim/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy'); p=np.load(d+'Part.npy'); ref=[x[b*125:(b+1)*125].sum() for b in range(8)]; print(bool(np.abs(p-ref).max() < 1e-3), bool(np.abs(y - x/x.sum()).max() < 1e-5))" | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel early_exit -o %t/exit %s > /dev/null %}
# RUN: %if sim-compiler %{ not tlc-run %t/exit --device sim 2>&1 | FileCheck %s --check-prefix=SIMEXIT %}
# SIMEXIT: synccheck: block (1,0,0) waits at T.sync_grid at early_exit.cu:{{[0-9]+}} ({{.*}}sync-grid.py:[[# @LINE + 40]]:{{[0-9]+}}), which block (0,0,0) never reaches: it has exited

import tilelang
import tilelang.language as T


@tilelang.jit
def two_phase(N=1000, blocks=8, threads=128):
    per = T.ceildiv(N, blocks)

    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Part: T.Tensor((blocks,), "float32"),
             Y: T.Tensor((N,), "float32")):
        with T.Kernel(blocks, threads=threads) as bx:
            acc = T.alloc_local((1,), "float32")
            acc[0] = 0
            for k in T.serial(per):
                if bx * per + k < N:
                    acc[0] = acc[0] + X[bx * per + k]
            Part[bx] = acc[0]
            T.sync_grid()
            tot = T.alloc_local((1,), "float32")
            tot[0] = 0
            for b in T.serial(blocks):
                tot[0] = tot[0] + Part[b]
            for k in T.Parallel(per):
                if bx * per + k < N:
                    Y[bx * per + k] = X[bx * per + k] / tot[0]

    return main


@tilelang.jit
def early_exit(blocks=4, threads=32):

    @T.prim_func
    def main(Y: T.Tensor((blocks,), "float32")):
        with T.Kernel(blocks, threads=threads) as bx:
            if bx > 0:
                Y[bx] = 1
                T.sync_grid()

    return main


two_phase()
early_exit()
