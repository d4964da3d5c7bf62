# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 %s | FileCheck %s
# The thread ranges the CUDA target reads from conditions on the thread
# index (ThreadUniformity.h's threadRangeOf): a warp-group index compared
# with a constant, an `and` of two bounds, an else branch, and a range
# nested in another. Each tile operation is partitioned over its range.
import tilelang
import tilelang.language as T


@tilelang.jit
def ranges(A: T.Tensor((4, 256), T.float32), B: T.Tensor((4, 256), T.float32)):
    with T.Kernel(1, threads=512):
        tx = T.get_thread_binding()
        # CHECK: // threads [128, 256) (128): tile operations are partitioned over them
        # CHECK-NEXT: const int tid = (int)threadIdx.x - 128;
        if T.get_warp_group_idx() == 1:
            T.copy(A[0, :], B[0, :])
        # CHECK: // threads [64, 192) (128): tile operations are partitioned over them
        # CHECK-NEXT: const int tid = (int)threadIdx.x - 64;
        if tx >= 64 and tx < 192:
            T.copy(A[1, :], B[1, :])
        # CHECK: // threads [0, 256) (256): tile operations are partitioned over them
        # CHECK: // threads [32, 256) (224): tile operations are partitioned over them
        # CHECK-NEXT: const int tid = (int)threadIdx.x - 32;
        # CHECK: } else {
        # CHECK-NEXT: // threads [256, 512) (256): tile operations are partitioned over them
        # CHECK-NEXT: const int tid = (int)threadIdx.x - 256;
        if tx < 256:
            if tx >= 32:
                T.copy(A[2, :], B[2, :])
        else:
            T.copy(A[3, :], B[3, :])
