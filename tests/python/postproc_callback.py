# Post-processing of generated GPU source (TileLang's
# `tilelang.engine.callback.register_cuda_postproc_callback` and
# `tvm.register_func("tilelang_callback_cuda_postproc")`): the callback gets
# each instance's CUDA source and target, and what it returns is what is
# compiled (tlc-build --replace-source) and what get_kernel_source() shows.
# No GPU needed: the builds are for cuda:sm_90a; with nvcc the cubin is
# checked for a kernel only the callback's text defines (the ELF symbol
# table, read with no tlc code), without nvcc the source alone (the
# `none` compiler); the HIP callback likewise on a gfx942 code object
# where clang's AMDGPU back end is installed. The registry's own rules (TVM's register_func) and
# the CPU target, whose C++ the CUDA callback does not see, are checked
# against NumPy.

import os
import shutil

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang import tvm
from tilelang import _build
from tilelang import _global_funcs
from tilelang.engine.callback import (register_cuda_postproc,
                                      register_cuda_postproc_callback,
                                      register_hip_postproc_callback)

HERE = os.path.abspath(__file__)
HAVE_NVCC = bool(shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"))
# The clang that builds HIP code objects (tlc's HIP target looks for it so).
HAVE_HIP_CLANG = bool(os.environ.get("TLC_HIP_CLANG") or shutil.which("clang++-22") or
                      os.path.exists("/usr/lib/llvm-22/bin/clang++"))


def scale(N, block):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 3.0 + 1.0

    return main


@pytest.fixture(autouse=True)
def _clean_registry():
    yield
    for name in (_global_funcs.CUDA_POSTPROC, _global_funcs.HIP_POSTPROC,
                 "my_func"):
        _global_funcs.remove_global_func(name)


def _compiler(monkeypatch):
    if not HAVE_NVCC:
        monkeypatch.setenv("TLC_CUDA_COMPILER", "none")


def test_registry_rules():
    # The engine package exports the same registration functions.
    import tilelang.engine as engine
    assert engine.register_cuda_postproc is register_cuda_postproc
    assert engine.register_hip_postproc_callback is \
        register_hip_postproc_callback
    def my_func(x):
        return x + 1
    assert tvm.register_func("my_func", my_func) is my_func
    assert tvm.get_global_func("my_func")(41) == 42
    with pytest.raises(tvm.error.TVMError, match="already registered"):
        tvm.register_func("my_func", lambda x: x)
    tvm.register_func("my_func", lambda x: -x, override=True)
    assert tvm.get_global_func("my_func")(5) == -5
    assert tvm.get_global_func("no_such_func", allow_missing=True) is None
    with pytest.raises(ValueError, match="Cannot find global function"):
        tvm.get_global_func("no_such_func")
    with pytest.raises(ValueError):
        tvm.register_func(3, my_func)

    # The decorator forms, and the function's own name.
    @tvm.register_func(override=True)
    def tilelang_callback_cuda_postproc(code, target):
        return code
    assert tvm.get_global_func(_global_funcs.CUDA_POSTPROC) is \
        tilelang_callback_cuda_postproc
    assert tvm.ffi.get_global_func(_global_funcs.CUDA_POSTPROC) is \
        tilelang_callback_cuda_postproc

    @register_cuda_postproc_callback(override=True)
    def b(code, target):
        return code
    assert tvm.get_global_func(_global_funcs.CUDA_POSTPROC) is b
    with pytest.raises(tvm.error.TVMError):
        register_cuda_postproc(lambda c, t: c, override=False)
    with pytest.raises(TypeError):
        register_cuda_postproc_callback(42)


def test_source_is_post_processed(monkeypatch):
    _compiler(monkeypatch)
    seen = []

    @register_cuda_postproc_callback
    def add_probe(code, target):
        seen.append((code, str(target)))
        return ("// post-processed &*(XS)\n" + code +
                '\nextern "C" __global__ void tlc_postproc_probe_7() {}\n')

    kernel = tilelang.compile(scale(256, 64), out_idx=[1], target="cuda -arch=sm_90a")
    source = kernel.get_kernel_source()
    assert len(seen) == 1 and seen[0][1] == "cuda -arch=sm_90a"
    original = seen[0][0]
    assert "__global__" in original and "tlc_postproc_probe_7" not in original
    assert source == "// post-processed &*(XS)\n" + original + \
        '\nextern "C" __global__ void tlc_postproc_probe_7() {}\n'
    if HAVE_NVCC:
        binaries = [f for f in os.listdir(kernel.artifact_dir)
                    if f.endswith((".cubin", ".fatbin"))]
        assert len(binaries) == 1
        with open(os.path.join(kernel.artifact_dir, binaries[0]), "rb") as f:
            assert b"tlc_postproc_probe_7" in f.read()


def test_unchanged_and_failing_callbacks(monkeypatch):
    _compiler(monkeypatch)
    calls = []

    @register_cuda_postproc_callback
    def identity(code, target):
        calls.append(1)
        return code

    r = _build.build(HERE, "scale", {"N": "128", "block": "64"}, "cuda:sm_90a")
    assert calls == [1]
    assert not any(a.startswith("--replace-source") for a in r.command)

    @register_cuda_postproc_callback
    def not_text(code, target):
        return None

    with pytest.raises(TypeError, match="must return the source as a str"):
        _build.build(HERE, "scale", {"N": "128", "block": "64"}, "cuda:sm_90a")

    if HAVE_NVCC:
        @register_cuda_postproc_callback
        def broken(code, target):
            return code + "\n#error postproc_broke_it\n"

        with pytest.raises(_build.TLCBuildError) as info:
            _build.build(HERE, "scale", {"N": "128", "block": "64"}, "cuda:sm_90a")
        assert "postproc_broke_it" in str(info.value) + info.value.diagnostics


@pytest.mark.skipif(not HAVE_HIP_CLANG, reason="no clang with the AMDGPU back end")
def test_hip_source_is_post_processed():
    seen = []

    @register_hip_postproc_callback()
    def add_probe(code, target):
        seen.append(str(target))
        return code + '\nextern "C" __global__ void tlc_hip_postproc_probe_5() {}\n'

    kernel = tilelang.compile(scale(256, 64), out_idx=[1], target="hip:gfx942")
    assert seen == ["hip -arch=gfx942"]
    assert kernel.get_kernel_source().endswith("void tlc_hip_postproc_probe_5() {}\n")
    objects = [f for f in os.listdir(kernel.artifact_dir) if f.endswith(".hsaco")]
    assert len(objects) == 1
    with open(os.path.join(kernel.artifact_dir, objects[0]), "rb") as f:
        assert b"tlc_hip_postproc_probe_5" in f.read()
    # The CUDA callback is not the HIP one.
    assert tvm.get_global_func(_global_funcs.CUDA_POSTPROC, allow_missing=True) is None


def test_cpu_target_is_not_passed(monkeypatch):
    calls = []

    @register_cuda_postproc_callback
    def count(code, target):
        calls.append(1)
        return code + "\n#error not for the cpu target\n"

    kernel = tilelang.compile(scale(256, 64), out_idx=[1], target="cpu")
    a = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    b = kernel(a)
    np.testing.assert_allclose(np.asarray(b), a.astype(np.float64) * 3 + 1, rtol=1e-6, atol=1e-6)
    assert calls == []


if __name__ == "__main__":
    tilelang.testing.main()
