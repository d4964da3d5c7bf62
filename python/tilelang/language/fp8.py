"""``tilelang.language.fp8``: the platform's FP8 dtype choice."""

from ..utils.target import determine_fp8_type

__all__ = ["determine_fp8_type"]
