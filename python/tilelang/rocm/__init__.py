"""``tilelang.rocm``: TileLang's ROCm dialect (tilelang/_dialects.py)."""

from .._dialects import fill as _fill

_fill(globals())
