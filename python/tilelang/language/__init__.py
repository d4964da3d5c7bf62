"""``tilelang.language`` (``T``) as Python sees it.

tlc compiles kernel bodies itself, from the source file: Python never runs
the statements inside a ``@T.prim_func``, an eager ``@tilelang.jit`` body or
a ``@T.macro``. What Python does evaluate is module-level code, default
arguments, annotations of signatures and the Python code of plain factories
around a ``@T.prim_func``. There every ``T.*`` name gives a sensible object:
dtypes are :class:`~tilelang._dtype.dtype` strings, ``T.Tensor((M, N),
dtype)`` is a :class:`TensorType`, ``T.dynamic("m")`` a :class:`Symbol`,
``T.ceildiv`` divides Python integers, and ``@T.prim_func`` records where
the function is so that tlc can build it. Any other name is a
:class:`Placeholder` that can be called, indexed and combined freely.
"""

import builtins as _builtins
import inspect as _inspect
import math as _math
import sys as _sys

from .._dtype import dtype, is_dtype_name as _is_dtype_name
from ._arg_reduce import arg_reduce as _arg_reduce
from ._objects import (DynType, Placeholder, PrimFunc, Symbol, TensorType,
                       prim_func_from_frame as _prim_func_from_frame)

# -- dtypes -------------------------------------------------------------------

for _name in ("bool", "int4", "int8", "int16", "int32", "int64", "uint4",
              "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
              "float32", "float64", "tfloat32", "float8_e4m3", "float8_e4m3fn",
              "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
              "float8_e8m0fnu", "float4_e2m1fn", "handle", "float6_e2m3fn",
              "float6_e3m2fn", "float4_e2m1_unpacked", "float6_e2m3fn_unpacked",
              "float6_e3m2fn_unpacked"):
    globals()[_name] = dtype(_name)
half = dtype("float16")
float = dtype("float32")  # noqa: A001 - TileLang spells it T.float
double = dtype("float64")
int = dtype("int32")  # noqa: A001
ptr = dtype("handle")
DataType = dtype

# -- tensor annotations -----------------------------------------------------


class _AnnotationMeta(type):
    """Lets ``T.Tensor[shape, dtype]`` work like ``T.Tensor(shape, dtype)``."""

    def __getitem__(cls, item):
        if not isinstance(item, tuple):
            item = (item,)
        return cls(*item)


class Tensor(TensorType, metaclass=_AnnotationMeta):
    """``T.Tensor(shape, dtype)``: a global-memory tensor annotation."""


class Buffer(TensorType, metaclass=_AnnotationMeta):
    """``T.Buffer(shape, dtype)``: same as ``T.Tensor``."""


class SharedBuffer(TensorType, metaclass=_AnnotationMeta):
    scope = "shared"


class FragmentBuffer(TensorType, metaclass=_AnnotationMeta):
    scope = "local.fragment"


class LocalBuffer(TensorType, metaclass=_AnnotationMeta):
    scope = "local"


class StridedTensor(TensorType, metaclass=_AnnotationMeta):
    """``T.StridedTensor(shape, strides, dtype)``."""

    def __init__(self, shape, strides=None, dtype="float32", **kwargs):
        super().__init__(shape, dtype, **kwargs)
        self.strides = tuple(strides) if strides is not None else None


class Ref(metaclass=_AnnotationMeta):
    """``T.Ref[...]``: a by-reference macro parameter annotation."""

    def __init__(self, *args):
        self.args = args


# -- symbols ------------------------------------------------------------------

dyn = DynType()


def _symbols(names, dtype, kind):
    parts = [p for p in names.replace(",", " ").split() if p]
    syms = tuple(Symbol(p, dtype, kind) for p in parts)
    return syms[0] if len(syms) == 1 else syms


def dynamic(names, dtype="int32"):
    """``T.dynamic("m")``: a size kept symbolic in the compiled kernel and
    bound from the arguments' shapes at call time."""
    return _symbols(names, dtype, "dynamic")


def symbolic(names, dtype="int32"):
    """Deprecated spelling of :func:`dynamic`."""
    return _symbols(names, dtype, "dynamic")


def const(names, dtype="int32"):
    """``T.const("M, N")``: sizes specialised per call (eager kernels)."""
    return _symbols(names, dtype, "const")


# -- decorators -----------------------------------------------------------------


def prim_func(fn=None, **kwargs):
    """``@T.prim_func``: records the function and, when it is defined inside
    a plain factory, the factory's name and argument values, so that
    ``tilelang.compile`` can ask tlc for exactly this instance."""
    if fn is None:
        return lambda f: prim_func(f, **kwargs)
    return _prim_func_from_frame(fn, _inspect.currentframe().f_back)


