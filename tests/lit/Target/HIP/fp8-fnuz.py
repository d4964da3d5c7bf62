# AMD's FNUZ fp8 formats (float8_e4m3fnuz: bias 8, largest finite 240;
# float8_e5m2fnuz: bias 16, largest 57344; no infinities, no -0, 0x80 the
# one NaN) as element types on HIP, where "float8_e4m3" means
# float8_e4m3fnuz on gfx942 (the public per-token fp8 cast, the fp8
# lighting indexer): stored as bytes and converted by
# tlc_device/hip/convert.h. The kernels round every float32 input, scaled,
# to a format and read the value back. fp8-fnuz.test runs them on sim for gfx942 and
# gfx90a against the CPU target (byte for byte) and the CPU target against
# a NumPy model of the formats written in Inputs/fnuz_check.py.
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s
# CHECK: tlc::hip::toFp8E4M3Fnuz(
# CHECK: tlc::hip::fp8E4M3FnuzToFloat(
# CHECK: tlc::hip::toFp8E5M2Fnuz(
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/fnuz_check.py tlc-run %t/cpu %t/work | FileCheck %s --check-prefix=CPU
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
# CPU: fnuz_cast: CPU vs NumPy: 0 of 9600 values differ (Q), 0 (R)
# CPU: fnuz_cast_1: CPU vs NumPy: 0 of 9600 values differ (Q), 0 (R)
# CPU: fnuz_cast_2: CPU vs NumPy: 0 of 9600 values differ (Q), 0 (R)
# CPU: fnuz_cast_3: CPU vs NumPy: 0 of 2368 values differ (Q), 0 (R)
# CUDA: error: the CUDA target does not support element type 'f8E4M3FNUZ'

import tilelang
import tilelang.language as T


@tilelang.jit
def fnuz_cast(M, N, dtype="float8_e4m3fnuz", scale=1.0, block_M=32):

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Q: T.Tensor((M, N), dtype),
             R: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                if bx * block_M + i < M:
                    q = T.cast(X[bx * block_M + i, j] * scale, dtype)
                    Q[bx * block_M + i, j] = q
                    R[bx * block_M + i, j] = T.cast(q, "float32")

    return main


fnuz_cast(100, 96)
fnuz_cast(100, 96, scale=0.125)
fnuz_cast(100, 96, dtype="float8_e5m2fnuz", scale=1000.0)
fnuz_cast(37, 64, dtype="float8_e5m2fnuz", scale=1e-4)
