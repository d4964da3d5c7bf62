# --check runs at most 64 parametrized combinations of a test (the topmost
# decorator's case varying fastest, as pytest orders them) and says so in a
# remark when there are more: here 9 x 8 = 72, combination c = 9 * b + a.
# c = 63 (a = 0, b = 7) runs, its failed assertion is reported; c = 64 on
# (a >= 1, b = 7) would fail too, and is not run.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
# CHECK: parametrize-many-cases.py:[[@LINE+7]]:5: remark: checked the first 64 parametrized cases of test_many; the others are not traced
# CHECK: parametrize-many-cases.py:[[@LINE+7]]:12: warning: AssertionError: c = 63 ran (raised while running test_many)
import pytest


@pytest.mark.parametrize("a", range(9))
@pytest.mark.parametrize("b", range(8))
def test_many(a, b):
    assert not (b == 7 and a == 0), "c = 63 ran"
    assert not (b == 7 and a >= 1), "a combination past 64 ran"
