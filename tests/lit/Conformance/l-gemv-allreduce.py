# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# L: GEMV with T.thread_binding (assigned + loop), T.comm_reducer, T.tvm_thread_allreduce,
# T.attr reduce_scope, T.evaluate, T.reinterpret, T.Cast. Shape: lazy, argparse call site.
import argparse

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemv_allreduce(N, K, block_N=4, reduce_threads=32, dtype=T.float16, accum_dtype=T.float32):
    vec = 128 // T.dtype(dtype).bits
    block_K = reduce_threads * vec

    @T.prim_func
    def main(A: T.Tensor((K,), dtype), B: T.Tensor((N, K), dtype), C: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=(reduce_threads, block_N)) as bn:
            tk = T.thread_binding(0, reduce_threads, thread="threadIdx.x")
            a_local = T.alloc_local((vec,), dtype)
            b_local = T.alloc_local((vec,), dtype)
            partial = T.alloc_local((1,), accum_dtype)
            total = T.alloc_local((1,), accum_dtype)
            for tn in T.thread_binding(0, block_N, thread="threadIdx.y"):
                partial[0] = T.Cast(accum_dtype, 0)
                for ko in T.serial(T.ceildiv(K, block_K)):
                    for v in T.vectorized(vec):
                        a_local[v] = A[ko * block_K + tk * vec + v]
                        b_local[v] = B[bn * block_N + tn, ko * block_K + tk * vec + v]
                    for v in T.serial(vec):
                        partial[0] += T.Cast(accum_dtype, a_local[v]) * T.Cast(accum_dtype, b_local[v])
                with T.attr(
                    T.comm_reducer(lambda x, y: x + y, [T.Cast(accum_dtype, 0)]),
                    "reduce_scope",
                    T.reinterpret(T.uint64(0), dtype="handle"),
                ):
                    T.evaluate(T.tvm_thread_allreduce(T.uint32(1), partial[0], True, total[0], tk, dtype="handle"))
                if tk == 0:
                    C[bn * block_N + tn] = T.Cast(dtype, total[0])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=8192)
    parser.add_argument("--k", type=int, default=4096)
    args = parser.parse_args()
    kernel = gemv_allreduce(args.n, args.k)
    return kernel


if __name__ == "__main__":
    main()

# CHECK: "name":"B","kind":"tensor","shape":[8192,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"a_local","kind":"buffer","shape":[8],"dtype":"float16","scope":"local","layout":null
# CHECK: "name":"b_local","kind":"buffer","shape":[8],"dtype":"float16","scope":"local","layout":null
# CHECK: "name":"partial","kind":"buffer","shape":[1],"dtype":"float32","scope":"local","layout":null
# CHECK: "name":"total","kind":"buffer","shape":[1],"dtype":"float32","scope":"local","layout":null
