# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 %s | FileCheck %s --check-prefix=SM80
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s --check-prefix=SM90
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null 2>&1
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/mbarrier_sm80_check.py %t/out | FileCheck %s
# A producer warpgroup fills a two-slot shared ring and a consumer
# warpgroup accumulates it, synchronised by mbarriers with parity waits
# (`full` and `empty` per slot; the producer's first wait on each `empty`
# slot is for parity 1, which a fresh barrier has completed): the pattern
# of the warp-specialised GEMM examples without TMA transaction bytes. The
# CUDA target refused mbarriers below sm_90 (waits were try_wait.parity
# only); on sm_80 they are mbarrier.init / arrive / test_wait.parity
# (tlc_device/cuda/tma.h), on sm_90a unchanged. mbarrier-sm80-sim.test runs
# the sm_80 build on sim against the CPU target; mbarrier-sm80-nvcc.test
# assembles it for sm_80; here the CPU target against float64 NumPy
# (B = sum over k of (k + 1) * A[k]). Transaction bytes still need sm_90
# (ws-errors.py).
# SM80: tlc::cuda::mbarrierInit(&full[0], 128);
# SM80: tlc::cuda::mbarrierWait(&empty[
# SM80: tlc::cuda::mbarrierArrive(&full[
# SM80: tlc::cuda::mbarrierWait(&full[
# SM80: tlc::cuda::mbarrierArrive(&empty[
# SM90: tlc::cuda::mbarrierInit(&full[0], 128);
# SM90: tlc::cuda::mbarrierWait(&empty[
# CHECK: B close True
import tilelang
import tilelang.language as T


@tilelang.jit
def weighted_rows(A: T.Tensor((8, 128), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=256):
        buf = T.alloc_shared((2, 128), "float32")
        full = T.alloc_barrier(arrive_count=[128, 128])
        empty = T.alloc_barrier(arrive_count=[128, 128])
        acc = T.alloc_fragment((128,), "float32")
        with T.ws(1):
            for k in T.serial(8):
                T.barrier_wait(empty[k % 2], ((k // 2) % 2) ^ 1)
                for i in T.Parallel(128):
                    buf[k % 2, i] = A[k, i]
                T.barrier_arrive(full[k % 2])
        with T.ws(0):
            T.clear(acc)
            for k in T.serial(8):
                T.barrier_wait(full[k % 2], (k // 2) % 2)
                for i in T.Parallel(128):
                    acc[i] += buf[k % 2, i] * (k + 1)
                T.barrier_arrive(empty[k % 2])
            T.copy(acc, B)
