# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(np.allclose(c, a @ b, 1e-2, 1e-2))" | FileCheck %s --check-prefix=REF
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 3 --save %t/simout > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/simout/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); print(np.allclose(c, a @ b, 1e-2, 1e-2))" | FileCheck %s --check-prefix=REF %}
# REF: True
#
# T.tma_copy with an explicit mbarrier in a hand-scheduled producer /
# consumer GEMM: warp group 1 loads each K slice of A and B with
# T.tma_copy(..., barrier=full) and then arrives on `full`; warp group 0
# waits for the phase, accumulates, and frees the slot. Both targets
# refused the copy ("not supported by the CUDA target yet", "the CPU target
# cannot emit T.tma_copy"). It is the producers' tile copy, done before
# their arrival, so a consumer that sees the phase complete sees the tile;
# T.ptx_arrive_barrier (the raw arrive) releases the slot.
import tilelang
import tilelang.language as T


@tilelang.jit
def split_phase_gemm(A, B, block_K=16):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C = T.empty((M, N), T.float32)
    with T.Kernel(1, threads=256) as bx:
        a_tile = T.alloc_shared((M, block_K), T.float16)
        b_tile = T.alloc_shared((block_K, N), T.float16)
        acc = T.alloc_fragment((M, N), T.float32)
        full = T.alloc_barrier(arrive_count=128)
        empty = T.alloc_barrier(arrive_count=128)
        with T.ws(0):
            T.clear(acc)
        for k in T.serial(K // block_K):
            with T.ws(1):
                T.barrier_wait(empty, (k + 1) % 2)
                # The producers copy the slices, then arrive.
                # CHECK: // T.copy {{.*}}tma-copy-barrier.py:[[@LINE+3]]:
                # CHECK: mbarrierArrive(st, {{.*}}&full.at({0}));
                # CUDA: // T.copy  tma-copy-barrier.py:[[@LINE+1]]:
                T.tma_copy(A[0, k * block_K], a_tile, barrier=full)
                T.tma_copy(B[k * block_K, 0], b_tile, barrier=full)
                # CUDA: // T.copy  tma-copy-barrier.py:[[@LINE-1]]:
                # CUDA: tlc::cuda::mbarrierArrive(&full[0]);
                T.barrier_arrive(full)
            with T.ws(0):
                T.barrier_wait(full, k % 2)
                T.gemm(a_tile, b_tile, acc)
                # CHECK: // T.ptx_arrive_barrier
                # CHECK-NEXT: tlc::cpu::mbarrierArrive(st, {{.*}}&empty.at({0}));
                # CUDA: tlc::cuda::mbarrierArrive(&empty[0]);
                T.ptx_arrive_barrier(empty[0])
        with T.ws(0):
            T.copy(acc, C)
    return C


def main():
    import torch
    a = torch.randn(64, 64, dtype=torch.float16)
    b = torch.randn(64, 32, dtype=torch.float16)
    split_phase_gemm(a, b)


if __name__ == "__main__":
    main()
