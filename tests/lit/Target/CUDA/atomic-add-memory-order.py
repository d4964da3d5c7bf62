# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# TILE: tile.atomic_add %Count[{{.*}}], {{%[a-z0-9_]+}} {memory_order = #tile<memory_order acq_rel>}
# TILE: tile.atomic_add %Count[{{.*}}], {{%[a-z0-9_]+}} {memory_order = #tile<memory_order release>}
# TILE: tile.atomic_add %Count[{{.*}}], {{%[a-z0-9_]+}} {memory_order = #tile<memory_order acquire>}
# TILE: tile.atomic_add %Count[{{.*}}], {{%[a-z0-9_]+}} {memory_order = #tile<memory_order relaxed>}
# TILE: tile.atomic_add %Count[{{.*}}], {{%[a-z0-9_]+}} : !tile.buffer
# RUN: not tlc-build --check %S/Inputs/atomic-add-bad-order.py 2>&1 | FileCheck %S/Inputs/atomic-add-bad-order.py --check-prefix=BAD
# T.atomic_add's memory_order: the add is a relaxed atomicAdd, so a release
# side is a device-scope fence before it and an acquire side one after it
# (acq_rel / seq_cst both); relaxed and None print the add alone. The
# counter pattern of a serial split-K (partials stored, then counted with
# acq_rel; the last block reads the others' partials) depends on it. An
# order that is no C++ memory order is TileLang's ValueError.
# tests/sim/skinny_gemm.py runs that pattern on the sim.
import tilelang
import tilelang.language as T


@tilelang.jit
def counters(X, Count, threads=64):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Count: T.Tensor((4,), T.int32)
    Seen = T.empty((N // threads,), T.int32)
    with T.Kernel(N // threads, threads=threads) as bx:
        tx = T.get_thread_binding()
        seen = T.alloc_shared((1,), T.int32)
        X[bx * threads + tx] = X[bx * threads + tx] * 2.0
        T.sync_threads()
        if tx == 0:
            # CHECK: __threadfence();  // memory_order acq_rel: release side
            # CHECK-NEXT: {{.*}} = tlc::cuda::atomicAddTo<int32_t>(&Count[0], 1);
            # CHECK-NEXT: __threadfence();  // memory_order acq_rel: acquire side
            seen[0] = T.atomic_add(Count[0], 1, memory_order="acq_rel", return_prev=True)
            # CHECK: __threadfence();  // memory_order release: release side
            # CHECK-NEXT: tlc::cuda::atomicAddTo<int32_t>(&Count[1], 1);
            # CHECK-NOT: __threadfence
            # CHECK: tlc::cuda::atomicAddTo<int32_t>(&Count[2], 1);
            # CHECK-NEXT: __threadfence();  // memory_order acquire: acquire side
            T.atomic_add(Count[1], 1, memory_order="release")
            T.atomic_add(Count[2], 1, memory_order="acquire")
            # CHECK-NOT: __threadfence
            # CHECK: tlc::cuda::atomicAddTo<int32_t>(&Count[3], 1);
            # CHECK-NOT: __threadfence
            # CHECK: tlc::cuda::atomicAddTo<int32_t>(&Count[3], 2);
            T.atomic_add(Count[3], 1, memory_order="relaxed")
            T.atomic_add(Count[3], 2)
        T.sync_threads()
        Seen[bx] = seen[0]
    return Seen
