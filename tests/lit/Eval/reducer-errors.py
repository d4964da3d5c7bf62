# RUN: tlc-build --verify-diagnostics %s
# The reducer rules of TileLang that tlc's front end (so every target)
# checks, located; the valid forms next to them are accepted.
#
# T.fill of a reducer (TileLang's older form, `T.alloc_reducer(...,
# replication=...)`) fills every thread's partial, so TileLang requires a
# sum reducer to be filled with 0: a non-zero value would count once per
# thread, and the CPU target (one accumulator) would disagree with the
# GPU's. tlc's front end (so every target) rejects a value that is not a
# constant 0 for the sum and bitxor reducers, at the value; T.clear, a 0
# of any type, and any value for the idempotent max, min, bitand and bitor
# are accepted, as is an initial value given to T.reducer_init (combined
# once; Target/reducer-threads.py checks it against NumPy).
import tilelang
import tilelang.language as T


@tilelang.jit
def fills(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.int32),
             S: T.Tensor((4,), T.float32), I: T.Tensor((4,), T.int32)):
        with T.Kernel(1, threads=64):
            s = T.alloc_reducer((1,), T.float32, op="sum", replication="all")
            s2 = T.alloc_reducer((1,), T.float32, op="sum", replication="all")
            m = T.alloc_reducer((1,), T.float32, op="max", replication="all")
            mn = T.alloc_reducer((1,), T.float32, op="min", replication="all")
            x = T.alloc_reducer((1,), T.int32, op="bitxor")
            o = T.alloc_reducer((1,), T.int32, op="bitor")
            a = T.alloc_reducer((1,), T.int32, op="bitand")
            t = T.alloc_reducer((1,), T.float32, op="sum")
            # expected-error@+1 {{T.fill: a 'sum' reducer must be filled with 0 (every thread's partial takes the value, so it would count once per thread); give an initial value to T.reducer_init(reducer, init)}}
            T.fill(s, 1.0)
            # expected-error@+1 {{T.fill: a 'sum' reducer must be filled with 0}}
            T.fill(s2, A[0])
            # expected-error@+1 {{T.fill: a 'bitxor' reducer must be filled with 0}}
            T.fill(x, 3)
            T.clear(s)
            T.fill(s2, 0)
            T.fill(s2, T.float32(0.0))
            T.fill(x, 0)
            T.fill(m, -T.infinity(T.float32))
            T.fill(mn, 5.0)
            T.fill(o, 0x100)
            T.fill(a, -1)
            T.reducer_init(t, 2.5)
            for i in T.Parallel(N):
                s[0] += A[i]
                s2[0] += A[i]
                m[0] = T.max(m[0], A[i])
                mn[0] = T.min(mn[0], A[i])
                T.reducer_update(x[0], B[i])
                T.reducer_update(o[0], B[i])
                T.reducer_update(a[0], B[i])
                T.reducer_update(t[0], A[i])
            T.finalize_reducer(s)
            T.finalize_reducer(s2)
            T.finalize_reducer(m)
            T.finalize_reducer(mn)
            T.finalize_reducer(x)
            T.finalize_reducer(o)
            T.finalize_reducer(a)
            T.finalize_reducer(t)
            S[0] = s[0] + s2[0]
            S[1] = m[0]
            S[2] = mn[0]
            S[3] = t[0]
            I[0] = x[0]
            I[1] = o[0]
            I[2] = a[0]

    return main


# T.finalize_reducer's out-of-place form writes "the destination fragment"
# of the reducer's shape and dtype (exactly: TileLang checks the shapes
# are structurally equal, so (1, N) is not (N,)).
@tilelang.jit
def destinations(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), S: T.Tensor((N,), T.float32)):
        with T.Kernel(1, threads=64):
            r = T.alloc_reducer((N,), T.float32, op="sum")
            shared = T.alloc_shared((N,), T.float32)
            short = T.alloc_fragment((N // 2,), T.float32)
            halves = T.alloc_fragment((N,), T.float16)
            ok = T.alloc_fragment((N,), T.float32)
            wide = T.alloc_fragment((1, N), T.float32)
            T.reducer_init(r)
            for i in T.Parallel(N):
                T.reducer_update(r[i], A[i])
            # expected-error@+1 {{T.finalize_reducer: dst must be a T.alloc_fragment buffer}}
            T.finalize_reducer(r, shared)
            # expected-error@+1 {{T.finalize_reducer: dst must have the reducer's shape and dtype (float32)}}
            T.finalize_reducer(r, short)
            # expected-error@+1 {{T.finalize_reducer: dst must have the reducer's shape and dtype (float32)}}
            T.finalize_reducer(r, dst=halves)
            # expected-error@+1 {{T.finalize_reducer: dst must have the reducer's shape and dtype (float32)}}
            T.finalize_reducer(r, dst=wide)
            T.finalize_reducer(r, ok)
            T.copy(ok, S)

    return main


fills()
destinations()
