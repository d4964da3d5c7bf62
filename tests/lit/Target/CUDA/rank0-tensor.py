# A rank-0 tensor (`S: T.Tensor((), "float32")`, written `S[()]`; TileLang's
# language/test_tilelang_language_construct_strides pattern) is one
# element at offset 0: the CUDA and HIP printers address it without a
# bounds check (they crashed reading a dimension it does not have). The
# kernel sums A on the CPU target against NumPy and on the sim device
# against the CPU target.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: float *__restrict__ S)
# CHECK-NOT: if (
# CHECK: S[0] = {{[a-z_0-9]+}};
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy').astype(np.float64); s=np.load(d+'S.npy'); print(s.shape, bool(abs(float(s) - a.sum()) < 1e-4))" | FileCheck %s --check-prefix=CPU
# CPU: () True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify S: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def rank0_sum(N=8):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), S: T.Tensor((), "float32")):
        with T.Kernel(1, threads=1):
            acc = T.alloc_local((1,), "float32")
            acc[0] = T.float32(0)
            for i in T.serial(N):
                acc[0] += A[i]
            S[()] = acc[0]

    return main
