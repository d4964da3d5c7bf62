"""TileLang data types as Python objects.

``T.float16``, ``T.dtype("bfloat16")`` and friends are :class:`dtype`
objects: strings (so ``dtype == "float16"`` and dictionary look-ups work)
that also know their bit width, lane count and torch counterpart. They are
what module-level code and default arguments see; inside kernel bodies tlc
evaluates the same names itself.
"""

import re

_SCALARS = {
    # name: (bits, kind)  kind: f=float, i=signed, u=unsigned, b=bool, h=handle
    "bool": (8, "b"),
    "int4": (4, "i"), "int8": (8, "i"), "int16": (16, "i"),
    "int32": (32, "i"), "int64": (64, "i"),
    "uint4": (4, "u"), "uint8": (8, "u"), "uint16": (16, "u"),
    "uint32": (32, "u"), "uint64": (64, "u"),
    "float16": (16, "f"), "bfloat16": (16, "f"), "float32": (32, "f"),
    "float64": (64, "f"), "tfloat32": (32, "f"),
    "float8_e4m3": (8, "f"), "float8_e4m3fn": (8, "f"),
    "float8_e4m3fnuz": (8, "f"), "float8_e5m2": (8, "f"),
    "float8_e5m2fnuz": (8, "f"), "float8_e8m0fnu": (8, "f"),
    "float4_e2m1fn": (4, "f"), "float6_e2m3fn": (6, "f"),
    "float6_e3m2fn": (6, "f"),
    "handle": (64, "h"),
    # Storage tags of shared memory (TileLang's custom TVM types): a 4- or
    # 6-bit float code in the low bits of a byte (CUTLASS's unpacksmem
    # types for the f8f6f4 MMA forms), no register arithmetic.
    "float4_e2m1_unpacked": (8, "c"), "float6_e2m3fn_unpacked": (8, "c"),
    "float6_e3m2fn_unpacked": (8, "c"),
}

# TVM's custom type codes TileLang registers for the storage tags; such a
# dtype prints as ``custom[NAME]8`` (``str(T.float6_e2m3fn_unpacked)``).
_CUSTOM_CODES = {"float4_e2m1_unpacked": 131, "float6_e2m3fn_unpacked": 132,
                 "float6_e3m2fn_unpacked": 133}
_CUSTOM = re.compile(r"^custom\[(\w+)\]8(?:x(\d+))?$")

_ALIASES = {
    "half": "float16", "float": "float32", "double": "float64",
    "int": "int32", "long": "int64", "short": "int16",
    "bf16": "bfloat16", "fp16": "float16", "fp32": "float32",
    "e4m3_float8": "float8_e4m3", "e5m2_float8": "float8_e5m2",
    "ptr": "handle",
    # torch's storage of fp4: a pair a byte, the element type TileLang's.
    "float4_e2m1fn_x2": "float4_e2m1fn",
}

_VECTOR = re.compile(r"^([a-z0-9_]+?)x(\d+)$")


def _split(name):
    """(scalar name, lanes) of a dtype spelling, or None."""
    m = _CUSTOM.match(name)
    if m and m.group(1) in _CUSTOM_CODES:
        return m.group(1), int(m.group(2) or 1)
    name = _ALIASES.get(name, name)
    if name in _SCALARS:
        return name, 1
    m = _VECTOR.match(name)
    if m and _ALIASES.get(m.group(1), m.group(1)) in _SCALARS:
        return _ALIASES.get(m.group(1), m.group(1)), int(m.group(2))
    return None


def _torch_name(obj):
    text = str(obj)
    return text[len("torch."):] if text.startswith("torch.") else None


