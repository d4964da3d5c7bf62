# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CUDA: #include "tlc_device/cuda/cluster.h"
# CUDA: __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128) cluster_matmul_kernel(
# CUDA: const int rank = (int)tlc::cuda::clusterCtaRank();
# CUDA: // T.cluster_sync
# CUDA-NEXT: tlc::cuda::clusterArrive();
# CUDA-NEXT: tlc::cuda::clusterWait();
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC: wrote {{.*}}cluster_matmul.cubin
# On the sim device at 200 x 200 x 128 (clusters of 2 resident together),
# against NumPy's float64 A @ B within float16 rounding of C.
# RUN: %if sim-compiler %{ sed 's/cluster_matmul(4096, 4096, 2048)/cluster_matmul(200, 200, 128)/' %s > %t/small.py %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %t/small.py > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --save %t/out > /dev/null %}
# RUN: %if sim-compiler %{ %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy').astype(np.float64); b=np.load(d+'inputs/B.npy').astype(np.float64); c=np.load(d+'C.npy').astype(np.float64); r=a@b; print(c.shape, bool(np.all(np.abs(c-r) <= 1e-2 * (1 + np.abs(r)))))" | FileCheck %s --check-prefix=NUMPY %}
# NUMPY: (200, 200) True
# Group B: T.ClusterKernel with cluster_dims=(2, 1, 1); T.block_rank_in_cluster
# picks which half of the N tile a CTA owns, T.cluster_sync brackets the
# main loop; module-level factory + tilelang.compile.
import tilelang
import tilelang.language as T


def cluster_matmul(M, N, K, block_M=128, block_N=128, block_K=64, cluster=2,
                   dtype=T.float16, accum_dtype=T.float32):
    half_N = block_N // cluster

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.ClusterKernel(T.ceildiv(N, block_N) * cluster, T.ceildiv(M, block_M), threads=128,
                             cluster_dims=(cluster, 1, 1)) as (bx, by):
            rank = T.block_rank_in_cluster()
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, half_N), dtype)
            C_local = T.alloc_fragment((block_M, half_N), accum_dtype)
            n0 = (bx // cluster) * block_N + rank * half_N

            T.cluster_sync()
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, n0], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, n0])
            T.cluster_sync()

    return main


func = cluster_matmul(4096, 4096, 2048)
kernel = tilelang.compile(func, out_idx=[2], target="cuda")

# CHECK: "name":"A","kind":"tensor","shape":[4096,2048],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":[64,32],{{.*}}"detail":"128 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[128,64],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
