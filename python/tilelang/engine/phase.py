"""``tilelang.engine.phase``: TileLang's lowering phases, which run TVM
passes over an ``IRModule`` (``LowerAndLegalize(mod, target)``,
``OptimizeForTarget(mod, target)``) and return the transformed TIR.

tlc has no TVM IR: it lowers a kernel from its Python source inside
``tlc-build`` (Tile IR, then its own passes), so there is no module to hand
to a phase and none to return. The names exist so that a script's import
succeeds; calling one raises :class:`NotImplementedError`, naming the phase.
``tilelang.lower(func)`` / ``tilelang.compile(func)`` build the kernel, and
``func.body`` gives a TIR-shaped view of the statements before lowering.
"""


def _unsupported(name):
    def phase(*args, **kwargs):
        raise NotImplementedError(
            f"tilelang.engine.phase.{name} runs TVM passes over an IRModule; "
            "tlc has no TVM IR (it lowers kernels inside tlc-build): use "
            "tilelang.lower(func) / tilelang.compile(func) to build the "
            "kernel, func.body for a TIR-shaped view of its statements")
    phase.__name__ = phase.__qualname__ = name
    phase.__doc__ = f"``{name}(mod, target)``: not available in tlc."
    return phase


LowerAndLegalize = _unsupported("LowerAndLegalize")
OptimizeForTarget = _unsupported("OptimizeForTarget")
PreLowerSemanticCheck = _unsupported("PreLowerSemanticCheck")
