# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
#
# A branch condition with a conjunct the same for every thread of the
# block (`tx < 64 and rank == 0`) runs on the threads of the other
# conjunct, and an `elif` range after it (`128 <= tx < 256`) is the same
# range whichever value the uniform conjunct has (ThreadUniformity's
# threadRangeOf): the tile operations of both branches are partitioned
# over their threads (the persistent tcgen05 GEMM's warp roles).
#
# CHECK: if ({{.*}}) {
# CHECK-NEXT: // threads [0, 64) (64): tile operations are partitioned over them
# CHECK: } else {
# CHECK: // threads [128, 256) (128): tile operations are partitioned over them
# CHECK-NEXT: const int tid = (int)threadIdx.x - 128;
import tilelang
import tilelang.language as T


@tilelang.jit
def roles(A, block=64):
    N = T.const("N")
    A: T.Tensor((N, block), T.float32)
    C = T.empty((N, block), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=256, cluster_dims=2) as bx:
        a = T.alloc_fragment((block, block), T.float32)
        c = T.alloc_fragment((block, block), T.float32)
        rank = T.block_rank_in_cluster()
        tx = T.get_thread_binding()
        if tx < 64 and rank == 0:
            T.copy(A[bx * block, 0], a)
            T.copy(a, C[bx * block, 0])
        elif 128 <= tx < 256:
            T.fill(c, 1.0)
            T.copy(c, C[bx * block, 0])
    return C


def main():
    import torch
    roles(torch.randn(256, 64))


if __name__ == "__main__":
    main()
