# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# Producer/consumer GEMM written as hand-written Hopper kernels are: warp
# group 0 loads the K tiles into a two-stage ring and gives its registers
# away, warp group 1 takes them and runs the gemm; full/empty mbarriers
# (T.alloc_barrier) order the two. tests/sim/warp_specialized.py runs it on
# the sim device against NumPy.
#
# setmaxnreg needs a register cap at entry: one block per multiprocessor.
# CHECK: __launch_bounds__(256, 1) ws_gemm_kernel(
# The rings: thread 0 initialises them with their arrival counts.
# CHECK: uint64_t *full = reinterpret_cast<uint64_t *>(smem + {{[0-9]+}});
# CHECK-NEXT: if (threadIdx.x == 0) {
# CHECK-NEXT: tlc::cuda::mbarrierInit(&full[0], 128);
# CHECK-NEXT: tlc::cuda::mbarrierInit(&full[1], 128);
# CHECK-NEXT: tlc::cuda::mbarrierInitFence();
# CHECK: __syncthreads();  // the mbarriers are initialised
# The producer warp group: its copies are partitioned over its 128 threads,
# whose index is tid itself.
# CHECK: // threads [0, 128) (128): tile operations are partitioned over them
# CHECK-NEXT: // T.dec_max_nreg
# CHECK-NEXT: tlc::cuda::setMaxNRegDec<40>();
# CHECK: tlc::cuda::mbarrierWait(&empty[{{.*}}], (uint32_t)({{.*}}) & 1u);
# CHECK: const int q = c * 128 + tid;  // chunk
# CHECK: tlc::cuda::mbarrierArrive(&full[
# No block barrier orders the two warp groups: the mbarriers do.
# CHECK-NOT: __syncthreads
# CHECK: // threads [128, 256) (128): tile operations are partitioned over them
# CHECK-NEXT: const int tid = (int)threadIdx.x - 128;
# CHECK-NEXT: // T.inc_max_nreg
# CHECK-NEXT: tlc::cuda::setMaxNRegInc<232>();
# CHECK: tlc::cuda::mbarrierWait(&full[
# The consumer's gemm on the stage slices A_s[s], B_s[s]: wgmma from the
# stage's descriptor panels.
# CHECK: tlc::cuda::wgmmaDescriptor((A_s + tlc::cuda::panelSwizzledIndex<4, 8, 64, 32>([[S:t_[0-9]+]], 0, 0))
# CHECK: tlc::cuda::wgmmaM64N64K16F32F16<0, 1>(
# CHECK: tlc::cuda::wgmmaWait<0>();
# CHECK: tlc::cuda::mbarrierArrive(&empty[
# CHECK-NOT: __syncthreads
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def ws_gemm(M, N, K, block_M=64, block_N=64, block_K=32, stages=2,
            dtype="float16", accum_dtype="float"):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((stages, block_M, block_K), dtype)
            B_s = T.alloc_shared((stages, block_K, block_N), dtype)
            C_l = T.alloc_fragment((block_M, block_N), accum_dtype)
            full = T.alloc_barrier(arrive_count=[128] * stages)
            empty = T.alloc_barrier(arrive_count=[128] * stages)
            num_k = T.ceildiv(K, block_K)

            with T.ws(0):
                T.dec_max_nreg(40)
                for ko in T.serial(num_k):
                    s = ko % stages
                    T.barrier_wait(empty[s], (ko // stages + 1) % 2)
                    T.copy(A[by * block_M, ko * block_K], A_s[s, :, :])
                    T.copy(B[ko * block_K, bx * block_N], B_s[s, :, :])
                    T.barrier_arrive(full[s])
            with T.ws(1):
                T.inc_max_nreg(232)
                T.clear(C_l)
                for ko in T.serial(num_k):
                    s = ko % stages
                    T.barrier_wait(full[s], (ko // stages) % 2)
                    T.gemm(A_s[s, :, :], B_s[s, :, :], C_l)
                    T.barrier_arrive(empty[s])
                T.copy(C_l, C[by * block_M, bx * block_N])

    return main


ws_gemm(200, 136, 100)