class dtype(str):
    """A TileLang dtype: a ``str`` subclass with ``bits``, ``lanes``,
    ``itemsize`` and ``as_torch()``. ``dtype(x)`` accepts a dtype name
    (``"float16"``, ``"half"``), another dtype or a torch dtype."""

    def __new__(cls, value="float32"):
        if isinstance(value, dtype):
            return value
        name = _torch_name(value) if not isinstance(value, str) else value
        if name is None and hasattr(value, "dtype"):
            name = str(value.dtype)
        if name is None:
            raise TypeError(f"cannot make a TileLang dtype from {value!r}")
        parts = _split(name)
        if parts is None:
            raise ValueError(f"unknown TileLang dtype '{name}'")
        scalar, lanes = parts
        if scalar in _CUSTOM_CODES:
            scalar = f"custom[{scalar}]8"
        text = scalar if lanes == 1 else f"{scalar}x{lanes}"
        return super().__new__(cls, text)

    def __eq__(self, other):
        """Equal to the same dtype by any spelling: its name, an alias
        (``T.int == "int32"``) or its torch dtype (``T.bool == torch.bool``),
        as TileLang's dtypes compare."""
        if isinstance(other, str) or _torch_name(other) is not None:
            try:
                other = dtype(other)
            except (TypeError, ValueError):
                return False
            return str.__eq__(self, other)
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = str.__hash__

    @property
    def tlc_name(self):
        """The name tlc spells ``T.NAME`` (``float6_e2m3fn_unpacked`` for
        ``custom[float6_e2m3fn_unpacked]8``; others: ``str(self)``)."""
        scalar, lanes = _split(str(self))
        return scalar if lanes == 1 else f"{scalar}x{lanes}"

    @property
    def scalar(self):
        """The element type of a vector type (``float16`` for float16x2)."""
        return dtype(_split(str(self))[0])

    @property
    def bits(self):
        scalar, lanes = _split(str(self))
        return _SCALARS[scalar][0] * lanes

    @property
    def lanes(self):
        return _split(str(self))[1]

    @property
    def itemsize(self):
        return max(1, self.bits // 8)

    @property
    def type_code(self):
        """The kind of the element type: "f", "i", "u", "b" or "h"; for
        TileLang's custom storage tags, TVM's custom type code (an int:
        131 float4_e2m1_unpacked, 132 / 133 the fp6 ones)."""
        scalar = _split(str(self))[0]
        if scalar in _CUSTOM_CODES:
            return _CUSTOM_CODES[scalar]
        return _SCALARS[scalar][1]

    def _is(self, *names):
        return _split(str(self))[0] in names

    def is_float4_e2m1_unpacked(self):
        return self._is("float4_e2m1_unpacked")

    def is_float6_e2m3fn_unpacked(self):
        return self._is("float6_e2m3fn_unpacked")

    def is_float6_e3m2fn_unpacked(self):
        return self._is("float6_e3m2fn_unpacked")

    def is_float6_unpacked(self):
        return self._is("float6_e2m3fn_unpacked", "float6_e3m2fn_unpacked")

    def is_float4(self):
        """fp4, packed or in its byte (TVM's ``is_float4``)."""
        return self._is("float4_e2m1fn", "float4_e2m1_unpacked")

    def is_float6(self):
        """fp6, packed or in its byte."""
        return self._is("float6_e2m3fn", "float6_e3m2fn",
                        "float6_e2m3fn_unpacked", "float6_e3m2fn_unpacked")

    def is_float8(self):
        return _split(str(self))[0].startswith("float8_")

    def is_float(self):
        return self.type_code == "f"

    def is_int(self):
        return self.type_code in ("i", "u")

    def as_torch(self):
        """The torch dtype of this dtype's storage."""
        import torch
        scalar = str(self.scalar)
        # float4_e2m1fn is stored as pairs (float4_e2m1fn_x2).
        # int4/uint4: pairs in int8/uint8 bytes, as TileLang's T.empty.
        name = {"float8_e4m3": "float8_e4m3fn", "handle": "int64",
                "tfloat32": "float32",
                "float4_e2m1fn": "float4_e2m1fn_x2",
                "int4": "int8", "uint4": "uint8"}.get(scalar, scalar)
        result = getattr(torch, name, None)
        if result is None and scalar == "float4_e2m1fn":
            result = torch.uint8  # the bytes, in a torch without fp4 pairs
        if result is None:
            raise TypeError(f"torch {torch.__version__} has no dtype for "
                            f"TileLang's '{scalar}'")
        return result


    def torch(self):
        """Older spelling of :meth:`as_torch` (TileLang's jit2 tests)."""
        return self.as_torch()
    def __call__(self, *args, **kwargs):
        """``T.float32(1.0)`` at Python level: the value itself (a number
        outside kernels); no arguments: a fresh scalar variable."""
        if len(args) == 1 and not kwargs:
            value = args[0]
            if isinstance(value, (int, float, bool)):
                if self.type_code == "f":
                    return float(value)
                if self.type_code == "b":
                    return bool(value)
                return int(value)
            return value
        if not args and not kwargs:
            # TileLang's ``T.int32()``: a fresh scalar variable, which
            # Python code may combine (``T.uint32() & 0xffffffff``).
            from .language._objects import Placeholder
            return Placeholder(f"T.{self.tlc_name}()")
        return self

    def __repr__(self):
        return f"T.{self.tlc_name}"

    def __reduce__(self):
        return (dtype, (str(self),))


def is_dtype_name(name):
    """True when ``name`` spells a TileLang dtype attribute (``T.NAME``)."""
    return _split(name) is not None


def from_manifest(name):
    """The dtype of a manifest's ``dtype`` field."""
    return dtype(name)
