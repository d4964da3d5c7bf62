# PrimFunc.attrs as TileLang sets them at definition (global_symbol,
# tilelang_out_idx of returned T.empty tensors, the values of
# T.annotate_pass_configs / T.annotate_compile_flags), tilelang.compile
# taking the outputs from them (ValueError "Out index conflict" with an
# out_idx too), kernel.adapter (prim_func, the runtime module's one
# function); results against NumPy float64. Also: an eager kernel defined
# in a test function builds although tlc, analysing the file's *other*
# test functions, cannot evaluate their asserts on compiled kernels.

import numpy as np
import pytest
import torch
import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.transform import PassConfigKey

FLAGS = ["-O3"]


def test_attrs_from_the_body():
    @T.prim_func
    def doubled(A):
        A: T.Tensor[[16, 8], T.float32]
        T.annotate_pass_configs({PassConfigKey.TL_DISABLE_TMA_LOWER: True,
                                 "tl.disable_warp_specialized": False})
        T.annotate_compile_flags(FLAGS)
        B = T.empty([16, 8], T.float32)
        with T.Kernel(1):
            for i in T.serial(16):
                for j in T.serial(8):
                    B[i, j] = A[i, j] * 2.0 - 1.0
        return B

    attrs = doubled.attrs
    assert attrs["global_symbol"] == "doubled"
    assert attrs["tilelang_out_idx"] == [-1]
    assert attrs["tilelang_pass_configs"] == {
        "tl.disable_tma_lower": True, "tl.disable_warp_specialized": False}
    assert attrs["tilelang_compile_flags"] == ["-O3"]
    assert doubled.with_attr("note", 3).attrs["note"] == 3
    assert "note" not in doubled.attrs

    kernel = tilelang.compile(doubled)
    a = np.linspace(-3.0, 5.0, 128).reshape(16, 8).astype(np.float32)
    b = kernel(torch.from_numpy(a))
    np.testing.assert_allclose(b.numpy(), a.astype(np.float64) * 2.0 - 1.0,
                               rtol=1e-6)
    # The prim_func the kernel came from, unchanged.
    assert kernel.adapter.prim_func.attrs["tilelang_out_idx"] == [-1]

    with pytest.raises(ValueError, match="Out index conflict"):
        tilelang.compile(doubled, out_idx=[-1])


def test_attr_only_the_body_computes():
    @T.prim_func
    def k(A: T.Tensor((4,), "float32")):
        flags = ["-O2"]
        T.annotate_compile_flags(flags)
        with T.Kernel(1):
            A[0] = 1.0

    # Python cannot evaluate `flags` outside the body: its source text.
    assert k.attrs["tilelang_compile_flags"] == "flags"
    assert "tilelang_out_idx" not in k.attrs


def test_two_returned_outputs():
    @T.prim_func
    def split(A):
        A: T.Tensor[[10], T.float32]
        lo = T.empty([10], T.float32)
        hi = T.empty([10], T.float32)
        with T.Kernel(1):
            for i in T.serial(10):
                lo[i] = A[i] - 0.5
                hi[i] = A[i] + 0.5
        return lo, hi

    assert split.attrs["tilelang_out_idx"] == [-2, -1]
    a = np.arange(10, dtype=np.float32) / 4
    lo, hi = tilelang.compile(split)(torch.from_numpy(a))
    np.testing.assert_array_equal(lo.numpy(), a.astype(np.float64) - 0.5)
    np.testing.assert_array_equal(hi.numpy(), a.astype(np.float64) + 0.5)


def test_outputs_in_return_order():
    # Returned in another order than declared: the call returns them in
    # the return statement's order (lazy and eager alike).
    @T.prim_func
    def split(A):
        A: T.Tensor[[6], T.float32]
        lo = T.empty([6], T.float32)
        hi = T.empty([6], T.float32)
        with T.Kernel(1):
            for i in T.serial(6):
                lo[i] = A[i] - 0.5
                hi[i] = A[i] + 0.5
        return hi, lo

    @tilelang.jit
    def eager_split(A):
        N = T.const("N")
        A: T.Tensor[[N], T.float32]
        lo = T.empty([N], T.float32)
        hi = T.empty([N], T.float32)
        with T.Kernel(1):
            for i in T.serial(N):
                lo[i] = A[i] - 0.5
                hi[i] = A[i] + 0.5
        return hi, lo

    a = np.arange(6, dtype=np.float32) * 3
    for hi, lo in (tilelang.compile(split)(torch.from_numpy(a)),
                   eager_split(torch.from_numpy(a))):
        np.testing.assert_array_equal(hi.numpy(), a.astype(np.float64) + 0.5)
        np.testing.assert_array_equal(lo.numpy(), a.astype(np.float64) - 0.5)


@T.prim_func
def copy_plus(A: T.Tensor((6, 4), "float32"), B: T.Tensor((6, 4), "float32")):
    with T.Kernel(1):
        for i, j in T.Parallel(6, 4):
            B[i, j] = A[i, j] + 1.0


def test_manual_out_idx_and_runtime_module():
    assert "tilelang_out_idx" not in copy_plus.attrs
    assert copy_plus.attrs["global_symbol"] == "copy_plus"
    kernel = tilelang.compile(copy_plus, out_idx=[-1])
    # The working copy has the out_idx; the script's prim_func does not.
    assert kernel.adapter.prim_func.attrs["tilelang_out_idx"] == [-1]
    assert "tilelang_out_idx" not in copy_plus.attrs
    assert kernel.adapter.dynamic_symbolic_map is None
    a = np.arange(24, dtype=np.float32).reshape(6, 4) * 0.25
    np.testing.assert_array_equal(kernel(torch.from_numpy(a)).numpy(),
                                  a.astype(np.float64) + 1.0)

    module = kernel.adapter.get_exportable_executable().jit()
    with pytest.raises(AttributeError):
        module.get_function("copy_plus_auto_output", query_imports=True)
    entry = module.get_function("copy_plus")
    b = torch.zeros(6, 4)
    entry(torch.from_numpy(a), b)          # every parameter, outputs too
    np.testing.assert_array_equal(b.numpy(), a.astype(np.float64) + 1.0)


def other_test_inspecting_a_kernel():
    # tlc analyses this function too (it defines a prim_func) and cannot
    # evaluate the assert on the compiled kernel: a warning about this
    # function, not about the eager kernel of test_eager_kernel_beside.
    @T.prim_func
    def k(A: T.Tensor((4,), "float32")):
        with T.Kernel(1):
            A[0] = 1.0

    compiled = tilelang.compile(k)
    assert compiled.adapter.dynamic_symbolic_map is None


def test_eager_kernel_beside():
    @tilelang.jit
    def add_one(A):
        M, N = T.const("M N")
        A: T.Tensor[[M, N], T.float32]
        B = T.empty([M, N], T.float32)
        T.annotate_pass_configs({PassConfigKey.TL_ENABLE_FAST_MATH: True})
        with T.Kernel(1):
            for i in T.serial(M):
                for j in T.serial(N):
                    B[i, j] = A[i, j] + 1.0
        return B

    a = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5
    np.testing.assert_array_equal(add_one(torch.from_numpy(a)).numpy(),
                                  a.astype(np.float64) + 1.0)


if __name__ == "__main__":
    tilelang.testing.main()
