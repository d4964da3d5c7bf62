"""``tvm.compile`` of an ``IRModule`` of prim_funcs, as TileLang's tests
call it (``mod = tvm.compile(tvm.IRModule({"main": func}), target=...)``,
then ``mod.mod.imports[0].inspect_source()`` / ``mod.mod.imported_modules
[0].get_source()``, ``mod["main"](...)``), the older ``tvm.build``, and
``tilelang.compile`` / ``tilelang.lower`` of a one-prim_func IRModule.
Outputs against NumPy on the CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T
from tilelang import tvm
from tvm import IRModule

N = 64


@T.prim_func
def add_one(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
    with T.Kernel(1, threads=32):
        for i in T.Parallel(N):
            B[i] = A[i] + 1.0


@T.prim_func
def twice(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32)):
    with T.Kernel(1, threads=32):
        for i in T.Parallel(N):
            B[i] = A[i] * 2.0


def data():
    a = np.random.default_rng(7).standard_normal(N).astype(np.float32)
    return a, torch.from_numpy(a.copy()), torch.zeros(N)


def check_one_function():
    mod = tvm.compile(tvm.IRModule({"main": add_one}), target="cpu")
    a, ta, tb = data()
    mod["main"](ta, tb)
    assert np.array_equal(tb.numpy(), a + np.float32(1))
    tb.zero_()
    mod(ta, tb)  # the entry function
    assert np.array_equal(tb.numpy(), a + np.float32(1))
    # The device module holds the kernel's generated source (the CPU
    # target's C++ here), under both of TVM's spellings.
    source = mod.mod.imports[0].inspect_source()
    assert source == mod.mod.imported_modules[0].get_source()
    assert source == mod["main"].get_kernel_source()
    assert mod.mod.get_source() == mod["main"].get_host_source()
    assert mod.mod["main"] is mod["main"]
    try:
        mod["other"]
    except AttributeError as e:
        assert "'other'" in str(e) and "main" in str(e), e
    else:
        raise AssertionError("no error for a missing function")


def check_two_functions():
    mod = tvm.compile(IRModule({"add_one": add_one, "twice": twice}),
                      target="cpu")
    a, ta, tb = data()
    mod["twice"](ta, tb)
    assert np.array_equal(tb.numpy(), a * np.float32(2))
    mod.mod.get_function("add_one")(ta, tb)
    assert np.array_equal(tb.numpy(), a + np.float32(1))
    both = mod.mod.imported_modules[0].get_source()
    assert mod["add_one"].get_kernel_source() in both
    assert mod["twice"].get_kernel_source() in both
    try:
        mod(ta, tb)
    except TypeError as e:
        assert "add_one, twice" in str(e), e
    else:
        raise AssertionError("no error for a module without main")
    # tilelang.compile builds one prim_func.
    try:
        tilelang.compile(IRModule({"add_one": add_one, "twice": twice}))
    except TypeError as e:
        assert "has 2 (add_one, twice)" in str(e), e
    else:
        raise AssertionError("no error for two functions")


def check_tilelang_entry_points():
    kernel = tilelang.compile(IRModule.from_expr(twice), target="cpu")
    a, ta, tb = data()
    kernel(ta, tb)
    assert np.array_equal(tb.numpy(), a * np.float32(2))
    rt_mod, params = tilelang.lower(IRModule({"main": add_one}),
                                    target="cpu")
    assert [p.name for p in params] == ["A", "B"], params
    rt_mod(ta, tb)
    assert np.array_equal(tb.numpy(), a + np.float32(1))
    # tvm.build (TVM before tvm.compile) returns the runtime module.
    runtime = tvm.build(IRModule({"main": twice}), target="llvm")
    tb.zero_()
    runtime["main"](ta, tb)
    assert np.array_equal(tb.numpy(), a * np.float32(2))


def check_errors():
    try:
        tvm.compile("main", target="cpu")
    except TypeError as e:
        assert "tvm.IRModule" in str(e) and "str" in str(e), e
    else:
        raise AssertionError("no error for a string")
    try:
        tvm.compile(IRModule({"main": len}), target="cpu")
    except TypeError as e:
        assert "function 'main'" in str(e), e
    else:
        raise AssertionError("no error for a non-prim_func")


check_one_function()
check_two_functions()
check_tilelang_entry_points()
check_errors()
print("tvm_compile_module: ok")
