# The sim device's memcheck knows each shared buffer's bounds: an index
# that runs off one buffer into its neighbour inside the block's shared
# memory is reported with the buffer's name, for CUDA and HIP kernels.
# The sim compiles the kernel with red zones between its buffers and with
# every element index of a buffer checked against the buffer's extent
# (runtime/lib/sim/SharedRedZones.h): the near faults land in a red zone,
# the far ones (1280 bytes) jump it into the other buffer, which only the
# index check catches (before branch hip36 they ran clean; those through
# pointer arithmetic, `(t + k)[i]` and `*(s + k)`, before branch hip37).
# The places name
# the DSL line of the scalar statement. The faults are planted in one copy
# of the generated source and switched on one per run, so each target's
# kernel is compiled once (Inputs/sim_buffer_plant.py).
# REQUIRES: sim-compiler, hip-toolchain
# RUN: rm -rf %t && tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda %s > /dev/null
# RUN: %python %S/Inputs/sim_buffer_plant.py tlc-run %t/cuda %t/wc | FileCheck %s -DSRC=two.cu
# RUN: tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null
# RUN: %python %S/Inputs/sim_buffer_plant.py tlc-run %t/hip %t/wh | FileCheck %s -DSRC=two.hip
# The red zones' bytes and the index checks are not in the generated
# source the user reads.
# RUN: FileCheck %s --check-prefix=SOURCE < %t/cuda/two.cu
# CHECK: untouched: clean
# CHECK: store-past-s: memcheck: out-of-bounds shared store of 4 bytes: {{[0-9]+}} bytes past the end of 's' (256 bytes at offset 0), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:44:
# CHECK: load-past-s: memcheck: out-of-bounds shared load of 4 bytes: {{[0-9]+}} bytes past the end of 's' (256 bytes at offset 0), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:47:
# CHECK: load-before-t: memcheck: out-of-bounds shared load of 4 bytes: {{[0-9]+}} bytes before 't' (at offset 256), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:47:
# CHECK: far-store-before-t: memcheck: out-of-bounds shared store of 4 bytes: {{[0-9]+}} bytes before 't' (at offset 256), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:45:
# CHECK: far-load-past-s: memcheck: out-of-bounds shared load of 4 bytes: {{[0-9]+}} bytes past the end of 's' (256 bytes at offset 0), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:48:
# SOURCE: float *t = reinterpret_cast<float *>(smem + 256);
# SOURCE-NOT: sharedIndex
import tilelang
import tilelang.language as T


@tilelang.jit
def two(n=64):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32),
             C: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=n):
            tx = T.get_thread_binding()
            s = T.alloc_shared((n,), T.float32)
            t = T.alloc_shared((n,), T.float32)
            s[tx] = A[tx]
            t[tx] = A[tx] * 2
            T.sync_threads()
            B[tx] = s[n - 1 - tx] + t[tx]
            C[tx] = s[tx // 2] - t[n - 1 - tx]

    return main

# CHECK: far-load-before-t-pointer: memcheck: out-of-bounds shared load of 4 bytes: {{[0-9]+}} bytes before 't' (at offset 256), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:48:
# CHECK: far-store-past-s-pointer: memcheck: out-of-bounds shared store of 4 bytes: {{[0-9]+}} bytes past the end of 's' (256 bytes at offset 0), by thread {{.*}} at [[SRC]]:[[#]] ({{.*}}sim-memcheck-buffers.py:44:
