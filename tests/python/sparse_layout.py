# tilelang.cuda.intrinsics.sparse_layout (TileLang's issue-2605 test imports
# get_e_factor): the metadata factor of 2:4 sparsity (1:2 for float32)
# against the layouts the public gemm_sp example hard-codes per
# architecture (sm_80/sm_89 fp16: 16 with int16 metadata; sm_90 fp16: 8
# with uint8) and against counting bits from the definition (4 metadata
# bits per group); the same factors evaluated by tlc inside a factory size
# a kernel's tensors, and the kernel runs on the CPU target against NumPy.

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang.cuda.intrinsics.sparse_layout import (get_e_factor,
                                                     get_e_replicate_factor)


def test_public_example_layouts():
    assert get_e_factor(T.float16, "int16") == 16   # sm_80, sm_89
    assert get_e_factor(T.float16, T.uint8) == 8    # sm_90


@pytest.mark.parametrize("a,group", [("float32", 2), ("float16", 4),
                                     ("bfloat16", 4), ("int8", 4),
                                     ("uint8", 4), ("float8_e4m3", 4),
                                     ("float8_e5m2", 4)])
@pytest.mark.parametrize("meta", ["uint8", "int16", "uint16", "int32"])
def test_bits_per_group(a, group, meta):
    bits = np.dtype(meta).itemsize * 8
    # groups described by one metadata element, times elements per group
    assert get_e_factor(a, meta) == (bits // 4) * group
    width = {"float32": 32, "float16": 16, "bfloat16": 16}.get(a, 8)
    assert get_e_replicate_factor(a) == (1 if width <= 8 else 2)


def test_unknown_dtype():
    with pytest.raises(KeyError):
        get_e_factor("float64", "int16")


@tilelang.jit(out_idx=[1], target="cpu")
def meta_rows(M=8, K=128, a_dtype="int8", meta_dtype="int16"):
    e = K // get_e_factor(T.dtype(a_dtype), T.dtype(meta_dtype))

    @T.prim_func
    def main(E: T.Tensor((M, e), meta_dtype), F: T.Tensor((M, e), meta_dtype)):
        with T.Kernel(1, threads=32):
            for i, j in T.Parallel(M, e):
                F[i, j] = E[i, j] + 1

    return main


@pytest.mark.parametrize("a,meta,cols", [("int8", "int16", 8),
                                         ("float16", "uint8", 16),
                                         ("float32", "int32", 8)])
def test_kernel_sized_by_factor(a, meta, cols):
    E = np.arange(8 * cols).reshape(8, cols).astype(meta)
    kernel = meta_rows(8, 128, a, meta)
    F = kernel(torch.from_numpy(E.astype(np.int64)).to(
        getattr(torch, meta if meta != "uint8" else "uint8")))
    assert tuple(F.shape) == (8, cols)
    np.testing.assert_array_equal(F.numpy(), E + 1)


if __name__ == "__main__":
    tilelang.testing.main()
