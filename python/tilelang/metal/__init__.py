"""``tilelang.metal``: TileLang's Metal dialect (tilelang/_dialects.py)."""

from .._dialects import fill as _fill

_fill(globals())
