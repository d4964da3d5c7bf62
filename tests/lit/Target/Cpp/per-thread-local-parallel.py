# A T.Parallel that touches only per-thread buffers (T.alloc_local) in a
# kernel with per-thread code is each thread's own loop over its own copies
# (TileLang does not partition a loop that touches only local buffers; the
# GPU targets print it as each thread's loop). The CPU target refused it
# ("cannot run this tile operation on a T.alloc_local / T.alloc_var buffer"):
# upstream's mxfp4 dequantising GEMM scales its per-thread decoded values
# this way (`for v in T.Parallel(local_size): B_local[v] *= scale[0]`).
# A T.Parallel that also touches a shared or global buffer stays a tile
# operation of the block (per-thread-errors.py).
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 5 --save %t/out
# RUN: %python %S/Inputs/per_thread_local_parallel_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: Y ok
# REF: Z ok
# The same kernel's CUDA and HIP on the sim device give the CPU target's
# values (the GPU targets dealt the loops out over the threads: thread t
# ran iteration t, and threads 8-63 never scaled their registers).
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --verify --reference %t/art --seed 5 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/art --seed 5 | FileCheck %s --check-prefix=SIM %}
# SIM: verify Y: PASS
# SIM: verify Z: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_local(X, threads=64, local_size=8):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    Z = T.empty((N // local_size, 2), T.float32)
    with T.Kernel(N // (threads * local_size), threads=threads) as bx:
        tx = T.get_thread_binding()
        base = (bx * threads + tx) * local_size
        v_loc = T.alloc_local((local_size,), T.float32)
        pair = T.alloc_local((2, local_size // 2), T.float32)
        factor = T.alloc_local((1,), T.float32)
        factor[0] = T.cast(tx % 4 + 1, T.float32)
        # A store into a local buffer from global memory: each thread's own
        # loop as well (TileLang partitions no loop that stores "local").
        for v in T.Parallel(local_size):
            v_loc[v] = X[base + v]
        # CHECK: for (int64_t tlc_t = 0; tlc_t < {{threads[_0-9]*}}; ++tlc_t) {
        # CHECK: tlc::cpu::lane(v_loc_all, tlc_t)
        # CHECK-NOT: T.sync_threads
        for v in T.Parallel(local_size):
            v_loc[v] = v_loc[v] * factor[0] + v
        # Two dimensions: the halves of v_loc, summed per row below.
        for i, j in T.Parallel(2, local_size // 2):
            pair[i, j] = v_loc[i * (local_size // 2) + j]
        for v in T.vectorized(local_size):
            Y[base + v] = v_loc[v]
        for i in T.serial(2):
            acc = T.alloc_var(T.float32, init=0)
            for j in T.serial(local_size // 2):
                acc += pair[i, j]
            Z[base // local_size, i] = acc
    return Y, Z


kernel = scale_local.compile(N=1024)
