# Cluster launch control on the CPU target: T.clc_try_cancel claims a block
# of the grid that has not started (which is then never started) or says
# "not canceled" once every block has started; T.clc_is_canceled and
# T.clc_get_first_ctaid_x / _y decode the response. `persistent` is a
# persistent kernel in the style of gemm_tcgen5mma_ws_clc's scheduler: a
# block processes its own tile, then asks for the next one until the
# request fails. A tile processed twice doubles its output (the kernel adds
# to Y) and bumps Count past 1; a tile never processed leaves zeros; so the
# output matches NumPy only if every tile is processed exactly once. With
# one host thread (--threads 1) the first block takes every other tile, so
# only it starts; with four, blocks that started and tiles they stole
# partition the grid. `clusters` asks in clusters of 2 with the multicast
# form: the response goes to both blocks of the cluster, which take the
# canceled cluster's two blocks. `scheduled` has the structure of
# gemm_tcgen5mma_ws_clc's scheduler: one thread of a scheduler warp asks,
# publishes the answer on an mbarrier and leaves its loop when the request
# failed (a `break` inside the `if tx == 0:` branch, which runs as a fiber
# and is the loop's whole body); the consumer warp processes tiles until
# the answer says none is left.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cpu --emit=cpp --kernel persistent %s | FileCheck %s --check-prefix=CPP
# CPP: tlc::cpu::clcTryCancel(st, "{{.*}}clc.py:{{[0-9]+}}:{{[0-9]+}}", &{{.*}}.at({0}), &{{.*}}.at({0}), false);
# CPP: tlc::cpu::clcQuery(&{{.*}}.at({0}), 0) != 0;
# CPP: tlc::cpu::clcQuery(&{{.*}}.at({0}), 1)
# CPP: tlc::cpu::clcQuery(&{{.*}}.at({0}), 2)
# RUN: %python %S/Inputs/clc_check.py tlc-run %t/cpu %t/w | FileCheck %s
# CHECK: persistent threads=1: ok
# CHECK: persistent threads=4: ok
# CHECK: clusters threads=1: ok
# CHECK: scheduled threads=1: ok
# CHECK: scheduled threads=4: ok
#
# In Tile IR, one tile.clc_try_cancel and a tile.clc_query per decoded field.
# RUN: tlc-build --emit=tile --kernel persistent %s | FileCheck %s --check-prefix=IR
# IR: tile.clc_try_cancel %{{.*}}, %{{.*}} : !tile.buffer<[4], ui32, shared.dyn>, !tile.buffer<[1], ui64, shared.barrier>
# IR: tile.clc_query is_canceled %{{.*}} : !tile.buffer<[4], ui32, shared.dyn> -> i1
# IR: tile.clc_query first_ctaid_x
# IR: tile.clc_query first_ctaid_y
#
# sm_100a prints clusterlaunchcontrol (tlc_device/cuda/cluster.h); the other
# GPU targets refuse it at the primitive, naming sm_100a.
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --kernel persistent %s | FileCheck %s --check-prefix=SM100
# SM100: tlc::cuda::clcTryCancel((const void *)&{{.*}}, &{{.*}});
# SM100: const bool {{.*}} = tlc::cuda::clcIsCanceled((const void *)&
# SM100: const int {{.*}} = (int)tlc::cuda::clcFirstCtaid<0>((const void *)&
# SM100: const int {{.*}} = (int)tlc::cuda::clcFirstCtaid<1>((const void *)&
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --kernel clusters %s | FileCheck %s --check-prefix=MULTI
# MULTI: tlc::cuda::clcTryCancelMulticast((const void *)&
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --kernel persistent %s 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda --kernel query_only %s 2>&1 | FileCheck %s --check-prefix=SM80
# RUN: not tlc-build --target=hip:gfx942 --emit=hip --kernel query_only %s 2>&1 | FileCheck %s --check-prefix=HIP
# SM90: clc.py:[[# @LINE + 32]]:{{[0-9]+}}: error: T.clc_try_cancel: cluster launch control (clusterlaunchcontrol) is a Blackwell feature that only the cuda:sm_100a and cuda:sm_120a targets have; building for sm_90
# SM80: clc.py:[[# @LINE + 132]]:{{[0-9]+}}: error: T.clc_is_canceled: {{.*}}only the cuda:sm_100a and cuda:sm_120a targets have; building for sm_80
# HIP: clc.py:[[# @LINE + 131]]:{{[0-9]+}}: error: T.clc_is_canceled: {{.*}}only the cuda:sm_100a and cuda:sm_120a targets have; building for HIP (gfx942)

import tilelang
import tilelang.language as T


