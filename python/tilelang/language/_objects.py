"""The Python objects behind ``T.*`` names outside kernel bodies."""

import ast
import collections.abc
import copy
import inspect
import os


class Placeholder:
    """A TileLang value Python does not evaluate (``T.Kernel``,
    ``T.alloc_shared(...)``, an expression over symbols). It can be called,
    indexed, used in arithmetic and passed around; tlc gives it meaning when
    it compiles the source."""

    def __init__(self, text, args=()):
        self._text = text
        self._args = tuple(args)

    def __repr__(self):
        if not self._args:
            return self._text
        return f"{self._text}({', '.join(map(repr, self._args))})"

    def __call__(self, *args, **kwargs):
        return Placeholder(self._text, args)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Placeholder(f"{self._text}.{name}")

    def __getitem__(self, item):
        return Placeholder(f"{self!r}[{item!r}]")

    def __iter__(self):
        # Without this, Python would iterate through __getitem__(0), (1),
        # ... which never raises IndexError: a loop, `list(...)`, `in` or
        # unpacking outside a kernel body would run forever.
        raise TypeError(f"'{self!r}' is a TileLang value that Python "
                        "cannot iterate outside a kernel body")

    def _binary(op):
        def fn(self, other):
            return Placeholder(f"({self!r} {op} {other!r})")

        def rfn(self, other):
            return Placeholder(f"({other!r} {op} {self!r})")
        return fn, rfn

    __add__, __radd__ = _binary("+")
    __sub__, __rsub__ = _binary("-")
    __mul__, __rmul__ = _binary("*")
    __truediv__, __rtruediv__ = _binary("/")
    __floordiv__, __rfloordiv__ = _binary("//")
    __mod__, __rmod__ = _binary("%")
    __pow__, __rpow__ = _binary("**")
    __and__, __rand__ = _binary("&")
    __or__, __ror__ = _binary("|")
    __xor__, __rxor__ = _binary("^")
    __lshift__, __rlshift__ = _binary("<<")
    __rshift__, __rrshift__ = _binary(">>")
    del _binary

    def __neg__(self):
        return Placeholder(f"(-{self!r})")

    def __hash__(self):
        return hash(repr(self))


class SymbolExpr(Placeholder):
    """Integer arithmetic over symbols and Python integers outside a
    kernel body (``3 * n``, ``m + 1``): what ``tvm.tirx.PrimExpr`` is
    for such values. Its text is its (fully parenthesised) expression."""


def _symbolic_arithmetic(cls):
    """Arithmetic of ``cls`` with integers and symbolic integers gives a
    :class:`SymbolExpr`; anything else a :class:`Placeholder`."""
    def binary(op):
        def fn(self, other):
            kind = SymbolExpr if _is_symbolic_int(other) else Placeholder
            return kind(f"({self!r} {op} {other!r})")

        def rfn(self, other):
            kind = SymbolExpr if _is_symbolic_int(other) else Placeholder
            return kind(f"({other!r} {op} {self!r})")
        return fn, rfn
    for name, op in (("add", "+"), ("sub", "-"), ("mul", "*"),
                     ("floordiv", "//"), ("mod", "%")):
        fn, rfn = binary(op)
        setattr(cls, f"__{name}__", fn)
        setattr(cls, f"__r{name}__", rfn)
    cls.__neg__ = lambda self: SymbolExpr(f"(-{self!r})")
    return cls


def _is_symbolic_int(value):
    return (isinstance(value, int) and not isinstance(value, bool)) or \
        isinstance(value, (Symbol, SymbolExpr))


_symbolic_arithmetic(SymbolExpr)


@_symbolic_arithmetic
class Symbol(Placeholder):
    """``T.dynamic("m")`` / ``T.const("M")`` outside a kernel body: a named
    size. Passed to a lazy factory it stays symbolic in the compiled kernel
    and is bound from the arguments' shapes at call time."""

    def __init__(self, name, dtype="int32", kind="dynamic"):
        super().__init__(name)
        self.name = name
        self.dtype = dtype
        self.kind = kind

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Symbol) and other.name == self.name

    def __hash__(self):
        return hash(("Symbol", self.name))

    def same_as(self, other):
        """``tvm.tirx.Var.same_as``: the same variable (this object, or a
        symbol of the same name and dtype)."""
        return other is self or (isinstance(other, Symbol) and
                                 other.name == self.name and
                                 str(other.dtype) == str(self.dtype))


