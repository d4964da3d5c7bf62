# tilelang's determine_fp8_type() (tilelang.utils, tilelang.language.fp8)
# names the fp8 format of the target: float8_e4m3fnuz on gfx942 (CDNA3's
# own), float8_e4m3fn elsewhere. The query compared the module path with
# its "tilelang." prefix after removing it, so every call gave an
# unmodelled object (and T.Tensor of it was not an fp8 tensor).
# RUN: tlc-build --emit=tile --target=hip:gfx942 %s | FileCheck %s --check-prefix=CDNA3
# RUN: tlc-build --emit=tile --target=hip:gfx90a %s | FileCheck %s --check-prefix=OCP
# RUN: tlc-build --emit=tile --target=cpu %s | FileCheck %s --check-prefix=OCP
# CDNA3-COUNT-2: f8E4M3FNUZ, global>
# OCP-COUNT-2: f8E4M3FN, global>

import tilelang
import tilelang.language as T
from tilelang.utils import determine_fp8_type
from tilelang.language.fp8 import determine_fp8_type as fp8_of_language


@tilelang.jit
def cast(M=64):
    a_type, b_type = determine_fp8_type(), fp8_of_language()

    @T.prim_func
    def main(X: T.Tensor((M,), "float32"), A: T.Tensor((M,), a_type),
             B: T.Tensor((M,), b_type)):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(M):
                A[i] = T.cast(X[i], a_type)
                B[i] = T.cast(X[i], b_type)

    return main


cast()
