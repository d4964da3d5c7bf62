"""Hints and rasterization plans of :mod:`tilelang.carver`."""

from .hint import Hint  # noqa: F401
from . import rasterization  # noqa: F401
