"""``T.Layout`` / ``T.Fragment`` objects at Python level.

Inside kernels tlc evaluates layouts itself. Outside them (module-level
code, a test of layout algebra, a layout built in Python and passed to a
factory) a layout is this object: it records how it was made (so that the
package can hand the same construction to tlc) and, for a layout over
integer extents whose forward function Python can evaluate on integers,
answers TileLang's Python methods by evaluating that function at every
index of the input domain: ``get_input_shape``, ``get_output_shape`` (one
past the largest value of each output: the bound TileLang's analyzer
gives for such index maps), ``repeat``, ``is_equal`` (the two maps agree
at every index: equal functions, where TileLang compares simplified
expressions), calls on integer indices. A forward function that needs
TileLang expressions Python does not evaluate raises a TypeError from
those methods, naming it; the object itself can still be made and passed.
"""

import itertools
import numbers

# Layouts of more input points than this are not enumerated.
_MAX_POINTS = 1 << 22


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


class Layout:
    """``T.Layout(shape, forward_fn)``: ``forward_fn(*indices)`` is the
    output index (an int) or indices (a list / tuple of them)."""

    _ctor = "Layout"
    _tlc_name = "Layout"  # the class passed to tlc as T.Layout

    def __init__(self, shape, forward_fn=None, *args, **kwargs):
        self._shape = shape
        self._forward_fn = forward_fn
        self._args = args
        self._kwargs = kwargs
        self._recipe = ("new", self._ctor, (shape, forward_fn) + args, kwargs)
        self._table = None

    @classmethod
    def _derived(cls, recipe, shape, table):
        obj = cls.__new__(cls)
        obj._shape, obj._forward_fn, obj._args, obj._kwargs = \
            shape, None, (), {}
        obj._recipe = recipe
        obj._table = table
        return obj

    # -- evaluation -------------------------------------------------------

    def get_input_shape(self):
        shape = self._shape
        if _is_int(shape):
            shape = (shape,)
        try:
            dims = [int(d) if _is_int(d) else None for d in shape]
        except TypeError:
            dims = [None]
        if None in dims:
            raise TypeError(f"{self!r}: the input shape {shape!r} is not "
                            "integers; tlc evaluates this layout inside "
                            "kernels only")
        return dims

    def _outputs(self, index):
        value = self._forward_fn(*index)
        if isinstance(value, (list, tuple)):
            values = tuple(value)
        else:
            values = (value,)
        for v in values:
            if not _is_int(v):
                raise TypeError(
                    f"{self!r}: its forward function gives {v!r} at "
                    f"{index}, not an integer; tlc evaluates this layout "
                    "inside kernels only")
        return tuple(int(v) for v in values)

    def _points(self):
        dims = self.get_input_shape()
        count = 1
        for d in dims:
            count *= d
        if count > _MAX_POINTS:
            raise ValueError(f"{self!r}: {count} input indices are more "
                             "than the package enumerates in Python")
        return itertools.product(*(range(d) for d in dims))

    def _forward_table(self):
        """{input index tuple: output tuple}."""
        if self._table is None:
            if self._forward_fn is None:
                raise TypeError(f"{self!r} has no forward function")
            self._table = {idx: self._outputs(idx) for idx in self._points()}
        return self._table

    def get_output_shape(self):
        table = self._forward_table()
        if not table:
            return []
        width = len(next(iter(table.values())))
        if any(len(v) != width for v in table.values()):
            raise TypeError(f"{self!r}: the forward function gives "
                            "different numbers of outputs")
        return [max(v[k] for v in table.values()) + 1 for k in range(width)]

    def is_equal(self, other):
        """Whether ``other`` maps every index of the same input shape to
        the same output indices."""
        if not isinstance(other, Layout) or \
                type(self) is not type(other) or \
                self.get_input_shape() != other.get_input_shape():
            return False
        return self._forward_table() == other._forward_table()

    def repeat(self, dim, factor):
        """The layout of ``factor`` copies of this one along input
        dimension ``dim``: ``L'(..., i, ...) = [i // extent] + L(..., i %
        extent, ...)`` (TileLang's ``Layout.repeat``)."""
        if not _is_int(dim):
            raise TypeError(f"dim must be an int, got {type(dim)!r}")
        if not _is_int(factor):
            raise TypeError(f"factor must be an int, got {type(factor)!r}")
        if factor < 1:
            raise ValueError(f"factor must be >= 1, got {factor}")
        if factor == 1:
            return self
        shape = self.get_input_shape()
        ndim = len(shape)
        if ndim == 0:
            raise ValueError("Cannot repeat a 0-dim layout")
        d = dim + ndim if dim < 0 else dim
        if d < 0 or d >= ndim:
            raise ValueError(f"dim out of range: dim={dim}, ndim={ndim}")
        base = self._forward_table()
        extent = shape[d]
        new_shape = list(shape)
        new_shape[d] = extent * factor
        table = {}
        for idx in itertools.product(*(range(n) for n in new_shape)):
            inner = idx[:d] + (idx[d] % extent,) + idx[d + 1:]
            table[idx] = (idx[d] // extent,) + base[inner]
        return type(self)._derived(("method", self, "repeat",
                                    (), {"dim": dim, "factor": factor}),
                                   new_shape, table)

    def map_forward_index(self, indices):
        return self(*indices)

    def __call__(self, *indices):
        if all(_is_int(i) for i in indices):
            table = self._forward_table()
            key = tuple(int(i) for i in indices)
            if key not in table:
                raise IndexError(f"{self!r}: index {key} is outside the "
                                 f"input shape {self.get_input_shape()}")
            return list(table[key])
        from .language._objects import Placeholder
        return Placeholder(f"({self!r})", indices)

    def __getattr__(self, name):
        # TileLang's other layout methods: tlc's inside kernels.
        if name.startswith("_"):
            raise AttributeError(name)
        from .language._objects import Placeholder
        return Placeholder(f"({self!r}).{name}")

    def __repr__(self):
        kind = self._recipe[0]
        if kind == "method":
            _, base, method, args, kwargs = self._recipe
            parts = [repr(a) for a in args] + \
                [f"{k}={v!r}" for k, v in kwargs.items()]
            return f"{base!r}.{method}({', '.join(parts)})"
        fn = getattr(self._forward_fn, "__qualname__", self._forward_fn)
        extra = "".join(f", {k}={v!r}" for k, v in self._kwargs.items())
        return f"T.{self._ctor}({self._shape!r}, {fn}{extra})"


class Fragment(Layout):
    """``T.Fragment(shape, forward_fn=..., replicate=1, ...)``: a layout
    over threads. ``forward_fn(*indices[, rep])`` gives ``(thread,
    local index)``; Python evaluates it for every index and copy (``rep``
    from 0 to ``replicate - 1``): ``get_thread_size``, ``get_output_shape``
    (the local index's extents), ``is_equal``."""

    _ctor = "Fragment"
    _tlc_name = "Fragment"

    def __init__(self, shape, forward_fn=None, forward_thread_fn=None,
                 replicate=1, forward_index_fn=None, **kwargs):
        given = {k: v for k, v in (("forward_fn", forward_fn),
                                   ("forward_thread_fn", forward_thread_fn),
                                   ("forward_index_fn", forward_index_fn))
                 if v is not None}
        if replicate != 1:
            given["replicate"] = replicate
        given.update(kwargs)
        super().__init__(shape, None)
        self._kwargs = given
        self._recipe = ("new", "Fragment", (shape,), given)
        self._replicate = replicate
        self._fn = forward_fn

    def _outputs(self, index):
        if self._fn is None:
            raise TypeError(f"{self!r}: Python evaluates a Fragment given "
                            "forward_fn only")
        copies = []
        for rep in range(int(self._replicate)):
            args = index + ((rep,) if self._replicate != 1 else ())
            value = self._fn(*args)
            values = tuple(value) if isinstance(value, (list, tuple)) \
                else (value,)
            if not all(_is_int(v) for v in values):
                raise TypeError(
                    f"{self!r}: its forward function gives {value!r} at "
                    f"{args}, not integers; tlc evaluates it inside "
                    "kernels only")
            copies.extend(int(v) for v in values)
        return tuple(copies)

    def _forward_table(self):
        if self._table is None:
            self._table = {idx: self._outputs(idx) for idx in self._points()}
        return self._table

    @classmethod
    def _derived(cls, recipe, shape, table, replicate=1):
        obj = super()._derived(recipe, shape, table)
        obj._replicate = replicate
        obj._fn = None
        return obj

    def repeat(self, repeats, repeat_on_thread=False, lower_dim_first=True):
        """TileLang's ``Fragment.repeat``: input dimension ``d`` of the
        result is ``repeats[d]`` copies of dimension ``d`` (one count per
        dimension; an int for a 1-D fragment). Index ``i`` is copy ``i //
        extent`` of ``i % extent``; the copies' mixed-radix number ``c``
        (the last dimension's copy varying fastest when
        ``lower_dim_first``, else the first's) moves the element to thread
        ``thread + get_thread_size() * c`` (``repeat_on_thread``) or to
        local index ``index + get_output_shape()[0] * c`` (a fragment of
        one local index), the rest of the map unchanged; every replica
        alike."""
        shape = self.get_input_shape()
        counts = list(repeats) if isinstance(repeats, (list, tuple)) \
            else [repeats]
        if len(counts) != len(shape):
            raise ValueError(
                "Fragment.repeat needs one repeat count per dimension: the "
                f"fragment has {len(shape)}, got {len(counts)}")
        for n in counts:
            if not _is_int(n) or n < 1:
                raise ValueError("Fragment.repeat counts must be positive "
                                 f"integers, got {n!r}")
        counts = [int(n) for n in counts]
        copies = self._copies()
        if not repeat_on_thread and \
                any(len(c) != 2 for cs in copies.values() for c in cs):
            raise ValueError("Fragment.repeat on registers needs a fragment "
                             "with one register index")
        total = 1
        for d, n in zip(shape, counts):
            total *= d * n
        if total > _MAX_POINTS:
            raise ValueError(f"{self!r}.repeat: {total} input indices are "
                             "more than the package enumerates in Python")
        step = self.get_thread_size() if repeat_on_thread else \
            self.get_output_shape()[0]
        slot = 0 if repeat_on_thread else 1
        order = range(len(shape) - 1, -1, -1) if lower_dim_first \
            else range(len(shape))
        table = {}
        for idx in itertools.product(*(range(d * n)
                                       for d, n in zip(shape, counts))):
            inner = tuple(i % d for i, d in zip(idx, shape))
            number, stride = 0, 1
            for k in order:
                number += stride * (idx[k] // shape[k])
                stride *= counts[k]
            out = []
            for c in copies[inner]:
                c = list(c)
                c[slot] += step * number
                out.extend(c)
            table[idx] = tuple(out)
        recipe = ("method", self, "repeat", (counts,),
                  {"repeat_on_thread": bool(repeat_on_thread),
                   "lower_dim_first": bool(lower_dim_first)})
        return type(self)._derived(
            recipe, [d * n for d, n in zip(shape, counts)], table,
            int(getattr(self, "_replicate", 1)))

    def _copies(self):
        """Per input index, its (thread, local...) tuple of every copy."""
        reps = int(getattr(self, "_replicate", 1))
        table = self._forward_table()
        return {idx: [v[k * len(v) // reps:(k + 1) * len(v) // reps]
                      for k in range(reps)] for idx, v in table.items()}

    def get_output_shape(self):
        """The extents of the local index (what TileLang's fragment maps an
        index to besides its thread): one past the largest of each."""
        copies = [c for cs in self._copies().values() for c in cs]
        if not copies:
            return []
        return [max(c[k] for c in copies) + 1
                for k in range(1, len(copies[0]))]

    def get_thread_size(self):
        """One past the largest thread any copy of any index is on."""
        return max((c[0] for cs in self._copies().values() for c in cs),
                   default=-1) + 1

    def __repr__(self):
        if self._recipe[0] == "method":
            return super().__repr__()
        parts = [repr(self._shape)]
        for k, v in self._kwargs.items():
            parts.append(f"{k}={getattr(v, '__qualname__', v)!s}"
                         if callable(v) else f"{k}={v!r}")
        return f"T.Fragment({', '.join(parts)})"
