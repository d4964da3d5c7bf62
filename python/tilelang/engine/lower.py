"""``tilelang.engine.lower``: the module scripts import ``lower`` from
(``from tilelang.engine.lower import lower``); the function is
:func:`tilelang.lower`."""

from .._jit import CompiledArtifact, lower  # noqa: F401
