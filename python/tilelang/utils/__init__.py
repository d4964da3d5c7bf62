"""``tilelang.utils``: tensor and target helpers."""

from .tensor import map_torch_type, torch_assert_close, TensorSupplyType  # noqa: F401
from .target import determine_target, determine_fp8_type  # noqa: F401
