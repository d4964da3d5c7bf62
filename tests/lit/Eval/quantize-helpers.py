# The scalar TIR helpers of tilelang.quantize (_tir_u8_to_f4_to_bf16,
# _tir_packed_int_to_int_convert, _tir_u32_to_f4_to_f32,
# _tir_f32_to_uint_to_f4, _tir_f32x2_to_bf16x2_to_u32 and its inverse), as
# newer TileLang's issue tests and dequantizing kernels call them: tlc
# models them in Python (they were values it could not evaluate, so no
# target built the kernel). The CPU target's outputs are compared, bit for
# bit, with a Python oracle of the formats (input bytes, scales and floats
# including NaN, Inf, signed zeros and rounding ties); the CUDA code runs
# on the sim device against the CPU target.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: %python %S/Inputs/quantize_helpers_ref.py inputs %t/in
# RUN: tlc-run %t/art --inputs %t/in --save %t/out
# RUN: %python %S/Inputs/quantize_helpers_ref.py check %t/out | FileCheck %s
# CHECK: f4_to_bf16 ok
# CHECK: int4_sign_extend ok
# CHECK: f4_to_f32 ok
# CHECK: f32_to_f4 ok
# CHECK: bf16x2_pack ok
# CHECK: bf16x2_unpack ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --inputs %t/in --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-6: PASS
import tilelang
import tilelang.language as T
from tilelang.quantize import (
    _tir_f32_to_uint_to_f4,
    _tir_packed_int_to_int_convert,
    _tir_u32_to_f4_to_f32,
    _tir_u8_to_f4_to_bf16,
)
from tilelang.quantize.quantization import _tir_f32x2_to_bf16x2_to_u32, _tir_u32_to_bf16x2_to_f32x2


@tilelang.jit(out_idx=[5, 6, 7, 8, 9, 10])
def decode(n=256):

    @T.prim_func
    def main(
        P: T.Tensor((n // 2,), "uint8"),
        S: T.Tensor((n,), "uint8"),
        Q: T.Tensor((n // 2,), "int8"),
        W: T.Tensor((n // 8,), "uint32"),
        X: T.Tensor((n,), "float32"),
        F: T.Tensor((n,), "bfloat16"),
        I: T.Tensor((n,), "int8"),
        G: T.Tensor((n,), "float32"),
        C: T.Tensor((n,), "uint32"),
        R: T.Tensor((n // 2,), "uint32"),
        Y: T.Tensor((n,), "float32"),
    ):
        with T.Kernel(1, threads=128):
            for i in T.Parallel(n):
                F[i] = _tir_u8_to_f4_to_bf16(4, P[i // 2], i % 2, S[i], "bfloat16")
                I[i] = _tir_packed_int_to_int_convert("int", 8)(4, Q[i // 2], i % 2, "int8")
                G[i] = _tir_u32_to_f4_to_f32(4, W[i // 8], i % 8, "float32")
                C[i] = _tir_f32_to_uint_to_f4(X[i])
            for j in T.Parallel(n // 2):
                packed = _tir_f32x2_to_bf16x2_to_u32(X[2 * j], X[2 * j + 1])
                R[j] = packed
                lo, hi = list(_tir_u32_to_bf16x2_to_f32x2(packed))
                Y[2 * j] = lo
                Y[2 * j + 1] = hi

    return main


if __name__ == "__main__":
    decode()
