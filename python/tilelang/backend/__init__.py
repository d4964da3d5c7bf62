"""``tilelang.backend``: newer TileLang scripts import their target
helpers from here (``from tilelang.backend.target import
determine_target``)."""

from . import target  # noqa: F401
