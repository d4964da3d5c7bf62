"""Saved kernel outputs for the NumPy checks of this directory.

`tlc-run --save DIR` writes each kernel's outputs as DIR/KERNEL/NAME.npy
and its inputs as DIR/KERNEL/inputs/NAME.npy; a check script reads them
with `load`, compares with its NumPy reference and prints one line per
kernel (`KERNEL PASS` or `KERNEL FAIL`) for FileCheck."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(kernel, name, inputs=False):
    """The saved array NAME of KERNEL (an input when `inputs`)."""
    return np.load(os.path.join(root, kernel, "inputs" if inputs else "",
                                name + ".npy"))


def report(kernel, ok):
    """Prints KERNEL's verdict."""
    print(kernel, "PASS" if ok else "FAIL")


def report_close(kernel, expected, atol=1e-5, name="B"):
    """Prints whether KERNEL's output NAME has EXPECTED's shape and values
    (within ATOL)."""
    got = load(kernel, name)
    report(kernel, got.shape == expected.shape and
           np.allclose(got, expected, atol=atol))
