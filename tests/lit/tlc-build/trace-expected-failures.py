# The body of `with pytest.raises(...)` is code meant to fail: tlc does not
# evaluate it, unless --trace-expected-failures asks for it (the Python
# package checks a prim_func defined there for the error TileLang raises at
# its definition, test_tilelang_language_eager_match.py's form).
# RUN: tlc-build %s --check --target=cpu --kernel=test_match_rejected --defines-only
# RUN: not tlc-build %s --check --target=cpu --kernel=test_match_rejected --defines-only --trace-expected-failures 2>&1 | FileCheck %s
# RUN: env TLC_TRACE_EXPECTED_FAILURES=1 not tlc-build %s --check --target=cpu --kernel=test_match_rejected --defines-only 2>&1 | FileCheck %s

# CHECK: trace-expected-failures.py:23:17: error: `match` is not supported in a TileLang kernel (line 23); write it as an if/elif chain
# CHECK-NOT: error:

import pytest

import tilelang.language as T


def test_match_rejected():
    with pytest.raises(NotImplementedError, match=r"\(line \d+\)") as info:

        @T.prim_func
        def kernel(A: T.Tensor((8,), "int32")):
            with T.Kernel(1, threads=1):
                match A[0]:
                    case _:
                        A[1] = 0
    assert info is not None
