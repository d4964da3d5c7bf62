# tilelang.language.v2.dtypes._all_dtypes: every name is a T attribute
# that is a tvm.DataType (the package's dtype), callable on a Python value
# as TileLang's dtypes are outside kernels; widths of the types NumPy also
# has checked against NumPy's itemsize, vector lanes against the name.

import numpy as np
import pytest
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


def test_determine_fp8_type(monkeypatch):
    """TileLang's platform choice: OCP fp8 on CUDA (and CPU) torch; on ROCm
    torch FNUZ without a visible device and on gfx940-gfx942, OCP on other
    AMD architectures (gfx950); another format is a ValueError."""
    import torch
    from tilelang.language.fp8 import determine_fp8_type
    from tilelang.utils import determine_fp8_type as from_utils
    assert determine_fp8_type is from_utils
    assert determine_fp8_type() == T.float8_e4m3fn
    assert determine_fp8_type("e5m2") == T.float8_e5m2
    with pytest.raises(ValueError, match="Unsupported FP8 format: e4m2"):
        determine_fp8_type("e4m2")
    monkeypatch.setattr(torch.version, "hip", "6.2", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert determine_fp8_type() == T.float8_e4m3fnuz
    assert determine_fp8_type("e5m2") == T.float8_e5m2fnuz

    class Props:
        gcnArchName = "gfx942:sramecc+:xnack-"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda d: Props)
    assert determine_fp8_type() == T.float8_e4m3fnuz
    Props.gcnArchName = "gfx950"
    assert determine_fp8_type() == T.float8_e4m3fn
    assert determine_fp8_type("e5m2") == T.float8_e5m2


if __name__ == "__main__":
    tilelang.testing.main()
