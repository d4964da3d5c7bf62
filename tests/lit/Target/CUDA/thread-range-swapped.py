# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# A tile operation under a thread-range condition written with the constant
# on the left (`128 <= tx and tx < 256`, as TileLang's mask tests do) is the
# range [128, 256): the copy is partitioned over those threads. A condition
# that is no range (`tx % 2 == 0`) stays refused.
# tests/sim/intrinsics.py runs it on the sim device and on the CPU target
# against NumPy.
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a -Dparity=1 %s 2>&1 | FileCheck %s --check-prefix=ERR
import tilelang
import tilelang.language as T


@tilelang.jit
def masked_copy(A, M=256, N=128, block_M=64, block_N=64, parity=0):
    A: T.Tensor((M, N), T.float16)
    B = T.empty((M, N), T.float16)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_N), T.float16)
        tx = T.get_thread_binding(0)
        if parity:
            # ERR: thread-range-swapped.py:[[@LINE+2]]:{{[0-9]+}}: error: a tile operation under a condition on the thread index that does not select a range of threads
            if tx % 2 == 0:
                T.copy(A[by * block_M, bx * block_N], A_shared)
        # CHECK: // threads [128, 256) (128): tile operations are partitioned over them
        # CHECK: const int tid = (int)threadIdx.x - 128;
        if 128 <= tx and tx < 256:
            T.copy(A[by * block_M, bx * block_N], A_shared)
        T.copy(A_shared, B[by * block_M, bx * block_N])
    return B
