# A kernel builder passed to tests through a module-level list of
# parametrize cases (`_CASES = [(...), ...]`, shared by several tests, as
# upstream test_tilelang_language_rand.py does) and built only inside
# `with pytest.raises` is one the tests expect TileLang to refuse: its
# errors are warnings that say so, as for a builder named in the
# decorator's own list (pytest-raises-expected-kernels.py). Before, the
# builder nothing else called was traced alone and its error failed the
# file. The builder of the other test is checked as usual.
# RUN: tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not="error:" --implicit-check-not="warning:"
# CHECK: pytest-raises-case-list.py:[[@LINE+18]]:13: warning: the layout annotated for shared buffer `s` is not injective on its shape: {{.*}} (the test expects this kernel to fail: it uses it only inside `with pytest.raises`)
import pytest

import tilelang
import tilelang.language as T
from tilelang.layout import Layout


def fold(i):
    return i % 32


def _overlapping():

    @T.prim_func
    def stage(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), T.float32)):
        with T.Kernel(1, threads=64):
            s = T.alloc_shared((64,), T.float32)
            T.annotate_layout({s: Layout((64,), fold)})
            for i in T.Parallel(64):
                s[i] = A[i]
            for i in T.Parallel(64):
                B[i] = s[i]

    return stage


def _plain():

    @T.prim_func
    def stage(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), T.float32)):
        with T.Kernel(1, threads=64):
            s = T.alloc_shared((64,), T.float32)
            for i in T.Parallel(64):
                s[i] = A[i]
            for i in T.Parallel(64):
                B[i] = s[i]

    return stage


_CASES = [("fold", _overlapping, _plain)]


@pytest.mark.parametrize("name,broken,fixed", _CASES)
def test_rejected(name, broken, fixed):
    with pytest.raises(ValueError, match="must be injective"):
        tilelang.compile(broken())


@pytest.mark.parametrize("name,broken,fixed", _CASES)
def test_fixed(name, broken, fixed):
    tilelang.compile(fixed())