def macro(fn=None, **kwargs):
    """``@T.macro``: inlined by tlc; Python keeps the function as is."""
    if fn is None:
        return lambda f: f
    return fn


# -- integer helpers usable on Python values ----------------------------------


def _is_int(x):
    return isinstance(x, _builtins.int)


def ceildiv(a, b):
    """``T.ceildiv`` on Python integers; symbolic otherwise."""
    if _is_int(a) and _is_int(b):
        return -(-a // b)
    return Placeholder("ceildiv", (a, b))


cdiv = ceildiv


def floordiv(a, b):
    return a // b if _is_int(a) and _is_int(b) else Placeholder("floordiv", (a, b))


def floormod(a, b):
    return a % b if _is_int(a) and _is_int(b) else Placeholder("floormod", (a, b))


def truncdiv(a, b):
    if _is_int(a) and _is_int(b):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return Placeholder("truncdiv", (a, b))


def truncmod(a, b):
    if _is_int(a) and _is_int(b):
        return a - truncdiv(a, b) * b
    return Placeholder("truncmod", (a, b))


def max(*args):  # noqa: A001
    try:
        return _builtins.max(*args)
    except TypeError:
        return Placeholder("max", args)


def min(*args):  # noqa: A001
    try:
        return _builtins.min(*args)
    except TypeError:
        return Placeholder("min", args)


def log2(x):
    if isinstance(x, (_builtins.int, _builtins.float)):
        return _math.log2(x)
    return Placeholder("log2", (x,))


def reduce_argmax(buffer, out, dim=-1):
    """``T.reduce_argmax`` called by Python (outside a kernel body): the
    arguments are validated (``_arg_reduce.py``)."""
    return _arg_reduce("reduce_argmax", buffer, out, dim)


def reduce_argmin(buffer, out, dim=-1):
    """``T.reduce_argmin`` called by Python; see :func:`reduce_argmax`."""
    return _arg_reduce("reduce_argmin", buffer, out, dim)


def extract_lane(vector, lane):
    """``T.extract_lane(vector, lane)`` called by Python on a vector
    ``tvm.tirx`` expression: a one-lane ``tirx.Shuffle`` of the vector's
    scalar dtype, after TileLang's checks (a PrimExpr of a vector dtype, a
    compile-time integer lane within its lanes). On a factory's
    placeholder it stays a placeholder (tlc builds it in the kernel)."""
    from .. import _tir
    if isinstance(vector, Placeholder) and not isinstance(vector, Symbol):
        return Placeholder("T.extract_lane", (vector, lane))
    if not isinstance(vector, _tir.PrimExpr) or \
            isinstance(vector, (_builtins.int, _builtins.float)):
        raise TypeError("T.extract_lane expects a PrimExpr vector, got "
                        f"{type(vector).__name__}")
    vdtype = dtype(str(vector.dtype))
    if vdtype.lanes <= 1:
        raise ValueError("T.extract_lane expects a vector expression, got "
                         f"dtype {vdtype}")
    if not isinstance(lane, _builtins.int) or isinstance(lane, _builtins.bool):
        raise TypeError("T.extract_lane lane must be a compile-time integer, "
                        f"got {type(lane).__name__}")
    if not 0 <= lane < vdtype.lanes:
        raise IndexError(f"T.extract_lane lane {_builtins.int(lane)} is out "
                         f"of bounds for {vdtype} ({vdtype.lanes} lanes)")
    return _tir.Shuffle([vector], [_tir.IntImm("int32", lane)],
                        dtype(vdtype.scalar))


# -- casts with rounding hints and the fast-math intrinsics --------------------

#: The rounding modes ``T.cast(..., round=...)`` accepts ("" is the target's
#: default; "rs" is stochastic rounding with random bits ``rbits``).
_VALID_CAST_ROUNDING_MODES = {"", "rn", "rz", "rp", "rm", "rs"}


def cast(value, dtype, round="", sat=True, rbits=None, span=None):  # noqa: A002
    """``T.cast`` called by Python: the rounding options are checked as
    TileLang checks them (ValueError), then the cast stays a placeholder
    that tlc builds in the kernel."""
    if not isinstance(round, str) or round not in _VALID_CAST_ROUNDING_MODES:
        raise ValueError(f"Invalid round {round!r} for T.cast: one of "
                         f"{sorted(_VALID_CAST_ROUNDING_MODES)}")
    if not isinstance(sat, _builtins.bool):
        raise ValueError(f"Invalid sat {sat!r} for T.cast: a bool (True "
                         "saturates to the finite range)")
    if round == "rs" and rbits is None:
        raise ValueError("rbits is required when round='rs' (stochastic "
                         "rounding takes its random bits from rbits)")
    if round != "rs" and rbits is not None:
        raise ValueError("rbits is only valid with round='rs', got "
                         f"round={round!r}")
    return Placeholder("T.cast", (value, dtype))


_FAST_MATH_DTYPES = ("float16", "bfloat16", "float32", "float64")


def _fast_math(name):
    def intrinsic(x):
        from .. import _tir
        if isinstance(x, _tir.PrimExpr) and \
                not isinstance(x, (_builtins.int, _builtins.float)):
            dt = dtype(str(x.dtype))
            if dt.scalar not in _FAST_MATH_DTYPES:
                raise TypeError(f"T.{name} only supports floating-point "
                                f"inputs ({', '.join(_FAST_MATH_DTYPES)}), "
                                f"got {dt}")
            return _tir.Call(str(x.dtype), "tl." + name, [x])
        return Placeholder("T." + name, (x,))
    intrinsic.__name__ = intrinsic.__qualname__ = name
    intrinsic.__doc__ = (f"``T.{name}(x)`` called by Python on a "
                         "``tvm.tirx`` expression: a call of x's float "
                         "dtype; other dtypes raise TypeError.")
    return intrinsic


def _rounded_op(name, arity):
    def intrinsic(*args):
        from .. import _tir
        if len(args) != arity:
            raise TypeError(f"T.{name} takes {arity} operands, got "
                            f"{len(args)}")
        exprs = [a for a in args if isinstance(a, _tir.PrimExpr) and
                 not isinstance(a, (_builtins.int, _builtins.float))]
        if not exprs:
            return Placeholder("T." + name, args)
        dts = [dtype(str(getattr(a, "dtype", "float32"))) for a in args]
        for dt in dts:
            if dt.scalar not in _FAST_MATH_DTYPES:
                raise TypeError(f"T.{name} only supports floating-point "
                                f"inputs ({', '.join(_FAST_MATH_DTYPES)}), "
                                f"got {dt}")
        if len(set(map(str, dts))) != 1:
            raise ValueError(f"T.{name} requires operands of the same dtype, "
                             f"got {', '.join(map(str, dts))}")
        return _tir.Call(str(dts[0]), "tl." + name, list(args))
    intrinsic.__name__ = intrinsic.__qualname__ = name
    intrinsic.__doc__ = (f"``T.{name}`` called by Python on ``tvm.tirx`` "
                         "expressions: a ``tl." + name + "`` call of their "
                         "float dtype; other dtypes raise TypeError, mixed "
                         "ones ValueError (TileLang's checks). tlc builds "
                         "it in kernels (one rounding, IEEE round to "
                         "nearest).")
    return intrinsic


fma = _rounded_op("fma", 3)
fmul = _rounded_op("fmul", 2)

for _name in ("__exp", "__exp10", "__log", "__log2", "__log10", "__tan",
              "__cos", "__sin"):
    globals()[_name] = _fast_math(_name)


# ``T.Layout`` / ``T.Fragment`` outside kernel bodies: objects that record
# how they were made and evaluate TileLang's layout methods in Python
# (``tilelang/_layout_objects.py``).
from .._layout_objects import Fragment, Layout  # noqa: E402,F401

# ``T.Var``: the class of symbolic sizes outside kernel bodies
# (``isinstance(T.dynamic("m"), T.Var)``; ``T.Var("n", "int32")``), TIR's
# variable class in TileLang.
Var = Symbol


class GemmWarpPolicy:
    """Warp partitioning policies of ``T.gemm``."""
    Square = "Square"
    FullRow = "FullRow"
    FullCol = "FullCol"


# ``tilelang.language.common`` (TileLang's backend-neutral surface) is this
# module: tlc models one tile language.
common = _sys.modules[__name__]
_sys.modules[__name__ + ".common"] = common

# -- everything else -------------------------------------------------------------


_FAST_MATH = {"__cos", "__exp", "__exp10", "__log", "__log10", "__log2",
              "__sin", "__tan", "__ldg"}


def __getattr__(name):
    """Any other ``T.NAME``: a dtype spelling (``T.float16x2``) or a
    placeholder that Python can carry around without evaluating it."""
    # Python's own protocol names (__path__, __wrapped__ ...) are not
    # TileLang's; the fast-math intrinsics (__exp, __cos ...) are.
    if name.startswith("__") and (name.endswith("__") or name not in _FAST_MATH):
        raise AttributeError(name)
    if _is_dtype_name(name):
        return dtype(name)
    return Placeholder(f"T.{name}")
