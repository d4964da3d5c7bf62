# Python names that are C++ keywords (example_mha_bwd_bshd.py's fragment
# `do`; a tensor `new`, a scalar `this`) get another name in the generated
# CUDA, so it compiles: nvcc rejected `half do[8];`. The kernel runs on the
# sim device against the CPU target, and nvcc (where installed) builds it.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: __global__ void __launch_bounds__(128) keywords_kernel(const float *__restrict__ new_, float *__restrict__ delete_, float this_)
# CHECK: float do_[
# CHECK-NOT: {{[^_a-z]}}do[
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -o %t/cpu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu -D this=1.5 --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify delete: PASS
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a --no-cache -o %t/nvcc %s %}
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def keywords(n=256):

    @T.prim_func
    def main(new: T.Tensor((n,), T.float32), delete: T.Tensor((n,), T.float32), this: T.float32):
        with T.Kernel(1, threads=128):
            do = T.alloc_fragment([n], T.float32)
            T.copy(new, do)
            for i in T.Parallel(n):
                do[i] = do[i] * this + 1.0
            T.copy(do, delete)

    return main


keywords()
