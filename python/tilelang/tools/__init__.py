"""``tilelang.tools``: ``tilelang.tools.bench`` runs benchmark functions;
``tilelang.tools.Analyzer`` counts a kernel's FLOPs and global-memory
bytes from its Tile IR."""

from . import bench  # noqa: F401
from .analyzer import Analyzer, AnalysisResult  # noqa: F401
