"""``tilelang.tileop``: where TileLang defines its tile operators' Python
classes. Scripts import ``GemmWarpPolicy`` from ``tilelang.tileop.base``;
it is ``T.GemmWarpPolicy`` (tlc evaluates the operators themselves)."""

from .base import GemmWarpPolicy  # noqa: F401
