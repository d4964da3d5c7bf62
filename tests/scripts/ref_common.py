"""Shared command line and dtype helpers of the NumPy reference scripts.

Every tests/scripts/ref_<example>.py follows one convention (README.md):

    /usr/bin/python3 ref_<example>.py --inputs DIR --out DIR [-D name=value]...

* --inputs DIR holds one NAME.npy per input parameter of the kernel, named
  exactly like the parameter (A.npy, B.npy, ...). Dtypes NumPy lacks
  (bfloat16, float8_*) arrive as float32 arrays holding representable values.
* --out DIR receives one NAME.npy per output parameter. Outputs are rounded
  to the kernel's output dtype; when NumPy has that dtype (float16, float32,
  int32, uint8, ...) the file uses it, otherwise (bfloat16, float8_*) the
  rounded values are stored as float32.
* -D name=value binds a meta parameter of the kernel (eps, is_causal,
  group_size, ...). Sizes are taken from the input shapes; a -D for a size
  is accepted and checked against them. Values parse as int, float, bool
  (true/false) or are kept as strings.

Only NumPy is used (Debian's python3-numpy); no torch.
"""

import argparse
import os
import sys

import numpy as np


def _parse_value(text):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


class RefContext:
    """Parsed command line: inputs by name, parameters, output writer."""

    def __init__(self, description, argv=None):
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("--inputs", required=True, help="directory with NAME.npy inputs")
        parser.add_argument("--out", required=True, help="directory for NAME.npy outputs")
        parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                            help="bind a meta parameter")
        args = parser.parse_args(argv)
        self.inputs_dir = args.inputs
        self.out_dir = args.out
        self.params = {}
        for define in args.defines:
            if "=" not in define:
                parser.error(f"-D expects NAME=VALUE, got '{define}'")
            name, value = define.split("=", 1)
            self.params[name.strip()] = _parse_value(value.strip())

    def input(self, name, optional=False):
        """Loads NAME.npy from the inputs directory."""
        path = os.path.join(self.inputs_dir, name + ".npy")
        if not os.path.exists(path):
            if optional:
                return None
            sys.exit(f"error: missing input {path}")
        return np.load(path)

    def param(self, name, default):
        """The -D value of a meta parameter, or its default."""
        value = self.params.get(name, default)
        if isinstance(default, bool) and not isinstance(value, bool):
            value = bool(value)
        return value

    def size(self, name, actual):
        """Checks an optional -D size binding against the size of the inputs."""
        if name in self.params and self.params[name] != actual:
            sys.exit(f"error: -D {name}={self.params[name]} but the inputs have {name}={actual}")
        return actual

    def save(self, name, array, dtype):
        """Rounds `array` to the TileLang dtype `dtype` and writes NAME.npy."""
        os.makedirs(self.out_dir, exist_ok=True)
        np.save(os.path.join(self.out_dir, name + ".npy"), to_storage(array, dtype))


def round_bfloat16(x):
    """Rounds float values to bfloat16 (round to nearest even), as float32."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    nan = np.isnan(bits.view(np.float32))
    rounding = ((bits >> 16) & 1) + np.uint32(0x7FFF)
    rounded = ((bits + rounding) & np.uint32(0xFFFF0000)).astype(np.uint32)
    out = rounded.view(np.float32).copy()
    out[nan] = np.nan
    return out


def _round_minifloat(x, man_bits, bias, max_finite):
    """Rounds to a small float format with subnormals, round to nearest even,
    saturating to +-max_finite (CUDA's satfinite conversion)."""
    x = np.asarray(x, dtype=np.float64)
    nan = np.isnan(x)
    ax = np.abs(x)
    min_normal_exp = 1 - bias
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.floor(np.log2(np.where(ax > 0, ax, 1.0)))
    e = np.maximum(e, min_normal_exp)
    quantum = np.exp2(e - man_bits)
    with np.errstate(invalid="ignore"):
        q = np.round(ax / quantum) * quantum  # np.round: ties to even
    # satfinite: magnitudes above the largest finite value, infinities
    # included, become that value.
    q = np.where(np.isinf(ax), max_finite, np.minimum(q, max_finite))
    out = np.copysign(q, x)
    out[nan] = np.nan
    return out.astype(np.float32)


def round_float8_e4m3fn(x):
    return _round_minifloat(x, 3, 7, 448.0)


def round_float8_e5m2(x):
    return _round_minifloat(x, 2, 15, 57344.0)


_NUMPY_DTYPES = {
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "uint16": np.uint16,
    "uint32": np.uint32,
    "uint64": np.uint64,
    "bool": np.bool_,
}


def to_storage(array, dtype):
    """Converts `array` to how an output of TileLang dtype `dtype` is saved."""
    array = np.asarray(array)
    if dtype in _NUMPY_DTYPES:
        target = _NUMPY_DTYPES[dtype]
        if np.issubdtype(target, np.integer) and np.issubdtype(array.dtype, np.floating):
            array = np.trunc(array)
        return array.astype(target)
    if dtype == "bfloat16":
        return round_bfloat16(array)
    if dtype == "float8_e4m3fn":
        return round_float8_e4m3fn(array)
    if dtype == "float8_e5m2":
        return round_float8_e5m2(array)
    raise ValueError(f"unsupported output dtype {dtype}")


def round_to(array, dtype):
    """Rounds `array` to `dtype` and returns it as float32 (for the values
    a kernel stores in an intermediate of that dtype)."""
    return to_storage(array, dtype).astype(np.float32)
