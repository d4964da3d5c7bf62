# tilelang.language.v2.dtypes._all_dtypes: every name is a T attribute
# that is a tvm.DataType (the package's dtype), callable on a Python value
# as TileLang's dtypes are outside kernels; widths of the types NumPy also
# has checked against NumPy's itemsize, vector lanes against the name.

import numpy as np
import tilelang
import tilelang.language as T
import tilelang.testing
import tvm
from tilelang.language.v2.dtypes import _all_dtypes

NUMPY = {"bool": np.bool_, "int8": np.int8, "int16": np.int16,
         "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
         "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
         "float16": np.float16, "float32": np.float32, "float64": np.float64}


def test_all_dtypes_are_t_attributes():
    assert {"half", "long", "short", "float8_e4m3fn", "bfloat16",
            "float16x2", "int8x4"} <= set(_all_dtypes)
    for name in _all_dtypes:
        dt = getattr(T, name)
        assert isinstance(dt, tvm.DataType), name
        assert dt == T.dtype(name)
        value = dt(3)
        want = True if dt.scalar == "bool" else 3
        assert value == want and isinstance(value, (int, float, bool)), name


def test_widths_against_numpy():
    checked = 0
    for name in _all_dtypes:
        dt = T.dtype(name)
        scalar = str(dt.scalar)
        if scalar in NUMPY:
            assert dt.bits == np.dtype(NUMPY[scalar]).itemsize * 8 * dt.lanes, name
            checked += 1
        # "float4_e2m1fn_x2" is torch's name of packed fp4 pairs (storage),
        # not a vector of two lanes.
        if "x" in name and name.rsplit("x", 1)[1].isdigit() and not name.endswith("_x2"):
            assert dt.lanes == int(name.rsplit("x", 1)[1]), name
    assert checked > 50


if __name__ == "__main__":
    tilelang.testing.main()
