"""``T.reduce_argmax`` / ``T.reduce_argmin`` where Python calls them.

Inside a kernel body tlc's evaluator builds the reduction
(``compiler/lib/Eval/ArgReduce.cpp``). Python calls them only outside a
body: in a factory's plain Python code (on ``T.alloc_*`` placeholders,
which Python does not evaluate) or on buffers a script declares itself
with ``tvm.tirx.decl_buffer``, as TileLang's tests do to check the
arguments without building a kernel. There the arguments are validated
with the evaluator's rules, in the same order, and a bad one raises the
``TypeError`` / ``ValueError`` TileLang raises; valid arguments give a
:class:`Placeholder` (the call, which only tlc gives a meaning).
"""

import numbers

from ._objects import Placeholder

# Element types an arg-reduction reads (the evaluator's isArgReduceInput).
_INPUT_DTYPES = {"float16", "bfloat16", "float32", "float64", "int8",
                 "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64"}
_INDEX_LIMIT = {"int32": 2**31 - 1, "int64": 2**63 - 1}


def _is_buffer(value):
    from .. import _tir
    return isinstance(value, _tir.Buffer)


def _constant(extent):
    """The value of a constant extent (an ``IntImm`` / int), else None."""
    if isinstance(extent, numbers.Integral) and not isinstance(extent, bool):
        return int(extent)
    return None


def _same_extent(a, b):
    ca, cb = _constant(a), _constant(b)
    if ca is not None or cb is not None:
        return ca == cb
    return str(a) == str(b)


def _shape_text(shape):
    return "[" + ", ".join(str(_constant(s)) if _constant(s) is not None
                           else str(s) for s in shape) + "]"


def _scope_ok(scope):
    return scope.startswith("shared") or scope == "local.fragment"


def arg_reduce(name, buffer, out, dim=-1):
    """Validates a Python call of ``T.<name>(buffer, out, dim)``."""
    if not (_is_buffer(buffer) and _is_buffer(out)):
        if isinstance(buffer, Placeholder) or isinstance(out, Placeholder):
            # A factory's allocation: tlc checks it in the kernel body.
            return Placeholder(f"T.{name}", (buffer, out, dim))
        bad = buffer if not _is_buffer(buffer) else out
        raise TypeError(f"T.{name} expects Buffers as input and output, "
                        f"not '{type(bad).__name__}'")
    if not isinstance(dim, numbers.Integral) or isinstance(dim, bool):
        raise TypeError(f"T.{name} dim must be an integer, not "
                        f"'{type(dim).__name__}'")
    rank = len(buffer.shape)
    dim = int(dim)
    if dim < -rank or dim >= rank:
        raise ValueError(f"T.{name} dim {dim} is out of bounds for input "
                         f"rank {rank}")
    if dim < 0:
        dim += rank
    index = str(out.dtype)
    if index not in _INDEX_LIMIT:
        raise ValueError(f"T.{name} output dtype must be int32 or int64, "
                         f"not {index}")
    if str(buffer.dtype) not in _INPUT_DTYPES:
        raise ValueError(f"T.{name} does not support input dtype "
                         f"{buffer.dtype} (a float16, bfloat16, float32, "
                         "float64 or 8- to 64-bit integer tile)")
    for buf in (buffer, out):
        if not _scope_ok(buf.scope()):
            raise ValueError(f"T.{name} expects fragment or shared buffers, "
                             f"but '{buf.name}' is in {buf.scope()}")
    extent = _constant(buffer.shape[dim])
    if extent is None or extent <= 0:
        raise ValueError(f"T.{name} requires a positive constant reduction "
                         f"extent, but dimension {dim} of '{buffer.name}' "
                         f"is {buffer.shape[dim]}")
    if extent > _INDEX_LIMIT[index]:
        raise ValueError(f"T.{name} reduction extent {extent} cannot be "
                         f"represented by output dtype {index}")
    squeezed = [s for i, s in enumerate(buffer.shape) if i != dim]
    kept = [1 if i == dim else s for i, s in enumerate(buffer.shape)]

    def matches(shape):
        return len(shape) == len(out.shape) and all(
            _same_extent(a, b) for a, b in zip(shape, out.shape))
    if not (matches(squeezed) or matches(kept)):
        raise ValueError(f"T.{name} output shape must be "
                         f"{_shape_text(squeezed)} or {_shape_text(kept)}, "
                         f"not {_shape_text(out.shape)}")
    return Placeholder(f"T.{name}", (buffer, out, dim))
