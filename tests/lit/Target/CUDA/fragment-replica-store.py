# A T.Parallel partitioned by a replicated fragment (the row maximum of a
# T.reduce_max over dim 0: each element held by 4 threads) runs every
# iteration in all 4 replicas. Replica 0 alone may store to memory: the
# exchange tile of a fragment with another layout (`s`, held one row per
# thread like the annotated `o`), shared memory (`sh`) and an atomic add
# (`acc`, which 4 replicas would add 4 times). A later read of `s` in the
# same iteration reads the value stored, not the tile the other replicas
# left alone. Without that the sim device reports a write-after-write race
# on the exchange tile (the held-rows combine kernel's, smaller). The CPU
# target against NumPy; the CUDA and HIP code against the CPU target on sim
# (racecheck).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python %S/Inputs/fragment_replica_check.py %t/out | FileCheck %s --check-prefix=NUMPY
# NUMPY: replica B True C True D True E True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s 2>/dev/null | FileCheck %s
# The exchange tile of s: stored by replica 0, read back by the iteration.
# CHECK: const float [[V:stored(_[0-9]+)?]] = t{{(_[0-9]+)?}};
# CHECK-NEXT: if ((tid & 48) == 0) exchanged{{(_[0-9]+)?}}[i0{{(_[0-9]+)?}}] = [[V]];
# CHECK-NEXT: const float x{{(_[0-9]+)?}} = [[V]];
# Shared memory and the atomic add: replica 0.
# CHECK: if ((tid & 48) == 0) sh[i0{{(_[0-9]+)?}}] =
# CHECK: if ((tid & 48) == 0) tlc::cuda::atomicAddTo<float>(&acc[
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null 2>&1 %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify C: PASS
# SIM: verify D: PASS
# SIM: verify E: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def replica(M=64, N=8, K=4):
    @T.prim_func
    def main(G: T.Tensor((K, M), "float32"), A: T.Tensor((M, N), "float32"),
             B: T.Tensor((M, N), "float32"), C: T.Tensor((M,), "float32"),
             D: T.Tensor((M,), "float32"), E: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            g = T.alloc_fragment((K, M), "float32")
            m = T.alloc_fragment((M,), "float32")
            s = T.alloc_fragment((M,), "float32")
            m2 = T.alloc_fragment((M,), "float32")
            a = T.alloc_fragment((M, N), "float32")
            o = T.alloc_fragment((M, N), "float32")
            sh = T.alloc_shared((M,), "float32")
            acc = T.alloc_shared((M,), "float32")
            T.annotate_layout({o: T.Fragment(o.shape, forward_thread_fn=lambda i, j: i)})
            T.copy(G, g)
            T.copy(A, a)
            T.clear(acc)
            T.reduce_max(g, m, dim=0)
            T.clear(o)
            for k in T.serial(K):
                for i in T.Parallel(M):
                    s[i] = g[k, i] - m[i]
                    m2[i] = s[i] * 3.0
                for i, j in T.Parallel(M, N):
                    o[i, j] += a[i, j] * s[i]
            for i in T.Parallel(M):
                sh[i] = m[i] + 1.0
                T.atomic_add(acc[i], m[i])
            T.copy(o, B)
            for i in T.Parallel(M):
                C[i] = m2[i] + m[i]
            T.copy(sh, D)
            T.copy(acc, E)

    return main


replica()
