# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# T.loop_break in a loop with block barriers (decided for the whole block
# with __syncthreads_or), T.any_of / T.all_of over a bool region, ordered
# atomics and IEEE-rounded math as CUDA (tile.intrinsic).
# tests/sim/intrinsics.py runs it on the sim device against NumPy.
import tilelang
import tilelang.language as T


@tilelang.jit
def memory_ops(X, Flags, threads=64):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Flags: T.Tensor((N // threads, 4), T.bool)
    Rounds = T.empty((N // threads,), T.int32)
    AnyAll = T.empty((N // threads, 2), T.int32)
    Peak = T.empty((1,), T.int32)
    Rounded = T.empty((4, N), T.float32)
    with T.Kernel(N // threads, threads=threads) as bx:
        tx = T.get_thread_binding()
        acc = T.alloc_shared((threads,), T.float32)
        total = T.alloc_var(T.float32)
        rounds = T.alloc_var(T.int32)
        acc[tx] = T.abs(X[bx * threads + tx])
        rounds = 0
        # Halve the values until their block sum drops under 1. Each thread
        # sums from its own start (a condition that may differ between
        # threads in the last bits), so the exit is decided for the block.
        for r in T.serial(40):
            T.sync_threads()
            total = 0.0
            for i in T.serial(threads):
                total += acc[(i + tx) % threads]
            # CHECK: if (__syncthreads_or({{.*}})) break;
            if total < 1.0:
                T.loop_break()
            T.sync_threads()
            acc[tx] = acc[tx] * 0.5
            rounds = rounds + 1
        # CHECK: tlc::cuda::atomicMaxOf<int32_t>(&
        T.atomic_max(Peak[0], rounds)
        if tx == 0:
            Rounds[bx] = rounds
            # CHECK: bool [[ANY:any[a-z0-9_]*]] = false;
            # CHECK: [[ANY]] = [[ANY]] || {{.*}};
            AnyAll[bx, 0] = T.any_of(Flags[bx, 0:4])
            # CHECK: bool [[ALL:all[a-z0-9_]*]] = true;
            AnyAll[bx, 1] = T.all_of(Flags[bx, 1:3])
        x = X[bx * threads + tx]
        # CHECK: __fadd_rz(
        Rounded[0, bx * threads + tx] = T.ieee_add(x, 0.1, "rz")
        # CHECK: __fmul_ru(
        Rounded[1, bx * threads + tx] = T.ieee_mul(x, 0.3, "ru")
        # CHECK: __fdiv_rd(
        Rounded[2, bx * threads + tx] = T.ieee_fdiv(x, 3.0, "rd")
        # CHECK: __fsqrt_rn(
        Rounded[3, bx * threads + tx] = T.ieee_fsqrt(T.abs(x))
    return Rounds, AnyAll, Peak, Rounded


kernel = memory_ops.compile(N=256)