class TensorType:
    """``T.Tensor(shape, dtype)`` as a Python object: an annotation, or a
    placeholder argument for ``par_compile``."""

    scope = "global"

    def __init__(self, shape, dtype="float32", data=None, scope=None,
                 **kwargs):
        from .._dtype import dtype as _dtype
        if isinstance(shape, (list, tuple)):
            self.shape = tuple(shape)
        else:
            self.shape = (shape,)
        try:
            self.dtype = _dtype(dtype)
        except (TypeError, ValueError):
            self.dtype = dtype
        if scope is not None:
            self.scope = scope

    def __repr__(self):
        return f"{type(self).__name__}({self.shape!r}, {self.dtype!r})"

    # -- jit2's annotation protocol (tilelang.language.v2.annot) ---------

    def promote(self):
        """The annotation as a fixed tensor type when every extent is a
        concrete integer (``T.Tensor[[1024, 1024], Any]``), so the argument
        needs no matching per call; None when an extent is ``int``
        (specialised on each call), ``T.dyn`` or a symbol."""
        if all(_concrete_extent(d) for d in self.shape):
            fixed = copy.copy(self)
            fixed.shape = tuple(int(d) for d in self.shape)
            return fixed
        return None

    def create_prim_func_arg(self, name, value, vt):
        """Matches argument ``value`` (a torch tensor or a ``T.Tensor``)
        against the annotation and returns the tensor type of the kernel
        parameter ``name``: its rank and every concrete extent must agree,
        an annotated dtype must equal the argument's, and a symbol standing
        for several extents gets the same size everywhere (``vt``, an
        :class:`~tilelang.language.v2.annot.ArgVarTable`, remembers it).
        A mismatch raises ``TypeError`` (kind or dtype) or ``ValueError``
        (shape)."""
        from .._dtype import dtype as _dtype
        if isinstance(value, TensorType):
            shape, got = tuple(value.shape), value.dtype
        elif hasattr(value, "shape") and hasattr(value, "dtype") and \
                hasattr(value, "stride"):
            shape, got = tuple(int(d) for d in value.shape), value.dtype
            try:
                got = _dtype(got)
            except (TypeError, ValueError):
                pass
        else:
            raise TypeError(f"argument '{name}' of annotation {self!r} must "
                            "be a tensor, not "
                            f"'{type(value).__name__}'")
        if len(shape) != len(self.shape):
            raise ValueError(f"argument '{name}': expected a {len(self.shape)}"
                             f"-D tensor for {self!r}, got shape "
                             f"{list(shape)}")
        for axis, (want, size) in enumerate(zip(self.shape, shape)):
            if _concrete_extent(want):
                if _concrete_extent(size) and int(size) != int(want):
                    raise ValueError(f"argument '{name}': extent {axis} is "
                                     f"{size}, the annotation fixes {want}")
            elif isinstance(want, Symbol) and _concrete_extent(size):
                vt.bind(want.name, int(size), name, axis)
        if self.dtype is not None and _is_dtype_annotation(self.dtype):
            try:
                same = _dtype(got) == _dtype(self.dtype)
            except (TypeError, ValueError):
                same = False
            if not same:
                raise TypeError(f"argument '{name}': dtype {got} does not "
                                f"match the annotation's {self.dtype}")
            got = self.dtype
        param = copy.copy(self)
        param.shape = shape
        param.dtype = got
        _record_arg(name, param)
        return param


def _concrete_extent(d):
    """An extent that is a number (not ``int``, ``T.dyn`` or a symbol)."""
    return isinstance(d, int) and not isinstance(d, bool)


def _is_dtype_annotation(d):
    """A dtype in an annotation; ``typing.Any`` (or a type variable)
    accepts every dtype."""
    from .._dtype import dtype as _dtype
    try:
        _dtype(d)
    except (TypeError, ValueError):
        return False
    return True


def _record_arg(name, arg):
    """Adds a matched parameter to the prim_func a
    ``tilelang.language.v2.builder.Builder`` is assembling, if any."""
    from .v2.builder import Builder
    builder = Builder.current()
    if builder is not None:
        builder.args.append((name, arg))


class DynType:
    """``T.dyn``: an extent or scalar argument that stays a run-time value
    of the kernel instead of being specialised on the argument.
    ``T.dyn[int]`` / ``T.dyn[T.int64]`` names its integer dtype."""

    def __init__(self, dtype="int32"):
        self.dtype = dtype

    def __getitem__(self, item):
        from .._dtype import dtype as _dtype
        return DynType("int32" if item is int else str(_dtype(item)))

    def __repr__(self):
        return "T.dyn" if self.dtype == "int32" else f"T.dyn[{self.dtype}]"

    def promote(self):
        """A run-time value is never fixed by its annotation."""
        return None

    def create_prim_func_arg(self, name, value, vt):
        """An integer argument becomes the kernel's scalar parameter
        ``name`` (a symbol of the annotated dtype, one per name in
        ``vt``)."""
        if not _is_symbolic_int(value):
            raise TypeError(f"argument '{name}' annotated {self!r} must be "
                            f"an integer, not '{type(value).__name__}'")
        var = vt.get_or_create_var(name, self.dtype)
        _record_arg(name, var)
        return var


