# T.annotate_padding({buf: v}): out-of-range elements copied into buf read
# v. Every target's guarded copies read 0 there, so a pad of 0 builds (the
# CPU target against NumPy: A's 100 elements, then zeros) and any other pad
# is an error at the annotation when building, the same on every target;
# --check accepts the program (the language allows it).
# RUN: tlc-build --check %s
# RUN: not tlc-build --emit=cpp --target=cpu %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=hip --target=hip:gfx942 %s 2>&1 | FileCheck %s
# CHECK: annotate-padding.py:[[@LINE+20]]:{{[0-9]+}}: error: T.annotate_padding: a pad value other than 0 is not implemented yet ('A_shared' padded with '7.0'): out-of-range elements would read 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu -Dpad=0.0 %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; a=np.load('%t/out/inputs/A.npy'); b=np.load('%t/out/B.npy'); print(b.shape, bool((b[:100] == a).all() and (b[100:] == 0).all()))" | FileCheck %s --check-prefix=ZERO
# ZERO: (128,) True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda -Dpad=0.0 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def padded(N=100, pad=7.0, block=128):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((block,), "float32")):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((block,), "float32")
            T.annotate_padding({A_shared: pad})
            T.copy(A[0:block], A_shared)
            T.copy(A_shared, B)

    return main
