# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s | FileCheck %s
# Instruction-like primitives (Hopper barriers and TMA, warp shuffles, fast
# math) are evaluated into tile.intrinsic ops with their result types; the
# checks of the rest of the kernel still run.
import tilelang
import tilelang.language as T


@tilelang.jit
def hopper(N=128):
    A: T.Tensor((N, N), T.float16)
    with T.Kernel(1, threads=256) as bx:
        S = T.alloc_shared((N, N), T.float16)
        bar = T.alloc_barrier(arrive_count=128)
        # CHECK: tile.intrinsic "T.tma_copy"(%{{.*}}, %{{.*}}, %{{.*}}) {params = ["src", "dst", "barrier"]}
        T.tma_copy(A, S, barrier=bar[0])
        # CHECK: tile.intrinsic "T.mbarrier_wait_parity"(%{{.*}}, %{{.*}}) {params = ["mbarrier", "parity"]} : (!tile.buffer<[1], ui64, shared.barrier>, i32) -> ()
        T.mbarrier_wait_parity(bar[0], 0)
        v = T.alloc_var(T.float32)
        # CHECK: tile.intrinsic "T.shfl_xor"({{.*}}) {params = ["value", "delta"]} : (f32, i32) -> f32
        v = T.shfl_xor(v, 16)
        # CHECK: tile.intrinsic "T.__exp"({{.*}}) {params = ["x"]} : (f32) -> f32
        v = T.__exp(v)
        # CHECK: tile.intrinsic "T.ballot_sync"({{.*}}) {params = ["pred"]} : (i1) -> i32
        mask = T.ballot_sync(v > 0)
        # expected-error@+1 {{T.copy between regions of different shapes}}
        T.copy(A[0:64, :], S)
