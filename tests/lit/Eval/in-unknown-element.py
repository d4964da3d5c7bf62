# `x in container` where some element's equality to x is unknown (an
# object outside TileLang, such as the tuned kernel's `.config` of
# tests/python/autotune_gemm.py) is unknown unless another element is
# equal: tlc took such an element as unequal, so `assert kernel.config in
# configs()` on valid code warned "AssertionError". A membership every
# comparison of which is known keeps its answer (the last assert).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s \
# RUN:   --implicit-check-not=warning: --implicit-check-not=error:
# CHECK: in-unknown-element.py:[[@LINE+15]]:8: warning: AssertionError: 3 in [1, 2]
import subprocess

outside = subprocess.PIPE  # an object tlc does not model

assert outside in [{"block": 32}, {"block": 64}]
assert outside in ({"block": 32}, )
assert outside in {"block": 32}
assert not (outside not in [1, 2])
found = "yes" if outside in [1, 2] else "no"
assert found in ("yes", "no")
# Known answers stay known.
assert 2 in [1, outside, 2]
assert "block" in {"block": 32}
assert 3 not in [1, 2]
assert 3 in [1, 2], "3 in [1, 2]"
