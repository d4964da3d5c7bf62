# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 11 --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy').astype(np.float64); z=np.load(d+'Z.npy').astype(np.float64); print(np.allclose(y, 2 * x, 0, 0), np.allclose(z, np.cumsum(x.reshape(x.shape[0], -1, 16).sum(2), 1)[:, -1], 1e-5, 1e-4))" | FileCheck %s --check-prefix=REF
# REF: True True
# A three-way warp-specialised kernel in the style of hand-written Hopper
# decoders: threads 128..191 produce K tiles of X into a two-stage shared
# ring with per-thread stores and cp.async-style arrivals on `full`; threads
# 0..63 double each tile into Y, threads 64..127 sum it into a running
# total; both consumers release the stage on `free` (arrival count 128),
# and a named barrier of the two consumer groups (128 threads) orders the
# total's last update before it is stored. On the CPU target each branch
# runs as a fiber; the producer's wait for a free stage needs the
# consumers' arrivals, which a branch-after-branch run cannot give.
import tilelang
import tilelang.language as T


@tilelang.jit
def ws_three(X, M=4, K=128, block_K=16, stages=2):
    X: T.Tensor((M, K), T.float32)
    Y = T.empty((M, K), T.float32)
    Z = T.empty((M,), T.float32)
    with T.Kernel(M, threads=192) as bx:
        ring = T.alloc_shared((stages, block_K), T.float32)
        total = T.alloc_shared((1,), T.float32)
        # CHECK: tlc::cpu::mbarrierInit(&{{.*}}.at({0}), 64);
        full = T.alloc_barrier(arrive_count=[64] * stages)
        free = T.alloc_barrier(arrive_count=[128] * stages)
        tx = T.get_thread_binding()
        if tx == 0:
            total[0] = 0.0
        T.sync_threads()
        # CHECK: tlc::cpu::Fibers::current().spawn([[G:fibers[_0-9]*]], [&]() {
        if tx < 64:
            for k in T.serial(K // block_K):
                s = k % stages
                # CHECK: const int64_t [[W:waited_phase[_0-9]*]] = tlc::cpu::mbarrierWaitBegin(mbarrier_waits, {{.*}}, tlc::cpu::firstThread(
                # CHECK: tlc::cpu::Fibers::current().waitUntil(st, {{.*}}, "T.barrier_wait", [&] { return tlc::cpu::mbarrierWaitDone({{.*}}, [[W]]); })
                T.barrier_wait(full[s], (k // stages) % 2)
                for j in T.Parallel(block_K):
                    Y[bx, k * block_K + j] = ring[s, j] * 2.0
                T.barrier_arrive(free[s])
        elif tx < 128:
            acc = T.alloc_fragment((1,), T.float32)
            for k in T.serial(K // block_K):
                s = k % stages
                T.barrier_wait(full[s], (k // stages) % 2)
                T.reduce_sum(ring[s, :], acc, dim=1)
                if tx == 64:
                    total[0] = total[0] + acc[0]
                T.barrier_arrive(free[s])
            # CHECK: tlc::cpu::namedBarrierSync(st, {{.*}}, 1, 128, tlc::cpu::countThreads(
            T.sync_threads(1, 128)
            if tx == 64:
                Z[bx] = total[0]
        else:
            p = tx - 128
            for k in T.serial(K // block_K):
                s = k % stages
                T.barrier_wait(free[s], (k // stages + 1) % 2)
                if p < block_K:
                    ring[s, p] = X[bx, k * block_K + p]
                T.cp_async_barrier_noinc(full[s])
        if tx < 64:
            T.sync_threads(1, 128)
        # CHECK: tlc::cpu::Fibers::current().join(st, {{.*}}, [[G]]);
    return Y, Z
