# T.tvm_thread_allreduce under T.attr(T.comm_reducer(...), "reduce_scope"):
# every thread of a group gets its group's combination. Each kernel stores
# every thread's result, so the NumPy oracle (Inputs/thread_allreduce_ref.py)
# checks all threads, for the three ways tlc builds it: a shuffle butterfly
# inside a warp (sum_x: 32 threads along x; sum_y4: threads (4, 8) reduced
# along y, lanes 4 apart), butterflies then a shared exchange of the warps'
# partials (sum_y2: threads (2, 32) along y, groups spread over two warps,
# as example_gemv.py's kernel), and a shared exchange alone (max_y3: 5
# threads along y, 3 apart, with a condition; sum_y32: 32 apart; a float
# sum over 24 threads along x), and two values at once (pair_y8: a sum
# and a count of the threads whose condition holds).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=sum_x %s | FileCheck %s --check-prefix=BFLY
# BFLY-COUNT-5: tile.intrinsic "T.shfl_xor"
# BFLY-NOT: tile.sync_threads
# BFLY-NOT: T.tvm_thread_allreduce
# RUN: tlc-build --emit=tile --kernel=sum_y2 %s | FileCheck %s --check-prefix=HYBRID
# HYBRID-COUNT-4: tile.intrinsic "T.shfl_xor"
# HYBRID: tile.alloc {{.*}}shared.dyn
# HYBRID: tile.sync_threads
# HYBRID: tile.for
# HYBRID: tile.sync_threads
# RUN: tlc-build --emit=tile --kernel=max_y3 %s | FileCheck %s --check-prefix=SHARED
# SHARED-NOT: T.shfl_xor
# SHARED: arith.select
# SHARED: tile.sync_threads
# SHARED: arith.maxsi
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 5 --save %t/out
# RUN: %python %S/Inputs/thread_allreduce_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: sum_x True
# REF: sum_y4 True
# REF: sum_y2 True
# REF: max_y3 True
# REF: sum_y32 True
# REF: fsum_x24 True
# REF: pair_y8 True
# The exchange's two barriers (slots written / slots read, so that a later
# exchange may reuse them) are the only ones: tile-insert-barriers adds none
# beside them.
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines --kernel=sum_y2 %s | FileCheck %s --check-prefixes=CUDA,BARRIERS
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines --kernel=max_y3 %s | FileCheck %s --check-prefix=BARRIERS
# CUDA: __shfl_xor_sync(
# BARRIERS: allreduce_slots[{{.*}}] =
# BARRIERS-NEXT: // T.sync_threads
# BARRIERS-NEXT: __syncthreads();
# BARRIERS-NEXT: const {{.*}} = allreduce_slots[
# BARRIERS: __syncthreads();
# BARRIERS-NOT: __syncthreads();
import tilelang
import tilelang.language as T


SUM = lambda x, y: x + y  # noqa: E731


def reducer_kernel(X, Y, over_y, combine=SUM, identity=0, dtype=T.int32, cond_even=False, G=3):
    """Each thread's A element reduced over its group (threads (X, Y),
    along y when over_y, else x; threads with (tx + ty) odd contribute the
    identity when cond_even); every thread stores its group's result."""

    @T.prim_func
    def main(A: T.Tensor((G, X * Y), dtype), C: T.Tensor((G, X * Y), dtype)):
        with T.Kernel(G, threads=(X, Y)) as bx:
            tx = T.get_thread_binding(0)
            ty = T.get_thread_binding(1)
            v = T.alloc_local((1,), dtype)
            r = T.alloc_local((1,), dtype)
            v[0] = A[bx, ty * X + tx]
            with T.attr(T.comm_reducer(combine, [T.Cast(dtype, identity)]), "reduce_scope",
                        T.reinterpret(T.uint64(0), dtype="handle")):
                T.evaluate(T.tvm_thread_allreduce(T.uint32(1), v[0], (tx + ty) % 2 == 0 if cond_even else True,
                                                  r[0], ty if over_y else tx, dtype="handle"))
            C[bx, ty * X + tx] = r[0]

    return main


# The configurations (Inputs/thread_allreduce_ref.py has the same table).
@tilelang.jit
def sum_x():
    return reducer_kernel(32, 2, over_y=False)


@tilelang.jit
def sum_y4():
    return reducer_kernel(4, 8, over_y=True)


@tilelang.jit
def sum_y2():
    return reducer_kernel(2, 32, over_y=True)


@tilelang.jit
def max_y3():
    return reducer_kernel(3, 5, over_y=True, combine=lambda x, y: T.max(x, y), identity=-2147483648, cond_even=True)


@tilelang.jit
def sum_y32():
    return reducer_kernel(32, 4, over_y=True)


@tilelang.jit
def fsum_x24():
    return reducer_kernel(24, 1, over_y=False, dtype=T.float32)


@tilelang.jit
def pair_y8(X=4, Y=8, G=3):
    @T.prim_func
    def main(A: T.Tensor((G, X * Y), T.int32), C: T.Tensor((G, X * Y), T.int32), D: T.Tensor((G, X * Y), T.int32)):
        with T.Kernel(G, threads=(X, Y)) as bx:
            tx = T.get_thread_binding(0)
            ty = T.get_thread_binding(1)
            s = T.alloc_local((1,), T.int32)
            n = T.alloc_local((1,), T.int32)
            with T.attr(T.comm_reducer(lambda x0, x1, y0, y1: (x0 + y0, x1 + y1), [T.int32(0), T.int32(0)]),
                        "reduce_scope", T.reinterpret(T.uint64(0), dtype="handle")):
                T.evaluate(T.tvm_thread_allreduce(T.uint32(2), A[bx, ty * X + tx], T.int32(1), A[bx, ty * X + tx] > 0,
                                                  s[0], n[0], ty, dtype="handle"))
            C[bx, ty * X + tx] = s[0]
            D[bx, ty * X + tx] = n[0]

    return main


for kernel in (sum_x, sum_y4, sum_y2, max_y3, sum_y32, fsum_x24, pair_y8):
    kernel()
