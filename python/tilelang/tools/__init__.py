"""``tilelang.tools``: ``tilelang.tools.bench`` runs benchmark functions."""

from . import bench  # noqa: F401
