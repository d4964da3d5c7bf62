# TLC_CUDA_COMPILER picks what compiles a CUDA build's source (tlc-build's
# --cuda-compiler); no GPU or CUDA toolkit needed: `none` writes the
# source and manifest without a binary (a second build with the same
# choice reuses its folder), the values are read case-insensitively, a bad
# one is a ValueError naming the choices, and CPU builds ignore it.

import os

import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang import _build

HERE = os.path.abspath(__file__)


@tilelang.jit
def add_one(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(N):
                B[i] = A[i] + 1.0

    return main


def test_none_writes_source_only(monkeypatch):
    monkeypatch.setenv("TLC_CUDA_COMPILER", "none")
    r = _build.build(HERE, "add_one", {"N": "64"}, "cuda:sm_90a")
    assert "--cuda-compiler=none" in r.command
    files = os.listdir(r.out_dir)
    assert "add_one.cu" in files and "add_one.json" in files
    assert not any(f.endswith((".cubin", ".fatbin")) for f in files)
    with open(os.path.join(r.out_dir, "add_one.cu")) as f:
        assert "__global__" in f.read()


def test_choice_is_part_of_the_build(monkeypatch):
    monkeypatch.setenv("TLC_CUDA_COMPILER", "none")
    a = _build.build(HERE, "add_one", {"N": "32"}, "cuda:sm_90a")
    monkeypatch.setenv("TLC_CUDA_COMPILER", "NVRTC")
    assert _build._env.cuda_compiler_args("cuda:sm_90a") == \
        ["--cuda-compiler=nvrtc"]
    monkeypatch.delenv("TLC_CUDA_COMPILER")
    assert _build._env.cuda_compiler_args("cuda:sm_90a") == []
    monkeypatch.setenv("TLC_CUDA_COMPILER", "none")
    b = _build.build(HERE, "add_one", {"N": "32"}, "cuda:sm_90a")
    assert a.out_dir == b.out_dir
    monkeypatch.setenv("TLC_CUDA_COMPILER", "auto")
    assert _build._env.cuda_compiler_args("cuda:sm_90a") == \
        ["--cuda-compiler=auto"]


def test_bad_value_and_cpu(monkeypatch):
    monkeypatch.setenv("TLC_CUDA_COMPILER", "clang")
    with pytest.raises(ValueError, match="nvcc, nvrtc"):
        _build.build(HERE, "add_one", {"N": "64"}, "cuda:sm_90a")
    # The CPU target has no CUDA compiler to choose.
    r = _build.build(HERE, "add_one", {"N": "64"}, "cpu")
    assert not any(a.startswith("--cuda-compiler") for a in r.command)


if __name__ == "__main__":
    tilelang.testing.main()
