# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM90
#
# T.tma_gather4 / T.tma_scatter4 on sm_100a: cp.async.bulk.tensor.2d with
# .tile::gather4 / .tile::scatter4 (PTX ISA 8.6). The coordinates are the
# first column and four row indices; the tensor map is the 2-D tensor's
# with a box of one row of W elements (W = 64 here, no swizzle), and the
# four rows land one after the other in the [4, W] shared tile. The
# gather completes 4 * 64 * 2 = 512 bytes on its mbarrier; the scatter
# joins the issuing thread's bulk group, which T.tma_store_arrive commits
# and T.tma_store_wait waits for.
#
# CHECK-LABEL: gather_kernel(
# CHECK-SAME: const __grid_constant__ tlc::cuda::TensorMap [[MAP:tmap[0-9]+]])
# CHECK: tlc::cuda::mbarrierExpectTx(&mbar[0], (uint32_t)(512));
# CHECK: const int32_t [[R0:x[_0-9]*]] = indices[0];
# CHECK: const int32_t [[R3:x[_0-9]*]] = indices[3];
# CHECK: tlc::cuda::tmaLoadGather4(smem_, &[[MAP]], &mbar[0], (int)(0), (int)([[R0]]), (int)({{x_[0-9]+}}), (int)({{x_[0-9]+}}), (int)([[R3]]));
# CHECK-LABEL: scatter_kernel(
# CHECK-SAME: const __grid_constant__ tlc::cuda::TensorMap [[MAP2:tmap[0-9]+]])
# CHECK: tlc::cuda::fenceProxyAsync();
# CHECK-NEXT: tlc::cuda::tmaStoreScatter4(&[[MAP2]], smem_, (int)(8), (int)({{.*}}), (int)({{.*}}), (int)({{.*}}), (int)({{.*}}));
# CHECK: tlc::cuda::tmaStoreCommit();
#
# SM90: error: T.tma_gather4 is cp.async.bulk.tensor.2d with .tile::gather4, which needs sm_100a (Blackwell); building for sm_90a, which has no TMA gather (build with --target=cuda:sm_100a)
# SM90-NOT: does not build for sm_100a yet
#
# nvcc's ptxas accepts both instructions for sm_100a, and the manifest
# records the maps' one-row boxes of 64 elements (innermost first):
# RUN: %if nvcc %{ rm -rf %t && tlc-build --no-cache --target=cuda:sm_100a -o %t %s 2>&1 | FileCheck %s --check-prefix=NVCC %}
# RUN: %if nvcc %{ FileCheck %s --check-prefix=MANIFEST < %t/gather.json %}
# NVCC-DAG: wrote {{.*}}gather.cubin
# NVCC-DAG: wrote {{.*}}scatter.cubin
# MANIFEST: "box": [
# MANIFEST-NEXT: 64,
# MANIFEST-NEXT: 1
# MANIFEST-NEXT: ],
import tilelang.language as T


@T.prim_func
def gather(src: T.Tensor((64, 64), T.float16), indices: T.Tensor((4,), T.int32),
           out: T.Tensor((4, 64), T.float16)):
    with T.Kernel(1, threads=128):
        smem = T.alloc_shared((4, 64), T.float16)
        mbar = T.alloc_barrier(1)
        if T.shuffle_elect(128):
            T.mbarrier_expect_tx(mbar, T.tma_gather4_bytes(64, "float16"))
            T.tma_gather4(src, smem, 0, [indices[0], indices[1], indices[2], indices[3]],
                          barrier=mbar)
            T.barrier_arrive(mbar)
        T.mbarrier_wait_parity(mbar, 0)
        for i, j in T.Parallel(4, 64):
            out[i, j] = smem[i, j]


@T.prim_func
def scatter(indices: T.Tensor((4,), T.int32), out: T.Tensor((64, 72), T.float16)):
    with T.Kernel(1, threads=128):
        smem = T.alloc_shared((4, 64), T.float16)
        T.fill(smem, 1)
        if T.shuffle_elect(128):
            T.tma_scatter4(smem, out, 8, [indices[0], indices[1], indices[2], indices[3]])
            T.tma_store_arrive()
        T.tma_store_wait(0, read=False)
