# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: warp votes (T.any_sync/all_sync/ballot_sync/ballot/activemask/match_any_sync,
# T.syncthreads_count), T.shfl_up warp scan. Shape: eager T.const, four T.empty outputs.
import tilelang
import tilelang.language as T


@tilelang.jit
def warp_stats(X, threads=256):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    num_warps = threads // 32
    Scan = T.empty((N,), T.int32)
    Ballots = T.empty((T.ceildiv(N, threads), num_warps), T.uint64)
    Flags = T.empty((T.ceildiv(N, threads), num_warps, 4), T.int32)
    Count = T.empty((T.ceildiv(N, threads),), T.int32)
    with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
        tx = T.get_thread_binding()
        lane = tx % 32
        warp = tx // 32
        gid = bx * threads + tx
        v = T.alloc_var(T.int32)
        v = T.if_then_else(gid < N, X[gid], 0)
        positive = v > 0
        for s in T.unroll(5):
            up = T.shfl_up(v, 1 << s)
            if lane >= (1 << s):
                v += up
        if gid < N:
            Scan[gid] = v
        mask = T.ballot_sync(positive)
        any_pos = T.any_sync(positive)
        all_pos = T.all_sync(positive)
        peers = T.match_any_sync(X[T.min(gid, N - 1)])
        live = T.activemask()
        total = T.syncthreads_count(positive)
        if lane == 0:
            Ballots[bx, warp] = mask | (T.ballot(positive) & live)
            Flags[bx, warp, 0] = any_pos
            Flags[bx, warp, 1] = all_pos
            Flags[bx, warp, 2] = T.cast(peers, T.int32)
            Flags[bx, warp, 3] = T.cast(live & T.uint64(0xFFFFFFFF), T.int32)
        if tx == 0:
            Count[bx] = total
    return Scan, Ballots, Flags, Count


kernel = warp_stats.compile(N=1 << 16)

# CHECK: "name":"X","kind":"tensor","shape":[65536],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"Ballots","kind":"tensor","shape":[256,8],"dtype":"uint64","scope":"global","layout":null
# CHECK: "name":"Count","kind":"tensor","shape":[256],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"v","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null
