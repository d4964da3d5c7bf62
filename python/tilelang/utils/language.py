"""``tilelang.utils.language``: helpers over buffers and shapes that
scripts call outside kernel bodies."""

from ..language._objects import Symbol, SymbolExpr


def _is_static(extent):
    return isinstance(extent, int) and not isinstance(extent, bool)


def construct_strides(shape, allow_prim_expr=True):
    """The dense row-major strides of ``shape``, one per dimension: the
    last is 1, each other the product of the extents after it (``(2, 3,
    4)`` -> ``(12, 4, 1)``, ``()`` -> ``()``). A symbolic extent after the
    first makes the strides before it symbolic (``(2, n)`` -> ``(n, 1)``);
    with ``allow_prim_expr=False`` that raises ``ValueError``."""
    shape = tuple(shape)
    strides = []
    step = 1
    for extent in reversed(shape):
        strides.append(step)
        if _is_static(step) and _is_static(extent):
            step = step * extent
        elif not allow_prim_expr:
            # Only a stride that is used needs a value: the outermost
            # extent never reaches one.
            step = None
        else:
            step = extent if _is_static(step) and step == 1 else \
                extent if _is_static(extent) and extent == 1 else \
                step * extent
        if step is None and len(strides) < len(shape):
            raise ValueError(
                f"construct_strides{shape}: a symbolic extent "
                f"({extent!r}) makes the strides symbolic; pass "
                "allow_prim_expr=True to allow PrimExpr strides")
    return tuple(reversed(strides))


def retrieve_stride(buffer):
    """The strides of ``buffer``: its own, or the dense row-major ones of
    its shape where it has none (a buffer declared without strides)."""
    strides = list(getattr(buffer, "strides", None) or ())
    if strides:
        return strides
    return list(construct_strides(buffer.shape))


__all__ = ["construct_strides", "retrieve_stride", "Symbol", "SymbolExpr"]
