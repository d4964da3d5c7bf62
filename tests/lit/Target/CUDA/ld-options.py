# T.ld(src, dst, scope=, sem=, na=, nc=): a load into a T.alloc_var with a
# memory scope and semantics (the public ldst-options test's six cases:
# each thread loads x[tx] and stores it to its own output). The call used
# to be an unknown T name, warned about and dropped, so the outputs kept
# their old contents on every target (a wrong answer). Weak is a plain
# load; volatile and relaxed one indivisible load (the atomic-load helper);
# acquire that load and then a fence of its scope. The CPU target against
# NumPy; the CUDA and HIP code against the CPU target on sim.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; x = np.load('%t/out/inputs/x.npy'); print('ld', all(np.array_equal(np.load('%t/out/y' + n + '.npy'), x) for n in '012345'))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: ld True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: reg[0] = (int32_t)({{.*}}tlc::cuda::atomicLoadFrom<int32_t>(&x[
# CHECK-NEXT: __threadfence_system();
# CHECK: tlc::cuda::atomicLoadFrom<int32_t>(&x[
# CHECK-NEXT: __threadfence();
# CHECK: tlc::cuda::atomicLoadFrom<int32_t>(&x[
# CHECK-NEXT: __threadfence_block();
# CHECK: reg_5[0] = (int32_t)({{.*}}x[
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: tlc::hip::atomicLoadFrom<int32_t>(&x[
# HIP-NEXT: __threadfence_system();
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --seed 7 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify y0: PASS
# SIM: verify y5: PASS
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -Dinvalid=1 %s 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: semantics 'release' is not one of weak, volatile, relaxed, acquire
import tilelang
import tilelang.language as T

CASES = [("sys", "acquire", False, False), ("gpu", "acquire", False, False),
         ("cta", "acquire", False, False), ("gpu", "relaxed", True, False),
         ("gpu", "volatile", False, False), ("gpu", "weak", True, True)]


@tilelang.jit
def ld_options(invalid=0):
    @T.prim_func
    def main(x: T.Tensor((32,), "int32"), y0: T.Tensor((32,), "int32"),
             y1: T.Tensor((32,), "int32"), y2: T.Tensor((32,), "int32"),
             y3: T.Tensor((32,), "int32"), y4: T.Tensor((32,), "int32"),
             y5: T.Tensor((32,), "int32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            for k, (scope, sem, na, nc) in enumerate(CASES):
                reg = T.alloc_var("int32")
                T.ld(x[tx], reg, scope=scope, sem="release" if invalid else sem, na=na, nc=nc)
                [y0, y1, y2, y3, y4, y5][k][tx] = reg

    return main


ld_options()
