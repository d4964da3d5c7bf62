"""``from tilelang.tileop.base import GemmWarpPolicy``: the warp
partitioning policies of ``T.gemm`` (``tilelang.language.GemmWarpPolicy``)."""

from ..language import GemmWarpPolicy  # noqa: F401
