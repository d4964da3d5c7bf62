# A T.reduce over a fragment whose plain partition mixes the reduced index
# into the other thread digits: a 48 x 40 column sum on 128 threads
# (threads `(40 i + j) % 128`), a column max of the 48 x 40 on 256 threads
# (the guarded `(10 i + j / 4) % 256`), a column sum of a 24 x 36 on 64
# threads with the dimension kept (36 columns over 8 thread groups: the
# last register round guarded). Every GPU target
# refused them ("cannot reduce over i: thread map ... is not a sum of its
# digits"; the 256-thread one fell back to a replicated source the reduce
# could not index). The source is now partitioned for the reduction
# (layout::planReduciblePartition): the reduced index's low digit on the
# low thread bits (shuffles), the other dimensions' digit on the rest, its
# register round padded to a power of two with the padding slots guarded.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s
# CHECK-LABEL: colsum_kernel(
# CHECK: float f[21];
# CHECK: shuffleXor
# CHECK-LABEL: colmax_kernel(
# CHECK: float f[11];
# CHECK: shuffleXor
# CHECK-LABEL: keepsum_kernel(
# CHECK: shuffleXor
# The CPU target against float64 NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --seed 7 --save %t/out
# RUN: %python %S/Inputs/reducible_partition_check.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-3: ok
# REF-NOT: BAD
# CUDA (sm_90a, sm_80) and HIP (gfx942) on the sim device against the CPU
# target with the same inputs.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/c90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c90 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/c80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c80 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-3: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit
def colsum(A: T.Tensor((48, 40), "float32"), S: T.Tensor((40,), "float32")):
    with T.Kernel(1, threads=128) as _:
        f = T.alloc_fragment((48, 40), "float32")
        s = T.alloc_fragment((40,), "float32")
        T.copy(A, f)
        T.reduce_sum(f, s, dim=0)
        T.copy(s, S)


@tilelang.jit
def colmax(A: T.Tensor((48, 40), "float32"), M: T.Tensor((40,), "float32")):
    with T.Kernel(1, threads=256) as _:
        f = T.alloc_fragment((48, 40), "float32")
        m = T.alloc_fragment((40,), "float32")
        T.copy(A, f)
        T.reduce_max(f, m, dim=0)
        T.copy(m, M)


@tilelang.jit
def keepsum(A: T.Tensor((24, 36), "float32"), S: T.Tensor((1, 36), "float32")):
    with T.Kernel(1, threads=64) as _:
        f = T.alloc_fragment((24, 36), "float32")
        s = T.alloc_fragment((1, 36), "float32")
        T.copy(A, f)
        T.reduce_sum(f, s, dim=0)
        T.copy(s, S)
