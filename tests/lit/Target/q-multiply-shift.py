# T.q_multiply_shift_per_axis(x, y, ls, rs, q, is_lshift_required,
# is_rshift_required), TVM's fixed-point multiply of quantised values
# (TileLang's q_multiply_shift test checks its legalization): x << ls when
# the flag is nonzero, times y in 64 bits, rounded half up and shifted
# right by rs + q, as int32. A kernel applies it per element with run-time
# shifts and multipliers, an integer flag and a bool one; built for the
# CPU target and cuda:sm_90a (on the sim device), each checked against
# Python integers (the script's oracle). Both targets refused the call.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/q_multiply_shift_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/q_multiply_shift_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# CHECK: qms: ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T


@tilelang.jit
def qms(N=512):

    @T.prim_func
    def main(X: T.Tensor((N,), "int32"), M: T.Tensor((N,), "int32"),
             LS: T.Tensor((N,), "int32"), RS: T.Tensor((N,), "int32"),
             F: T.Tensor((N,), "int32"), Y: T.Tensor((N,), "int32"),
             Z: T.Tensor((N,), "int32")):
        with T.Kernel(N // 128, threads=128) as bx:
            for i in T.Parallel(128):
                k = bx * 128 + i
                Y[k] = T.q_multiply_shift_per_axis(X[k], M[k], LS[k], RS[k],
                                                   31, F[k], True)
                Z[k] = T.q_multiply_shift_per_axis(X[k], M[k], 2, 7, 15,
                                                   False, 1)

    return main


qms()
