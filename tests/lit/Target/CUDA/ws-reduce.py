# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# A warp-specialised row reduction: warp group 0 copies row blocks of X
# into a two-stage shared ring, warp group 1 (with T.ws) reads each block
# into a fragment, sums its rows, scales them in a T.Parallel and stores
# them. tests/sim/warp_specialized.py runs it on the sim device against
# NumPy.
#
# CHECK: // threads [0, 128) (128): tile operations are partitioned over them
# CHECK: tlc::cuda::cpAsyncWaitAll();
# CHECK-NEXT: tlc::cuda::mbarrierArrive(&ready[
# CHECK-NOT: __syncthreads
# CHECK: // threads [128, 256) (128): tile operations are partitioned over them
# CHECK-NEXT: const int tid = (int)threadIdx.x - 128;
# CHECK: tlc::cuda::mbarrierWait(&ready[
# CHECK: T.copy
# CHECK: tlc::cuda::mbarrierArrive(&free[
# CHECK: T.reduce
# CHECK-NOT: __syncthreads
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def ws_row_sum(M, N, block_M=32, block_N=64, stages=2, dtype="float32"):

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=256) as bx:
            X_s = T.alloc_shared((stages, block_M, block_N), dtype)
            x = T.alloc_fragment((block_M, block_N), dtype)
            part = T.alloc_fragment((block_M,), dtype)
            acc = T.alloc_fragment((block_M,), dtype)
            ready = T.alloc_barrier(arrive_count=[128] * stages)
            free = T.alloc_barrier(arrive_count=[128] * stages)
            num_n = T.ceildiv(N, block_N)

            with T.ws(0):
                for j in T.serial(num_n):
                    T.barrier_wait(free[j % stages], (j // stages + 1) % 2)
                    T.copy(X[bx * block_M, j * block_N], X_s[j % stages, :, :])
                    # arrives once this thread's copies are done
                    T.cp_async_barrier_noinc(ready[j % stages])
            with T.ws(1):
                T.clear(acc)
                for j in T.serial(num_n):
                    T.barrier_wait(ready[j % stages], (j // stages) % 2)
                    T.copy(X_s[j % stages, :, :], x)
                    T.barrier_arrive(free[j % stages])
                    T.reduce_sum(x, part, dim=1)
                    for i in T.Parallel(block_M):
                        acc[i] += part[i]
                for i in T.Parallel(block_M):
                    acc[i] = acc[i] * 0.5
                T.copy(acc, Y[bx * block_M])

    return main


ws_row_sum(100, 200)
