# RUN: tlc-build --verify-diagnostics %s
# A kernel factory passed to a test through @pytest.mark.parametrize (as
# `build`) that the test builds only inside `with pytest.raises` is a kernel
# TileLang must refuse: its error is what the test expects, a warning of the
# file. The same factory read anywhere else keeps its error.
import pytest
import tilelang
import tilelang.language as T


def overlong_store():

    @T.prim_func
    def main(X: T.Tensor((96,), T.float32), Y: T.Tensor((96,), T.float32)):
        with T.Kernel(1, threads=32):
            # expected-warning@+1 {{T.copy would write outside the dst region}}
            T.copy(X[0:40], Y[0:8])

    return main


def overlong_load():

    @T.prim_func
    def main(X: T.Tensor((96,), T.float32), Y: T.Tensor((96,), T.float32)):
        with T.Kernel(1, threads=32):
            S = T.alloc_shared((48,), T.float32)
            # expected-error@+1 {{T.copy would read outside the src region}}
            T.copy(X[0:24], S)
            T.copy(S, Y[0:48])

    return main


@pytest.mark.parametrize(
    "build, what, expected_extent",
    [
        pytest.param(overlong_store, "write", 40, id="store"),
    ],
)
def check_refused(build, what, expected_extent):
    with pytest.raises(ValueError, match=what):
        tilelang.compile(build())


# Passed in, but built outside the pytest.raises block: no expected failure.
@pytest.mark.parametrize("build, what, expected_extent", [(overlong_load, "read", 48)])
def check_built(build, what, expected_extent):
    kernel = tilelang.compile(build())
    with pytest.raises(ValueError, match=what):
        kernel()
