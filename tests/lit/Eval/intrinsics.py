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
        # T.tma_copy is the tile copy, done before the barrier's arrivals.
        # CHECK: tile.copy %{{.*}} to %{{.*}} : !tile.buffer<[128, 128], f16, global> to !tile.buffer<[128, 128], f16, shared.dyn>
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
        # expected-error@+1 {{[TileLang Semantic Check] T.copy would read outside the src region (the copy loops over the dst region): non-unit dimension 0 has extent 128, but the src region has extent 64.}}
        T.copy(A[0:64, :], S)


# Raw vector loads give vectors that T.reinterpret reads at their width
# (this used to crash the evaluator). The vector scalarizer then makes the
# ldg64 two word loads, the float32x2 view a bitcast of each, and the
# float16x2 view of one word its low and high halves (lane 0 the low one).
@tilelang.jit
def vector_loads(N=256):
    X: T.Tensor((N,), T.uint32)
    Y: T.Tensor((N,), T.float32)
    with T.Kernel(N // 2, threads=1) as pid:
        # CHECK-LABEL: tile.func @vector_loads
        # CHECK: %[[W0:.*]] = tile.load %[[SRC:.*]][%c0] : !tile.buffer<[2], ui32, global>
        # CHECK: %[[W1:.*]] = tile.load %[[SRC]][%c1] : !tile.buffer<[2], ui32, global>
        # CHECK: arith.bitcast %[[W0]] : i32 to f32
        # CHECK: arith.bitcast %[[W1]] : i32 to f32
        Y[pid * 2:pid * 2 + 2] = T.reinterpret(T.float32x2, T.ldg64(X[pid * 2:pid * 2 + 2]))
        # CHECK: %[[W:.*]] = tile.load {{.*}} : !tile.buffer<[1], ui32, global>
        # CHECK: %[[LO:.*]] = arith.trunci %[[W]] : i32 to i16
        # CHECK: arith.bitcast %[[LO]] : i16 to f16
        # CHECK: %[[SH:.*]] = arith.shrui %[[W]], %{{.*}} : i32
        # CHECK: %[[HI:.*]] = arith.trunci %[[SH]] : i32 to i16
        # CHECK: arith.bitcast %[[HI]] : i16 to f16
        h = T.reinterpret(T.float16x2, T.ldg32(X[pid]))