class PrimFunc:
    """What ``@T.prim_func`` returns in Python: the function, the file it
    is in and, for a prim_func built by a plain factory, the factory's name
    and arguments. ``tilelang.compile`` turns it into a kernel."""

    def __init__(self, fn, source_file, factory=None, factory_args=None,
                 factory_code=None, factory_nested=False,
                 factory_closure=None):
        self.fn = fn
        # The factory's code object, whether it is defined inside another
        # function, and then the values of its free variables.
        self.factory_code = factory_code
        self.factory_nested = factory_nested
        self.factory_closure = dict(factory_closure or {})
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.source_file = source_file
        self.factory = factory
        self.factory_args = dict(factory_args or {})
        self._attrs = {}
        self._found_attrs = None
        # Free variables of `fn` whose iterators were read into tuples.
        self.materialized = {}
        # For a module-level prim_func, the module's globals when it was
        # defined (a shallow copy).
        self.definition_globals = None

    @property
    def kernel_name(self):
        """The name tlc-build's ``--kernel`` selects this instance by."""
        return self.factory or self.fn.__name__

    def script(self, *args, **kwargs):
        """The prim_func as TVMScript-shaped text: its parameters as
        ``T.Buffer``s and the statements of :attr:`body` (``B[0] = 100``,
        ``for i in T.serial(8):``, ``if ...:``), printed from the
        TIR-shaped view of tlc's Tile IR (``tilelang/_tir_script.py`` says
        what it prints). :meth:`tile_ir` gives the Tile IR itself."""
        from .._tir_script import func_script
        return func_script(self, self.body)

    def tile_ir(self, target="cpu"):
        """The Tile IR tlc builds for this prim_func (``tlc-build
        --emit=tile``, MLIR's text form). A prim_func made by a factory,
        or defined inside a function, is built from the same file and
        bindings as ``tilelang.compile`` uses."""
        from .._build import emit_tile
        from .._jit import prim_func_build_inputs
        build_file, kernel, defines = prim_func_build_inputs(self)
        return emit_tile(build_file, kernel, defines, target, texts=True)

    @property
    def body(self):
        """The statements of the kernel as a TIR-shaped tree (``tvm.tirx``
        node classes) built from tlc's Tile IR; ``tilelang/_tir.py`` says
        what it models."""
        from .._tir import body_of
        return body_of(self)

    @property
    def params(self):
        """The parameters as ``tvm.tirx.Var``s (``handle`` for a tensor)."""
        return list(self._params_and_buffers()[0])

    @property
    def buffer_map(self):
        """Each tensor parameter's ``Var`` -> its ``Buffer`` (name, shape,
        dtype, strides) from the signature's annotations: ``T.Tensor`` and
        ``T.StridedTensor`` have strides (``T.Tensor``'s dense row-major),
        ``T.Buffer`` none, as TileLang declares them. Annotations inside
        the body (eager style) are not seen here."""
        params, buffers = self._params_and_buffers()
        return {p: b for p, b in zip(params, buffers) if b is not None}

    def _params_and_buffers(self):
        # Built once, so that `func.buffer_map[func.params[0]]` finds the
        # same Var.
        if getattr(self, "_signature_nodes", None) is None:
            self._signature_nodes = self._build_params_and_buffers()
        return self._signature_nodes

    def _build_params_and_buffers(self):
        from .. import _tir
        from ..utils.language import construct_strides
        params, buffers = [], []
        annotations = getattr(self.fn, "__annotations__", {})
        for name in inspect.signature(self.fn).parameters:
            ann = annotations.get(name)
            if not isinstance(ann, TensorType):
                params.append(_tir.Var(name, str(getattr(ann, "dtype", ann)
                                                 or "int32")))
                buffers.append(None)
                continue
            strides = getattr(ann, "strides", None)
            if strides is None and type(ann).__name__ != "Buffer":
                strides = construct_strides(ann.shape)
            params.append(_tir.Var(name, "handle"))
            buffers.append(_tir.Buffer(name, ann.shape, str(ann.dtype),
                                       ann.scope, strides or ()))
        return params, buffers

    @property
    def attrs(self):
        """The function's attributes, as TileLang sets them when it defines
        the prim_func: ``global_symbol`` (the function's name),
        ``tilelang_out_idx`` (the outputs a body returns from
        ``T.empty``, counted from the end of the parameters),
        ``tilelang_pass_configs`` / ``tilelang_compile_flags`` (the values
        of ``T.annotate_pass_configs`` / ``T.annotate_compile_flags`` in
        the body); then those given with :meth:`with_attr`."""
        attrs = dict(self._source_attrs())
        attrs.update(self._attrs)
        return attrs

    def _source_attrs(self):
        from .._attrs import source_attrs
        if self._found_attrs is None:
            self._found_attrs = source_attrs(self.fn)
        return self._found_attrs

    def with_attr(self, key, value=None):
        """A copy of this prim_func with attribute ``key`` set to ``value``
        (or a dict of attributes), as TVM's ``PrimFunc.with_attr``. The
        package records them for the script; tlc builds the kernel from
        its source, so attributes such as ``global_symbol`` do not change
        the built kernel."""
        other = copy.copy(self)
        other._attrs = dict(self._attrs)
        if isinstance(key, dict) and value is None:
            other._attrs.update(key)
        else:
            other._attrs[str(key)] = value
        return other

    def __repr__(self):
        where = f" from {self.factory}({self.factory_args})" \
            if self.factory else ""
        return f"<T.prim_func {self.fn.__name__}{where}>"

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"prim_func '{self.fn.__name__}' cannot be called from Python; "
            "compile it first: kernel = tilelang.compile(func, out_idx=...)")


