# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 %s | FileCheck %s
# Tile operations under conditions on the thread index, without mbarriers:
# the first warp group doubles A into D through shared memory (`if tx <
# 128`), the rest of the block (`else`, threads 128..383) sums the rows of
# B; each part is partitioned over its own threads and synchronised by its
# own named barrier. Runs on the sim device and on the CPU target
# (tests/sim/warp_specialized.py).
#
# Warp group 0: tid is its index already; its barriers are named barrier 15
# over its 128 threads.
# CHECK: // threads [0, 128) (128): tile operations are partitioned over them
# CHECK-NOT: const int tid
# CHECK: tlc::cuda::namedBarrierSync(15, 128);  // the previous iteration's reads are done
# CHECK: tlc::cuda::namedBarrierSync(15, 128);  // shared-memory dependence
# CHECK-NOT: __syncthreads
# The others: 256 threads from 128, their fragments laid out for 256.
# CHECK: // threads [128, 384) (256): tile operations are partitioned over them
# CHECK-NEXT: const int tid = (int)threadIdx.x - 128;
# CHECK-NOT: __syncthreads
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def split_work(M, N, bm=64, bn=64, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype),
             D: T.Tensor((M, N), dtype), S: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, bm), threads=384) as bx:
            A_s = T.alloc_shared((bm, bn), dtype)
            b = T.alloc_fragment((bm, bn), dtype)
            s = T.alloc_fragment((bm,), dtype)
            acc = T.alloc_fragment((bm,), dtype)
            tx = T.get_thread_binding()
            if tx < 128:
                for j in T.serial(T.ceildiv(N, bn)):
                    T.copy(A[bx * bm, j * bn], A_s)
                    for i, k in T.Parallel(bm, bn):
                        A_s[i, k] = A_s[i, k] * 2.0
                    T.copy(A_s, D[bx * bm, j * bn])
            else:
                T.clear(acc)
                for j in T.serial(T.ceildiv(N, bn)):
                    T.copy(B[bx * bm, j * bn], b)
                    T.reduce_sum(b, s, dim=1)
                    for i in T.Parallel(bm):
                        acc[i] += s[i]
                T.copy(acc, S[bx * bm])

    return main


split_work(100, 150)
