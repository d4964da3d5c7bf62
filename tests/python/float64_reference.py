# Runs a TileLang script unchanged through the package, with its torch
# reference computed in float64: `python3 float64_reference.py SCRIPT
# [ARGS...]` runs SCRIPT as __main__ with Tensor.float() returning float64
# (references upcast with .float(), as TileLang scripts do, so they compute
# in float64 instead of float32) and torch.testing.assert_close rounding a
# float64 reference to the kernel output's dtype before its own comparison
# (with the script's tolerances). A kernel input made with .float() would
# reach the kernel as float64 and be refused with a TypeError, so nothing
# is silently compared in another precision. The kernels themselves are
# built and run by tlc as usual.

import os
import runpy
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) < 2:
        print("usage: float64_reference.py SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    script = os.path.abspath(sys.argv[1])
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(script))
    torch.Tensor.float = lambda self, memory_format=torch.preserve_format: self.to(torch.float64, memory_format=memory_format)
    assert_close = torch.testing.assert_close
    compared = []

    def assert_close_f64(actual, expected, *args, **kwargs):
        if torch.is_tensor(actual) and torch.is_tensor(expected) and \
                expected.dtype == torch.float64 and actual.dtype != torch.float64:
            compared.append(f"{actual.dtype} output vs float64 reference")
            expected = expected.to(actual.dtype)
        elif torch.is_tensor(expected):
            compared.append(f"{actual.dtype if torch.is_tensor(actual) else type(actual).__name__} output vs {expected.dtype} reference (rounded from float64)")
        return assert_close(actual, expected, *args, **kwargs)
    torch.testing.assert_close = assert_close_f64
    runpy.run_path(script, run_name="__main__")
    print(f"float64 reference: {os.path.basename(script)}: {'; '.join(compared) or 'checked by the profiler (assert_allclose, float64 comparison)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
