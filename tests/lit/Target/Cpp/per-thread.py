# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 3 --save %t/out
# RUN: %python %S/Inputs/per_thread_ref.py %t/out | FileCheck %s --check-prefix=REF
# Per-thread code on the CPU target, in the style of the public kernels
# that read T.get_thread_binding(): a Blelloch scan in shared memory (`if`
# on the thread index between barriers in T.serial loops), a per-warp
# argmax through shuffles, a block sum whose last step only warp 0 runs
# (`if tid < 32:` around T.shfl_down), a float warp_reduce_sum (the GPU's
# butterfly order), and a T.copy of a shared tile the threads wrote.
# Inputs/per_thread_ref.py recomputes every output with NumPy.
import tilelang
import tilelang.language as T


@tilelang.jit
def per_thread(X, threads=128):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    Scan = T.empty((N,), T.int32)
    WarpMax = T.empty((N // 32, 2), T.int32)
    BlockSum = T.empty((N // threads,), T.int32)
    WarpSum = T.empty((N,), T.float32)
    Reversed = T.empty((N,), T.int32)
    with T.Kernel(N // threads, threads=threads) as bx:
        # CHECK: const int64_t [[N:threads[_0-9]*]] = threads_x * threads_y * threads_z;
        tid = T.get_thread_binding()
        lane = tid % 32
        g = bx * threads + tid
        # CHECK: for (int64_t tlc_t = 0; tlc_t < [[N]]; ++tlc_t) {
        # CHECK-NEXT: const int64_t {{[a-z_0-9]+}} = tlc_t % threads_x;
        S = T.alloc_shared((threads,), T.int32)
        S[tid] = X[g]
        T.sync_threads()
        # CHECK: T.sync_threads(): every thread has finished the phase before it
        for i in T.serial(7):
            offset = 1 << i
            idx = tid * offset * 2 + offset - 1
            if idx + offset < threads:
                S[idx + offset] += S[idx]
            T.sync_threads()
        if tid == 0:
            S[threads - 1] = 0
        T.sync_threads()
        for i in T.serial(7):
            offset = threads >> (i + 1)
            idx = tid * offset * 2 + offset - 1
            if idx + offset < threads:
                t = T.alloc_var(T.int32)
                t = S[idx]
                S[idx] = S[idx + offset]
                S[idx + offset] += t
            T.sync_threads()
        Scan[g] = S[tid]

        # CHECK: // best: int32 [1], local.var, one per thread
        # CHECK: tlc::cpu::Local<int32_t, 2> best_mem({[[N]], 1});
        best = T.alloc_var(T.int32)
        best_i = T.alloc_var(T.int32)
        best = X[g]
        best_i = lane
        for k in T.unroll(5):
            # CHECK: tlc::cpu::shuffleSource(st, {{.*}}"T.shfl_xor", tlc::cpu::Shuffle::Bfly, tlc_t, tlc_m,
            o = T.shfl_xor(best, 1 << k)
            oi = T.shfl_xor(best_i, 1 << k)
            if o > best or (o == best and oi < best_i):
                best = o
                best_i = oi
        if lane == 0:
            WarpMax[g // 32, 0] = best
            WarpMax[g // 32, 1] = best_i

        W = T.alloc_shared((threads // 32,), T.int32)
        v = T.alloc_var(T.int32)
        v = X[g]
        for k in T.unroll(5):
            v += T.shfl_xor(v, 16 >> k)
        if lane == 0:
            W[tid // 32] = v
        T.sync_threads()
        # CHECK: tlc::cpu::Lanes<uint8_t> [[ACTIVE:active[_0-9]*]]([[N]]);
        # CHECK: [[ACTIVE]][tlc_t] = bool(
        if tid < 32:
            w = T.alloc_var(T.int32)
            w = 0
            if tid < threads // 32:
                w = W[tid]
            for k in T.unroll(5):
                # CHECK: if (!tlc::cpu::warpMembers(st, {{.*}}"T.shfl_down", tlc_t, [[N]], 0xffffffffu, &[[ACTIVE]], tlc_m))
                w += T.shfl_down(w, 16 >> k)
            if tid == 0:
                BlockSum[bx] = w

        # CHECK: tlc::cpu::warpAllReduce<float>(int(tlc_t % 32)
        WarpSum[g] = T.warp_reduce_sum(T.cast(X[g], T.float32) * 0.1)

        R = T.alloc_shared((threads,), T.int32)
        R[threads - 1 - tid] = X[g] * 2
        T.sync_threads()
        T.copy(R, Reversed[bx * threads])
    return Scan, WarpMax, BlockSum, WarpSum, Reversed


kernel = per_thread.compile(N=384)
# REF: Scan equal
# REF-NEXT: WarpMax equal
# REF-NEXT: BlockSum equal
# REF-NEXT: WarpSum equal
# REF-NEXT: Reversed equal