@tilelang.jit
def persistent(gx=6, gy=4, tile=32):

    @T.prim_func
    def main(X: T.Tensor((gy, gx * tile), T.float32),
             Y: T.Tensor((gy, gx * tile), T.float32),
             Count: T.Tensor((gy, gx), T.int32),
             Started: T.Tensor((gy, gx), T.int32)):
        with T.Kernel(gx, gy, threads=tile) as (bx, by):
            result = T.alloc_shared((4,), T.uint32)
            valid = T.alloc_shared((1,), T.int32)
            next_x = T.alloc_shared((1,), T.int32)
            next_y = T.alloc_shared((1,), T.int32)
            bar = T.alloc_barrier([1])
            tx = T.get_thread_binding()
            cx = T.alloc_var(T.int32, init=bx)
            cy = T.alloc_var(T.int32, init=by)
            if tx == 0:
                Started[by, bx] = 1
            for it in T.serial(gx * gy):
                Y[cy, cx * tile + tx] = Y[cy, cx * tile + tx] + X[cy, cx * tile + tx] * 2.0 + 1.0
                if tx == 0:
                    Count[cy, cx] = Count[cy, cx] + 1
                    T.mbarrier_arrive_expect_tx(bar, 16)
                    T.clc_try_cancel(result, bar)
                T.mbarrier_wait_parity(bar, it & 1)
                if tx == 0:
                    valid[0] = T.clc_is_canceled(result)
                    next_x[0] = T.clc_get_first_ctaid_x(result)
                    next_y[0] = T.clc_get_first_ctaid_y(result)
                T.sync_threads()
                if valid[0] == 0:
                    break
                cx = next_x[0]
                cy = next_y[0]
                T.sync_threads()

    return main


@tilelang.jit
def clusters(n=8, tile=32):

    @T.prim_func
    def main(X: T.Tensor((n * tile,), T.float32), Y: T.Tensor((n * tile,), T.float32),
             Owner: T.Tensor((n,), T.int32)):
        with T.ClusterKernel(n, threads=tile, cluster_dims=(2, 1, 1)) as bx:
            result = T.alloc_shared((4,), T.uint32)
            valid = T.alloc_shared((1,), T.int32)
            first = T.alloc_shared((1,), T.int32)
            bar = T.alloc_cluster_barrier([1])
            tx = T.get_thread_binding()
            rank = T.block_rank_in_cluster()
            b = T.alloc_var(T.int32, init=bx)
            T.cluster_sync()
            for it in T.serial(n):
                Y[b * tile + tx] = Y[b * tile + tx] + X[b * tile + tx] * 3.0
                if tx == 0:
                    Owner[b] = Owner[b] + bx + 1
                    T.mbarrier_arrive_expect_tx(bar, 16)
                T.cluster_sync()
                if tx == 0 and rank == 0:
                    T.clc_try_cancel_multicast(result, bar)
                T.mbarrier_wait_parity(bar, it & 1)
                if tx == 0:
                    valid[0] = T.clc_is_canceled(result)
                    first[0] = T.clc_get_first_ctaid_x(result)
                T.sync_threads()
                if valid[0] == 0:
                    break
                b = first[0] + rank
                T.sync_threads()
            T.cluster_sync()

    return main


@tilelang.jit
def scheduled(n=8, tile=32):

    @T.prim_func
    def main(X: T.Tensor((n * tile,), T.float32), Y: T.Tensor((n * tile,), T.float32)):
        with T.Kernel(n, threads=64) as bx:
            result = T.alloc_shared((4,), T.uint32)
            valid = T.alloc_shared((1,), T.int32)
            next_b = T.alloc_shared((1,), T.int32)
            arrived = T.alloc_barrier([1])
            published = T.alloc_barrier([1])
            consumed = T.alloc_barrier([32])
            tx = T.get_thread_binding()
            if tx < 32:
                for it in T.serial(n):
                    if tx == 0:
                        if it > 0:
                            T.mbarrier_wait_parity(consumed, (it - 1) & 1)
                        T.mbarrier_arrive_expect_tx(arrived, 16)
                        T.clc_try_cancel(result, arrived)
                        T.mbarrier_wait_parity(arrived, it & 1)
                        valid[0] = T.clc_is_canceled(result)
                        next_b[0] = T.clc_get_first_ctaid_x(result)
                        T.mbarrier_arrive(published)
                        if valid[0] == 0:
                            break
            else:
                b = T.alloc_var(T.int32, init=bx)
                for it in T.serial(n):
                    Y[b * tile + tx - 32] = Y[b * tile + tx - 32] + X[b * tile + tx - 32] * 2.0
                    T.mbarrier_wait_parity(published, it & 1)
                    v = valid[0]
                    nb = next_b[0]
                    T.mbarrier_arrive(consumed)
                    if v == 0:
                        break
                    b = nb

    return main


@tilelang.jit
def query_only():

    @T.prim_func
    def main(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            result = T.alloc_shared((4,), T.uint32)
            A[0] = T.clc_is_canceled(result)
            A[1] = T.Cast("int32", T.clc_get_first_ctaid_x(result))

    return main


persistent()
clusters()
scheduled()
query_only()
