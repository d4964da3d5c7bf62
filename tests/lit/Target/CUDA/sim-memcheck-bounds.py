# The sim device's memcheck reports out-of-bounds reads and writes of shared
# and global memory with the kernel's line, as compute-sanitizer does:
# faults planted in this kernel's CUDA source, one at a time. A negative
# index into the first shared buffer lands below the block's shared memory,
# which the access hooks used to let through unchecked (an unpicked
# `s[tx - 3]` ran clean); a read of shared memory no thread wrote is
# initcheck's, reported where the value is stored to global memory.
# An index that stays inside the block's shared memory but leaves its
# buffer for a neighbour is checked since branches hip35 / hip36
# (tlc-run/sim-memcheck-buffers.py); here the shared faults move the
# pointer, not the index, so that the checks of the address run: below the
# block's shared memory; past the end, since branch hip37's checks of
# pointer arithmetic (`(s + K)[I]`), the buffer's own.
# REQUIRES: sim-compiler
# RUN: rm -rf %t && tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda %s > /dev/null
# RUN: %python %S/Inputs/sim_memcheck_plant.py tlc-run %t/cuda %t/w | FileCheck %s
# CHECK: untouched: clean
# CHECK: shared-load-below: memcheck: out-of-bounds shared load of 4 bytes: 256 bytes before the block's shared memory (a negative index?), by thread (63,0,0) of block (0,0,0) at reverse.cu:[[#]]
# CHECK: shared-store-below: memcheck: out-of-bounds shared store of 4 bytes: 12 bytes before the block's shared memory {{.*}} at reverse.cu:[[#]]
# CHECK: shared-store-past: memcheck: out-of-bounds shared store of 4 bytes: 4 bytes past the end of 's' (256 bytes at offset 0), {{.*}} at reverse.cu:[[#]]
# CHECK: global-load-below: memcheck: out-of-bounds global load of 4 bytes (8 bytes before 'parameter A float32[64]' (256 bytes)) {{.*}} at reverse.cu:[[#]]
# CHECK: global-store-past: memcheck: out-of-bounds global store of 4 bytes (4 bytes past the end of 'parameter B float32[64]' (256 bytes)) {{.*}} at reverse.cu:[[#]]
# CHECK: shared-never-written: initcheck: store of an undefined value to global memory {{.*}} at reverse.cu:[[#]]
import tilelang
import tilelang.language as T


@tilelang.jit
def reverse(n=64):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=n):
            tx = T.get_thread_binding()
            s = T.alloc_shared((n,), T.float32)
            s[tx] = A[tx]
            T.sync_threads()
            B[tx] = s[n - 1 - tx]

    return main
