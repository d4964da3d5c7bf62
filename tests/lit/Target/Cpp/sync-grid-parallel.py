# T.sync_grid straight in a T.Parallel body (TileLang's cooperative test):
# the GPU targets run every slot of the partitioned loop on every thread,
# each stretch of the body between barriers under the slot's thread and
# box tests and the barrier outside them, so every thread reaches it once
# per slot; the CPU target runs the stretches as loops of their own with
# the barrier between them, which is the same when every element has a
# thread of its own (else an error). Phase 1 writes A[k] = k, phase 2
# reads the mirrored element of another block into a fragment, waits for
# the grid, and adds it: every element is N - 1 (NumPy checks the CPU
# run). Raw TIR's block barrier T.tvm_storage_sync("shared") in such a
# loop runs the same way (a block reversed through shared memory; CPU and
# sim against NumPy). A barrier under a condition of the element stays an
# error.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu --kernel mirror_sum %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; a=np.load('%t/out/A.npy'); print(a.shape, bool((a == a.shape[0] - 1).all()))" | FileCheck %s
# CHECK: (1000,) True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel mirror_sum %s | FileCheck %s --check-prefix=CUDA
# CUDA: for (int [[R:r_[0-9]+]] = 0;
# CUDA: tlc::cuda::syncGrid();
# CUDA: A[
# RUN: rm -rf %t/b && tlc-build --target=cpu -o %t/b --kernel mirror_block %s > /dev/null
# RUN: tlc-run %t/b --save %t/bout > /dev/null
# RUN: %python -c "import numpy as np; a=np.load('%t/bout/inputs/A.npy'); b=np.load('%t/bout/B.npy'); print(bool((b == a.reshape(-1, 128)[:, ::-1].reshape(-1)).all()))" | FileCheck %s --check-prefix=BLOCK
# BLOCK: True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel mirror_block %s | FileCheck %s --check-prefix=BLOCKCUDA
# BLOCKCUDA: for (int [[R:r_?[0-9]*]] = 0;
# BLOCKCUDA: __syncthreads();
# BLOCKCUDA: B[
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel mirror_block -o %t/bcu %s > /dev/null %}
# RUN: %if sim-compiler %{ rm -rf %t/bsim && tlc-run %t/bcu --device sim --save %t/bsim > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; a=np.load('%t/bsim/inputs/A.npy'); b=np.load('%t/bsim/B.npy'); print(bool((b == a.reshape(-1, 128)[:, ::-1].reshape(-1)).all()))" | FileCheck %s --check-prefix=BLOCK %}
# RUN: tlc-build --target=hip:gfx942 --emit=hip --kernel mirror_sum %s | FileCheck %s --check-prefix=HIP
# HIP: tlc::hip::syncGrid();
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --kernel guarded %s 2>&1 | FileCheck %s --check-prefix=RACE
# RUN: not tlc-build --target=hip:gfx942 --emit=hip --kernel guarded %s 2>&1 | FileCheck %s --check-prefix=RACE
# RACE: sync-grid-parallel.py:[[# @LINE + 49]]:{{[0-9]+}}: error: T.sync_grid: is a barrier of the whole block, but here only some threads may reach it
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel partial %s | FileCheck %s --check-prefix=PARTIAL
# PARTIAL: if (f < 96) {
# PARTIAL: A[
# PARTIAL: tlc::cuda::syncGrid();
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel wide %s | FileCheck %s --check-prefix=WIDEGPU
# WIDEGPU: r < 2;
# WIDEGPU: tlc::cuda::syncGrid();
# RUN: rm -rf %t/p && tlc-build --target=cpu -o %t/p --kernel partial %s > /dev/null
# RUN: tlc-run %t/p --save %t/pout > /dev/null
# RUN: %python -c "import numpy as np; a=np.load('%t/pout/A.npy'); print(bool((a == np.arange(192) %% 96).all()))" | FileCheck %s --check-prefix=PCPU
# PCPU: True
# RUN: not tlc-build --target=cpu --emit=cpp --kernel wide %s 2>&1 | FileCheck %s --check-prefix=WIDE
# WIDE: sync-grid-parallel.py:[[# @LINE + 63]]:{{[0-9]+}}: error: T.sync_grid inside a T.Parallel: the CPU target runs it only where every element of the loop has a thread of its own

import tilelang
import tilelang.language as T


@tilelang.jit
def mirror_sum(N=1000, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
            mirrored = T.alloc_fragment((block,), "float32")
            base = bx * block
            for i in T.Parallel(block):
                if base + i < N:
                    A[base + i] = base + i
            T.sync_grid()
            for i in T.Parallel(block):
                if base + i < N:
                    mirrored[i] = A[N - base - i - 1]
                T.sync_grid()
                if base + i < N:
                    A[base + i] = A[base + i] + mirrored[i]

    return main


@tilelang.jit
def guarded(N=256):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(2, threads=128) as bx:
            for i in T.Parallel(128):
                if i < 64:
                    T.sync_grid()
                A[bx * 128 + i] = i

    return main


@tilelang.jit
def partial(N=192):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(2, threads=128) as bx:
            for i in T.Parallel(96):
                A[bx * 96 + i] = i
                T.sync_grid()

    return main


@tilelang.jit
def wide(N=512):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(2, threads=128) as bx:
            for i in T.Parallel(256):
                A[bx * 256 + i] = i
                T.sync_grid()

    return main


@tilelang.jit
def mirror_block(N=512):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(N // 128, threads=128) as bx:
            stage = T.alloc_shared((128,), "float32")
            for i in T.Parallel(128):
                stage[i] = A[bx * 128 + i]
                T.tvm_storage_sync("shared")
                B[bx * 128 + i] = stage[127 - i]

    return main


mirror_sum()
mirror_block()
guarded()
partial()
wide()
