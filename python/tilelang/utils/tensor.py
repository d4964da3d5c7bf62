"""``tilelang.utils.tensor``."""

from .. import _tensors as _tz
from ..profiler import TensorSupplyType  # noqa: F401
from ..testing import torch_assert_close  # noqa: F401


def map_torch_type(name):
    """The torch dtype for a TileLang dtype name (``"float16"``)."""
    from .._dtype import dtype
    return _tz.torch_dtype(str(dtype(name)))
