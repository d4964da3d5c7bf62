"""``tilelang.language.dtypes``: predicates on TileLang dtypes that
scripts import (the dtype objects are :mod:`tilelang._dtype`'s)."""

from .._dtype import dtype as _dtype


def _as_dtype(value):
    try:
        return _dtype(value)
    except (TypeError, ValueError):
        return None


def is_float6_unpacked(value):
    """Whether ``value`` (a dtype, its name or ``custom[...]8`` spelling)
    is one of the fp6 shared-memory storage tags."""
    d = _as_dtype(value)
    return d is not None and d.is_float6_unpacked()


def is_float4_unpacked(value):
    d = _as_dtype(value)
    return d is not None and d.is_float4_e2m1_unpacked()


def is_f8f6f4_family(value):
    """Whether ``value`` is an operand type of the f8f6f4 MMA forms: an
    fp8 type other than the e8m0 scale type, or an fp6 / fp4 type packed
    or in its byte (the storage tags included, whose ``custom[...]``
    names a test of the name's prefix would miss)."""
    d = _as_dtype(value)
    if d is None or d.lanes != 1:
        return False
    if d.is_float8():
        return d.scalar != "float8_e8m0fnu"
    return d.is_float6() or d.is_float4()
