# Errors the CUDA target reports where TileLang's lowering refuses the same
# program with an exception of its own are raised by tilelang.compile as
# that type (still a TLCBuildError): a T.gemm operand region that never
# starts on a 16-byte boundary of its shared tile a ValueError with
# TileLang's "... which is never a multiple of 16" (its
# testing/python/kernel operand-alignment test matches it), fp8 T.gemm
# below sm_89 tvm.error.InternalError; other build errors stay plain
# TLCBuildErrors. No GPU or
# CUDA compiler needed: tlc-build refuses the kernel before nvcc runs.

import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import tvm
from tilelang._build import TLCBuildError


def shifted_gemm(a_shift, b_shift, dtype=T.float16):
    @T.prim_func
    def main(A: T.Tensor((32, 64), dtype), B: T.Tensor((48, 64), dtype),
             C: T.Tensor((32, 16), T.float32)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((32, 64), dtype)
            B_s = T.alloc_shared((48, 64), dtype)
            acc = T.alloc_fragment((32, 16), T.float32)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.clear(acc)
            T.gemm(A_s[:, a_shift:a_shift + 32], B_s[8:24, b_shift:b_shift + 32],
                   acc, transpose_B=True)
            T.copy(acc, C)

    return main


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_misaligned_gemm_operand_is_value_error(arch):
    # 2 f16 elements = 4 bytes into a 16-byte chunk.
    with pytest.raises(ValueError,
                       match=r"T\.gemm\(\) operand A region .* which is never a multiple of 16") as info:
        tilelang.compile(shifted_gemm(2, 0), target=f"cuda -arch={arch}")
    assert "starts at byte offset 4 of its shared tile" in str(info.value)
    assert not isinstance(info.value, tvm.error.InternalError)
    # Row 8 of B_s (128-byte rows) plus 6 elements: byte 1036.
    with pytest.raises(TLCBuildError,
                       match=r"operand B region of 'B_s' starts at byte offset 1036 .* never"):
        tilelang.compile(shifted_gemm(0, 6), target=f"cuda -arch={arch}")


def test_fp8_gemm_below_sm89_is_internal_error():
    with pytest.raises(tvm.error.InternalError, match=r"T\.gemm\(\) with fp8 operands requires a CUDA target "
                       r"with fp8 mma\.sync atoms \(SM89\+\): float8_e5m2 .* sm_86 lacks"):
        tilelang.compile(shifted_gemm(0, 0, T.float8_e5m2), target="cuda -arch=sm_86")


def test_other_build_errors_are_not_internal_errors():
    @T.prim_func
    def too_big(A: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=32):
            s = T.alloc_shared((1 << 22,), "float32")
            s[0] = A[0]
            A[1] = s[0]

    with pytest.raises(TLCBuildError) as info:
        tilelang.compile(too_big, target="cuda -arch=sm_80")
    assert not isinstance(info.value, (tvm.error.InternalError, ValueError))


if __name__ == "__main__":
    tilelang.testing.main()
