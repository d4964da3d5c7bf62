# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# Warp shuffles, votes, reductions and launch-frame queries as CUDA builtins
# (tile.intrinsic). tests/sim/intrinsics.py runs this program on the sim
# device and compares every row of Out with NumPy.
import tilelang
import tilelang.language as T


@tilelang.jit
def warp_ops(X, threads=128):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    Out = T.empty((13, N), T.int32)
    with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
        tx = T.get_thread_binding()
        lane = tx % 32
        gid = bx * threads + tx
        x = T.alloc_var(T.int32)
        x = X[gid]
        # CHECK: __shfl_xor_sync(0xffffffffu, {{.*}}, (int)({{.*}}), (int)(32))
        s = T.alloc_var(T.int32)
        s = X[gid]
        for k in T.unroll(5):
            s += T.shfl_xor(s, 1 << k)
        Out[0, gid] = s
        # CHECK: __shfl_up_sync(0xffffffffu,
        scan = T.alloc_var(T.int32)
        scan = X[gid]
        for k in T.unroll(5):
            up = T.shfl_up(scan, 1 << k)
            if lane >= (1 << k):
                scan += up
        Out[1, gid] = scan
        # CHECK: __shfl_sync(0xffffffffu, {{.*}}, (int)(3), (int)(32))
        Out[2, gid] = T.shfl_sync(x, 3)
        # CHECK: __shfl_down_sync(0xffffffffu, {{.*}}, (int)(1), (int)(16))
        Out[3, gid] = T.shfl_down(x, 1, width=16)
        # CHECK: __ballot_sync(0xffffffffu,
        Out[4, gid] = T.cast(T.ballot_sync(x > 0), T.int32)
        # CHECK: __any_sync(0xffffffffu,
        Out[5, gid] = T.any_sync(x > 6)
        # CHECK: __all_sync(0xffffffffu,
        Out[6, gid] = T.all_sync(x > -9)
        # CHECK: __match_any_sync(0xffffffffu,
        Out[7, gid] = T.cast(T.match_any_sync(x & 3), T.int32)
        # CHECK: __syncthreads_count(
        Out[8, gid] = T.syncthreads_count(x > 0)
        # CHECK: tlc::cuda::warpAllReduce<tlc::cuda::MaxOp, 32>(
        Out[9, gid] = T.warp_reduce_max(x)
        # CHECK: tid % 32
        # CHECK: tid / (32 * 2)
        Out[10, gid] = T.get_lane_idx() + 100 * T.get_warp_idx() + 1000 * T.get_warp_group_idx(32, 2)
        # CHECK: tid % 64 == 0
        Out[11, gid] = T.cast(T.shuffle_elect(64), T.int32)
        Out[12, gid] = -1
        if lane < 5:
            # CHECK: __activemask()
            Out[12, gid] = T.cast(T.activemask(), T.int32)
    return Out


kernel = warp_ops.compile(N=256)
