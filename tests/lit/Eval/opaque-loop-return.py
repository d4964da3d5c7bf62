# A loop over a value tlc does not model is skipped; when its body can
# return, the code after it may never run, so the call's result is unknown
# rather than what the rest of the function does. tlc ran the helper's
# final `raise` (upstream test_tilelang_language_rand.py: "no curand_init
# in generated source") and reported the program's test as failing. A
# skipped loop that cannot return still falls through to what follows.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=remark:
# CHECK: opaque-loop-return.py:25:5: warning: ValueError: after the loop (raised while running test_falls_through)
# CHECK: opaque-loop-return.py:30:12: remark: tlc cannot check this assertion: `", 7," in line` depends on a value tlc does not model
import pytest
import subprocess as outside  # a module tlc does not model


def curand_init_line(source):
    for line in source.splitlines():
        if "curand_init(" in line:
            return line
    raise AssertionError(f"no curand_init in generated source:\n{source}")


def count_lines(source):
    n = 0
    for line in source.splitlines():
        n += 1
    raise ValueError("after the loop")


def test_seq():
    line = curand_init_line(outside.check_output(["nvcc"]))
    assert ", 7," in line


def test_falls_through():
    count_lines(outside.check_output(["nvcc"]))