def prim_func_from_frame(fn, frame):
    """A :class:`PrimFunc` for ``fn`` decorated in ``frame``."""
    source = inspect.getsourcefile(fn) or inspect.getfile(fn)
    source = os.path.abspath(source)
    func = _prim_func_at(fn, source, frame)
    from .._jit import check_at_definition
    check_at_definition(func)
    return func


def _materialized(values, seen, readable):
    """``values`` with each one-shot iterator (a ``zip``, ``enumerate``,
    ``map`` or generator object) of a name in ``readable`` replaced by what
    it yields, which tlc takes as an iterator over them (an
    ``IteratorValues``: loops resume it). tlc evaluates the body from the
    source with these values, as TileLang traces it once; an iterator is
    read once (``seen`` keeps what each gave, so that the arguments and the
    closure agree). Iterators the body does not use are left alone."""
    from .._build import IteratorValues
    result = {}
    for name, value in values.items():
        if isinstance(value, collections.abc.Iterator) and name in readable:
            if id(value) not in seen:
                seen[id(value)] = (value, IteratorValues(value))
            value = seen[id(value)][1]
        result[name] = value
    return result


def _iterators_read_once(fn, candidates):
    """The names of ``candidates`` (free variables of ``fn`` holding
    iterators) that ``fn``'s body reads as the iterable of loops or
    comprehensions (a second loop resumes it, in Python and in tlc): those
    an ``IteratorValues`` stands for. A TypeError for one read otherwise
    (passed to a function, stored: the package cannot tell how much of it
    that reads)."""
    if not candidates:
        return set()
    from .._attrs import _function_node
    try:
        node = _function_node(fn)
    except (OSError, TypeError, SyntaxError):
        return set()
    reads = {n: [] for n in candidates}
    iterables = set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.For, ast.comprehension)) and \
                isinstance(sub.iter, ast.Name):
            iterables.add(id(sub.iter))
        if isinstance(sub, ast.Name) and sub.id in reads and \
                isinstance(sub.ctx, ast.Load):
            reads[sub.id].append(sub)
    once = set()
    for name, uses in reads.items():
        if uses and all(id(u) in iterables for u in uses):
            once.add(name)
        elif uses:
            raise TypeError(
                f"prim_func '{fn.__name__}' reads the iterator '{name}' "
                "other than as a loop's iterable; tlc evaluates the body "
                "from its source and takes an iterator as what it yields, "
                "read in loops: pass a list or tuple")
    return once


def _prim_func_at(fn, source, frame):
    code = frame.f_code if frame is not None else None
    if code is None or code.co_name == "<module>":
        func = PrimFunc(fn, source)
        # The module's globals as the definition sees them (TileLang traces
        # the body here): a prim_func tlc's run of the module does not
        # define (under `if __name__ == "__main__":`) is built from them.
        func.definition_globals = dict(getattr(fn, "__globals__", {}))
        return func
    from .._nested import is_nested_code
    nargs = code.co_argcount + code.co_kwonlyargcount
    names = code.co_varnames[:nargs]
    seen = {}
    cells = _cell_values(fn)
    readable = _iterators_read_once(fn, [
        n for n, v in cells.items()
        if isinstance(v, collections.abc.Iterator)])
    args = _materialized({n: frame.f_locals[n] for n in names
                          if n in frame.f_locals}, seen, readable)
    nested = is_nested_code(code, frame.f_globals)
    closure = _materialized({n: frame.f_locals[n] for n in code.co_freevars
                             if n in frame.f_locals}, seen, readable) \
        if nested else {}
    func = PrimFunc(fn, source, code.co_name, args, code, nested, closure)
    # The prim_func's own free variables that held iterators: what its
    # closure cells hold is now exhausted.
    func.materialized = {n: v for n, v in _materialized(
        cells, seen, readable).items() if n in readable}
    return func


def _cell_values(fn):
    values = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            values[name] = cell.cell_contents
        except ValueError:
            pass
    return values
