# A T.Parallel directly inside another (testing/python/language/
# test_tilelang_language_nested_loop.py) makes one loop nest with it, as
# in TileLang (parallel-nested-one-nest.py). Before, both loops were
# partitioned over the block's threads and the CUDA code ran only the
# iterations where the partitions met (16 of 256 elements written); then
# the inner loop ran serially. The CPU target against NumPy; the CUDA code
# on the sim device against the CPU target.
# RUN: tlc-build --emit=tile --kernel=nested2 %s | FileCheck %s
# CHECK: tile.parallel (%i, %j) in [16, 16]
# CHECK-NOT: tile.for
# CHECK-NOT: tile.parallel
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 6 --save %t/out
# RUN: %python %S/Inputs/parallel_nested_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: nested2 True
# REF: nested3 True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-2: verify B: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def nested2(length=256, block=16):

    @T.prim_func
    def main(A: T.Tensor((length,), T.float32), B: T.Tensor((length,), T.float32)):
        with T.Kernel(1, threads=length):
            for i in T.Parallel(length // block):
                for j in T.Parallel(block):
                    B[i * block + j] = A[i * block + j] + 1.0

    return main


@tilelang.jit(out_idx=[1])
def nested3(length=256, b1=8, b2=2):

    @T.prim_func
    def main(A: T.Tensor((length,), T.float32), B: T.Tensor((length,), T.float32)):
        with T.Kernel(1, threads=128):
            for i in T.Parallel(length // b1 // b2):
                for j in T.Parallel(b1):
                    for k in T.Parallel(b2):
                        B[i * b1 * b2 + j * b2 + k] = A[i * b1 * b2 + j * b2 + k] + 1.0

    return main


nested2()
nested3()
