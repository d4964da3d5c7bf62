# A T.Parallel partitioned by a replicated fragment (the column maximum `m`
# of a T.reduce_max over dim 0: each element held by 4 threads) that reads
# and then stores `s`, a fragment held one row per thread (the layout of
# the annotated `o`), so through the exchange tile: `s[i] = s[i] + d`. All
# 4 replicas read s[i] from the tile, replica 0 alone stores it, and
# without a barrier between the two a replica could read the value replica
# 0 already stored (the sim device's racecheck reports read-after-write and
# write-after-read hazards on the tile with the previous printer). Now
# every replica reads those elements into registers (`own`), a block
# barrier, then the loop works on `own` and replica 0 stores the tile. The
# CPU target against NumPy; the CUDA (sm_90a, sm_80) and HIP code against
# the CPU target on sim (racecheck).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python %S/Inputs/fragment_replica_read_check.py %t/out | FileCheck %s --check-prefix=NUMPY
# NUMPY: replica-read B True C True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s 2>/dev/null | FileCheck %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s 2>/dev/null | FileCheck %s
# The copy of s's elements, read before the barrier; the loop loads it and
# stores it, replica 0 the tile.
# CHECK: float [[OWN:own(_[0-9]+)?]][4];
# CHECK: [[OWN]][[[R:r_[0-9]+]]] = [[TILE:exchanged(_[0-9]+)?]][[[I:i0(_[0-9]+)?]]];
# CHECK: __syncthreads();  // every replica read what replica 0 is about to store
# CHECK: for (int [[R2:r_[0-9]+]] = 0;
# CHECK: const float x{{(_[0-9]+)?}} = [[OWN]][[[R2]]];
# CHECK-NOT: [[TILE]][
# CHECK: [[OWN]][[[R2]]] = t{{(_[0-9]+)?}};
# CHECK-NEXT: if ((tid & 48) == 0) [[TILE]][i0{{(_[0-9]+)?}}] = [[OWN]][[[R2]]];
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda80 %s > /dev/null 2>&1 %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null 2>&1 %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify C: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def replica_read(M=64, N=8, K=4):
    @T.prim_func
    def main(G: T.Tensor((K, M), "float32"), A: T.Tensor((M, N), "float32"),
             B: T.Tensor((M, N), "float32"), C: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            g = T.alloc_fragment((K, M), "float32")
            m = T.alloc_fragment((M,), "float32")
            s = T.alloc_fragment((M,), "float32")
            m2 = T.alloc_fragment((M,), "float32")
            a = T.alloc_fragment((M, N), "float32")
            o = T.alloc_fragment((M, N), "float32")
            T.annotate_layout({o: T.Fragment(o.shape, forward_thread_fn=lambda i, j: i)})
            T.copy(G, g)
            T.copy(A, a)
            T.reduce_max(g, m, dim=0)
            T.clear(o)
            T.clear(s)
            for k in T.serial(K):
                for i in T.Parallel(M):
                    d = g[k, i] - m[i]
                    m2[i] = s[i] * 2.0 + d
                    s[i] = s[i] + d
                for i, j in T.Parallel(M, N):
                    o[i, j] += a[i, j] * s[i]
            T.copy(o, B)
            T.copy(m2, C)

    return main


replica_read()
