# A comparison with a value tlc does not model (here the functions of a
# module outside TileLang) is unknown, not decided: tlc took `<object> !=
# (i, j)` as true and a list comprehension kept every element, so the
# upstream fp4 layout round-trip test "failed" with "AssertionError: 16
# mismatches". A list filtered on such conditions holds every candidate
# (iterating it still runs them all), but its equality, truth and length
# are unknown, and an assertion on them is not checked: a remark says so.
# Known comparisons and lists keep their answers (the last assertions).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=remark:
import pytest
import subprocess as outside  # a module tlc does not model


def pairs():
    return [(i, j) for i in range(4) for j in range(4)]


def test_round_trip():
    bad = [(i, j) for (i, j) in pairs() if outside.forward(*outside.inverse(i, j)) != (i, j)]
    # CHECK: unmodelled-comparison.py:[[@LINE+1]]:12: remark: tlc cannot check this assertion: `bad == []` depends on a value tlc does not model (an object from outside TileLang), so whether it holds is unknown
    assert bad == [], f"{len(bad)} mismatches, first {bad[:4]}"
    # CHECK: unmodelled-comparison.py:[[@LINE+1]]:12: remark: tlc cannot check this assertion: `not bad`
    assert not bad
    # CHECK: unmodelled-comparison.py:[[@LINE+1]]:12: remark: tlc cannot check this assertion: `len(bad) == 0`
    assert len(bad) == 0
    # CHECK: unmodelled-comparison.py:[[@LINE+1]]:12: remark: tlc cannot check this assertion: `outside.forward(3, 45) == outside.inverse(3, 45)`
    assert outside.forward(3, 45) == outside.inverse(3, 45)
    # CHECK: unmodelled-comparison.py:[[@LINE+1]]:12: remark: tlc cannot check this assertion: `outside.PIPE in (1, 2)`
    assert outside.PIPE in (1, 2)
    # A raise guarded by such a list is assumed not taken, as one guarded
    # by the unknown value itself is.
    if bad:
        raise AssertionError("mismatches")


def test_known():
    # CHECK: unmodelled-comparison.py:[[@LINE+1]]:12: warning: AssertionError: known (raised while running test_known)
    assert [(i, j) for (i, j) in pairs() if i != j] == [], "known"
