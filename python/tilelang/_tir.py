"""A TIR-shaped view of a prim_func's statements, for scripts that inspect
``func.body`` with ``tvm.tirx`` (``tvm.tir``) node classes and
``stmt_functor.post_order_visit``.

tlc has no TVM IR. This view is built from the Tile IR that tlc builds for
the prim_func (``tlc-build --emit=tile``, the instance ``tilelang.compile``
would build) and models exactly this:

* statements: ``BufferStore`` (a ``tile.store``; a ``T.alloc_var(...,
  init=v)`` is its allocation plus a store of ``v``, as TileLang lowers
  it), ``For`` (``T.serial`` / ``T.unroll`` / ``T.Pipelined``, one loop per
  variable of a ``T.Parallel``; ``min``, ``extent`` and ``step`` are
  ``IntImm`` where constant), ``IfThenElse``, ``While``, ``SeqStmt``,
  ``AttrStmt("thread_extent")`` for a ``T.Kernel`` (its grid sizes and
  thread counts in ``value``), ``Evaluate`` of a ``Call`` for every other
  tile operation (``tl.copy``, ``tl.gemm``, ``tl.loop_break`` ...);
* expressions: ``IntImm`` / ``FloatImm`` for constants (after tlc's
  constant folding: ``B[0] = table[144]`` stores an ``IntImm``),
  ``BufferLoad``, loop ``Var``s, ``Min`` / ``Max`` (an ``arith.min*`` /
  ``arith.max*``, the dtype its operation says: ``minui`` on ``i16`` is
  ``uint16``) and opaque ``Call``s named after the Tile IR operation for
  everything else;
* buffers: ``Buffer`` with ``name`` (the Tile IR value's name: a
  parameter's own name, ``var`` / ``shared`` / ``frag`` for allocations),
  ``shape``, ``dtype`` and ``scope()``.

``stmt_functor.post_order_visit`` visits statements and the expressions in
them, children first, as TVM's does.
``node.script()`` / ``PrimFunc.script()`` print the view in TVMScript's
statement forms (``tilelang/_tir_script.py``). Not modelled: structural
equality of statements, expression trees beyond the above, and any
transformation of them.
"""

import abc
import re

from .language._objects import Placeholder, Symbol, SymbolExpr


class Node:
    _fields = ()

    def script(self):
        """TVMScript-shaped text of this node
        (``tilelang/_tir_script.py``)."""
        from ._tir_script import node_script
        return node_script(self)

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"


class Stmt(Node):
    pass


class PrimExpr(Node, metaclass=abc.ABCMeta):
    """An expression. Outside kernel bodies, symbolic sizes
    (``tvm.tirx.Var`` / ``T.dynamic``) and integer arithmetic over them
    are PrimExprs too."""
    dtype = "int32"


PrimExpr.register(Symbol)
PrimExpr.register(SymbolExpr)


class IntImm(int):
    """A constant integer (a Python ``int`` too, with ``dtype`` and
    ``value``)."""

    def __new__(cls, dtype, value, *args, **kwargs):
        obj = super().__new__(cls, int(value))
        obj.dtype = str(dtype)
        return obj

    @property
    def value(self):
        return int(self)

    def __repr__(self):
        return f"IntImm({self.dtype}, {int(self)})"


class FloatImm(float):
    """A constant float (a Python ``float`` too)."""

    def __new__(cls, dtype, value, *args, **kwargs):
        obj = super().__new__(cls, float(value))
        obj.dtype = str(dtype)
        return obj

    @property
    def value(self):
        return float(self)


class Var(PrimExpr):
    _fields = ("name",)

    def __init__(self, name, dtype="int32"):
        self.name = str(name)
        self.dtype = str(dtype)

    def same_as(self, other):
        """The same variable. Within one prim_func a name is one variable,
        and the view's statements and ``buffer_map`` are built separately,
        so a Var and a symbol (``T.dynamic``) of the same name are the
        same."""
        if other is self:
            return True
        return isinstance(other, (Var, Symbol)) and \
            other.name == self.name and str(other.dtype) == self.dtype


class Call(PrimExpr):
    _fields = ("op", "args")

    def __init__(self, dtype, op, args):
        self.dtype = dtype
        self.op = Op(op)
        self.args = list(args)


class Shuffle(PrimExpr):
    """``tvm.tirx.Shuffle``: lanes ``indices`` of the concatenated
    ``vectors`` (``T.extract_lane`` builds one of one lane)."""
    _fields = ("vectors", "indices")

    def __init__(self, vectors, indices, dtype=None):
        self.vectors = list(vectors)
        self.indices = [_extent(i) for i in indices]
        self.dtype = str(dtype) if dtype is not None else \
            str(self.vectors[0].dtype)


class Op:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Op({self.name})"


class _MinMax(PrimExpr):
    _fields = ("a", "b")

    def __init__(self, a, b, dtype="int32"):
        self.a = a
        self.b = b
        self.dtype = str(dtype)


class Min(_MinMax):
    """``tvm.tirx.Min``: the smaller of ``a`` and ``b`` (a Tile IR
    ``arith.min*``; its dtype is the operation's: ``arith.minui`` on
    ``i16`` is ``uint16``)."""


class Max(_MinMax):
    """``tvm.tirx.Max`` (an ``arith.max*``)."""


class Buffer(Node):
    """A buffer: ``shape`` (``IntImm`` where constant) and ``strides``
    (empty for a buffer declared without them, as TVM's
    ``decl_buffer``)."""
    _fields = ("name", "shape", "dtype")

    def __init__(self, name, shape, dtype, scope, strides=()):
        self.name = name
        self.shape = [_extent(s) for s in shape]
        self.strides = [_extent(s) for s in strides]
        self.dtype = dtype
        self._scope = scope

    def scope(self):
        return self._scope

    def __getitem__(self, indices):
        """``buf[i, j]``: the element, a :class:`BufferLoad`."""
        if not isinstance(indices, tuple):
            indices = (indices,)
        return BufferLoad(self, [_extent(i) for i in indices])

    @property
    def data(self):
        """The buffer's data pointer, a ``handle`` Var (one per buffer)."""
        if getattr(self, "_data", None) is None:
            self._data = Var(self.name, "handle")
        return self._data


def _extent(value):
    """A shape or stride entry: Tile IR text (``"128"``, ``"?"``), a
    Python integer or a symbolic size."""
    if isinstance(value, str):
        return IntImm("int32", value) if re.fullmatch(r"-?\d+", value) \
            else Var(value)
    if isinstance(value, int) and not isinstance(value, IntImm):
        return IntImm("int32", value)
    return value


def decl_buffer(shape, dtype="float32", name="buffer", data=None,
                strides=None, elem_offset=None, scope="global", *args,
                **kwargs):
    """``tvm.tirx.decl_buffer``: a buffer of that shape; its strides are
    empty unless given (dense row-major)."""
    if not isinstance(shape, (list, tuple)):
        shape = (shape,)
    return Buffer(name, shape, str(dtype), scope, strides or ())


def expr_deep_equal(lhs, rhs):
    """``tvm.tirx.analysis.expr_deep_equal``: whether two expressions are
    the same tree: equal constants, the same symbol, or the same
    operations over the same operands (symbolic expressions outside a
    kernel are fully parenthesised text, so equal text is the same
    tree)."""
    if isinstance(lhs, Symbol) or isinstance(rhs, Symbol):
        return isinstance(lhs, Symbol) and isinstance(rhs, Symbol) and \
            lhs.name == rhs.name and str(lhs.dtype) == str(rhs.dtype)
    if isinstance(lhs, Placeholder) or isinstance(rhs, Placeholder):
        return type(lhs) is type(rhs) and repr(lhs) == repr(rhs)
    if isinstance(lhs, Var) or isinstance(rhs, Var):
        return lhs is rhs
    if isinstance(lhs, (int, float)) and isinstance(rhs, (int, float)):
        return _const_dtype(lhs) == _const_dtype(rhs) and lhs == rhs
    return lhs is rhs


def _const_dtype(value):
    """A constant's dtype; Python's own numbers as TVM converts them."""
    if hasattr(value, "dtype"):
        return str(value.dtype)
    if isinstance(value, bool):
        return "bool"
    return "int32" if isinstance(value, int) else "float32"


class BufferLoad(PrimExpr):
    _fields = ("buffer", "indices")

    def __init__(self, buffer, indices):
        self.buffer = buffer
        self.indices = indices
        self.dtype = buffer.dtype


class BufferStore(Stmt):
    _fields = ("buffer", "value", "indices")

    def __init__(self, buffer, value, indices):
        self.buffer = buffer
        self.value = value
        self.indices = indices


class For(Stmt):
    _fields = ("loop_var", "min", "extent", "kind")

    def __init__(self, loop_var, min_value, extent, kind, body, step=None,
                 annotations=None):
        self.loop_var = loop_var
        self.min = min_value
        self.extent = extent
        self.kind = kind
        self.body = body
        self.step = step
        self.annotations = dict(annotations or {})


class IfThenElse(Stmt):
    _fields = ("condition",)

    def __init__(self, condition, then_case, else_case=None):
        self.condition = condition
        self.then_case = then_case
        self.else_case = else_case


class While(Stmt):
    _fields = ("condition",)

    def __init__(self, condition, body):
        self.condition = condition
        self.body = body


class SeqStmt(Stmt):
    _fields = ("seq",)

    def __init__(self, seq):
        self.seq = list(seq)

    def __len__(self):
        return len(self.seq)

    def __getitem__(self, i):
        return self.seq[i]


class AttrStmt(Stmt):
    _fields = ("attr_key", "value")

    def __init__(self, node, attr_key, value, body):
        self.node = node
        self.attr_key = attr_key
        self.value = value
        self.body = body


class Evaluate(Stmt):
    _fields = ("value",)

    def __init__(self, value):
        self.value = value


def _children(node):
    if isinstance(node, SeqStmt):
        return node.seq
    if isinstance(node, (For, While, AttrStmt)):
        return [node.body]
    if isinstance(node, IfThenElse):
        return [c for c in (node.then_case, node.else_case) if c is not None]
    return []


def _expr_children(node):
    """The expressions a node holds, in the order TVM's StmtExprVisitor
    visits them (a statement's before its child statements)."""
    if isinstance(node, BufferStore):
        return [node.value] + list(node.indices)
    if isinstance(node, BufferLoad):
        return list(node.indices)
    if isinstance(node, For):
        return [node.min, node.extent]
    if isinstance(node, (IfThenElse, While)):
        return [node.condition] if not isinstance(node.condition, Stmt) \
            else []
    if isinstance(node, AttrStmt):
        return list(node.value) if isinstance(node.value, list) \
            else [node.value]
    if isinstance(node, Evaluate):
        return [node.value]
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, _MinMax):
        return [node.a, node.b]
    if isinstance(node, Shuffle):
        return list(node.vectors)
    return []


def post_order_visit(stmt, fvisit):
    """Calls ``fvisit`` on every node under ``stmt``, children first:
    statements and, as TVM's visitor does, the expressions they hold
    (values, indices, loop bounds, conditions, call arguments; constants
    and variables included)."""
    if isinstance(stmt, While) and isinstance(stmt.condition, Stmt):
        post_order_visit(stmt.condition, fvisit)
    for child in _expr_children(stmt):
        if isinstance(child, (Node, PrimExpr, int, float)) and \
                not isinstance(child, (bool, Buffer)):
            post_order_visit(child, fvisit)
    for child in _children(stmt):
        post_order_visit(child, fvisit)
    fvisit(stmt)


def undefined_vars(node, defined=()):
    """``tvm.tirx.analysis.undefined_vars``: the variables ``node`` uses
    that nothing in it binds (loops, a kernel's index variables, buffers
    it allocates) and that are not in ``defined``, in first-use order. A
    parameter buffer's data Var counts as defined when ``defined`` holds
    the data Var of the parameter of that name (``func.buffer_map``'s
    buffers and the body's are built separately)."""
    defined_ids = {id(v) for v in defined}
    defined_names = {v.name for v in defined if isinstance(v, Var) and
                     v.dtype == "handle"}
    bound, found, seen = set(), [], set()

    def use(var):
        if id(var) in bound or id(var) in defined_ids or id(var) in seen:
            return
        seen.add(id(var))
        found.append(var)

    def expr(e):
        if isinstance(e, Var):
            use(e)
        elif isinstance(e, BufferLoad):
            buffer(e.buffer)
            for i in e.indices:
                expr(i)
        elif isinstance(e, Call):
            for a in e.args:
                expr(a)
        elif isinstance(e, Buffer):
            buffer(e)

    def buffer(b):
        if b.scope() != "global":
            return  # allocated by the body
        if b.name not in defined_names:
            use(b.data)

    def stmt(n):
        if n is None:
            return
        if isinstance(n, SeqStmt):
            for c in n.seq:
                stmt(c)
        elif isinstance(n, BufferStore):
            buffer(n.buffer)
            expr(n.value)
            for i in n.indices:
                expr(i)
        elif isinstance(n, For):
            expr(n.min)
            expr(n.extent)
            bound.add(id(n.loop_var))
            stmt(n.body)
        elif isinstance(n, IfThenElse):
            expr(n.condition)
            stmt(n.then_case)
            stmt(n.else_case)
        elif isinstance(n, While):
            if isinstance(n.condition, Stmt):
                stmt(n.condition)
            else:
                expr(n.condition)
            stmt(n.body)
        elif isinstance(n, AttrStmt):
            for v in n.value if isinstance(n.value, list) else [n.value]:
                expr(v)
            for v in n.node or ():
                bound.add(id(v))
            stmt(n.body)
        elif isinstance(n, Evaluate):
            expr(n.value)
        else:
            expr(n)

    stmt(node)
    return found


# -- Tile IR text -> statements -------------------------------------------------

_TYPE = re.compile(r"!tile\.buffer<\[([^\]]*)\],\s*([A-Za-z0-9]+),\s*([\w.]+)>")
_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
           "f64": "float64", "i1": "bool", "i8": "int8", "i16": "int16",
           "i32": "int32", "i64": "int64", "ui8": "uint8", "ui16": "uint16",
           "ui32": "uint32", "ui64": "uint64", "index": "int32"}
_LOOP = re.compile(r"^tile\.(for|pipelined) %([\w.]+) = (\S+) to (\S+)"
                   r"(?: step (\S+))?(.*)\{$")


def _dtype(name):
    return _DTYPES.get(name, name)


class _Reader:
    def __init__(self, lines, func):
        self.lines = lines
        self.pos = 0
        self.scopes = [{}]
        self.func = func

    def value(self, token):
        token = token.strip().rstrip(",")
        for scope in reversed(self.scopes):
            if token in scope:
                return scope[token]
        if re.fullmatch(r"-?\d+", token):
            return IntImm("int32", int(token))
        return Var(token.lstrip("%"))

    def block(self):
        """Statements up to the closing brace of the current region;
        returns (statement, the closing line)."""
        self.scopes.append({})
        stmts = []
        while self.pos < len(self.lines):
            line = self.lines[self.pos].strip()
            self.pos += 1
            if line.startswith("}"):
                self.scopes.pop()
                return _seq(stmts), line
            stmt = self.statement(line)
            if stmt is not None:
                stmts.extend(stmt if isinstance(stmt, list) else [stmt])
        self.scopes.pop()
        return _seq(stmts), "}"

    def define(self, name, value):
        self.scopes[-1][name] = value

    def buffer_of(self, line):
        m = _TYPE.search(line)
        if not m:
            return None
        dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
        return dims, _dtype(m.group(2)), m.group(3)

    def statement(self, line):
        m = re.match(r"^(%[\w.-]+) = arith\.constant (\S+) : (\w+)", line)
        if m:
            text, ty = m.group(2), m.group(3)
            if ty.startswith("f") or ty.startswith("bf"):
                self.define(m.group(1), FloatImm(_dtype(ty), float(text)))
            elif text in ("true", "false"):
                self.define(m.group(1), IntImm("bool", text == "true"))
            else:
                self.define(m.group(1), IntImm(_dtype(ty), int(text)))
            return None
        m = re.match(r"^(%[\w.]+) = tile\.alloc(?: init\((%[\w.]+)[^)]*\))?",
                     line)
        if m:
            dims, dtype, scope = self.buffer_of(line)
            buf = Buffer(m.group(1).lstrip("%"), dims, dtype, scope)
            self.define(m.group(1), buf)
            if m.group(2):
                return BufferStore(buf, self.value(m.group(2)),
                                   [IntImm("int32", 0)])
            return None
        m = re.match(r"^(%[\w.]+) = tile\.load (%[\w.]+)\[([^\]]*)\]", line)
        if m:
            buf = self.value(m.group(2))
            idx = [self.value(t) for t in m.group(3).split(",") if t.strip()]
            self.define(m.group(1), BufferLoad(buf, idx))
            return None
        m = re.match(r'^(%[\w.]+) = tile\.symbol "(\w+)"', line)
        if m:  # a symbolic size (T.dynamic / T.const): a Var of its name
            self.define(m.group(1), Var(m.group(2)))
            return None
        # (Constants' names hold a minus sign: %c-3_i32.)
        m = re.match(r"^(%[\w.]+) = arith\.(min|max)(ui|si|imumf|numf) "
                     r"(%[\w.-]+), (%[\w.-]+) : (\w+)", line)
        if m:
            ty = _dtype(m.group(6))
            if m.group(3) == "ui":
                ty = "u" + ty
            cls = Min if m.group(2) == "min" else Max
            self.define(m.group(1), cls(self.value(m.group(4)),
                                        self.value(m.group(5)), ty))
            return None
        m = re.match(r"^(%[\w.]+) = ([\w.]+)(.*)", line)
        if m:
            ops = re.findall(r"%[\w.-]+", m.group(3).split(" : ")[0])
            self.define(m.group(1), Call("int32", m.group(2),
                                         [self.value(o) for o in ops]))
            return None
        m = re.match(r"^tile\.store (%[\w.]+), (%[\w.]+)\[([^\]]*)\]", line)
        if m:
            idx = [self.value(t) for t in m.group(3).split(",") if t.strip()]
            return BufferStore(self.value(m.group(2)), self.value(m.group(1)),
                               idx)
        m = _LOOP.match(line)
        if m:
            var = Var(m.group(2))
            lo, hi = self.value(m.group(3)), self.value(m.group(4))
            step = self.value(m.group(5)) if m.group(5) else None
            rest = m.group(6)
            kind = "unrolled" if " unroll" in rest else "serial"
            notes = {}
            stages = re.search(r"stages (\d+)", rest)
            if stages:
                notes["num_stages"] = IntImm("int32", int(stages.group(1)))
            self.scopes.append({"%" + m.group(2): var})
            body, _ = self.block()
            self.scopes.pop()
            extent = IntImm("int32", hi - lo) \
                if isinstance(lo, int) and isinstance(hi, int) else \
                hi if isinstance(lo, int) and int(lo) == 0 else \
                Call("int32", "arith.subi", [hi, lo])
            return For(var, lo, extent, kind, body, step, notes)
        m = re.match(r"^tile\.parallel \(([^)]*)\) in \[([^\]]*)\]", line)
        if m:
            names = [n.strip().lstrip("%") for n in m.group(1).split(",")]
            extents = [self.value(e) for e in m.group(2).split(",")]
            loop_vars = [Var(n) for n in names]
            self.scopes.append({"%" + n: v for n, v in zip(names, loop_vars)})
            body, _ = self.block()
            self.scopes.pop()
            for v, e in reversed(list(zip(loop_vars, extents))):
                body = For(v, IntImm("int32", 0), e, "parallel", body)
            return body
        m = re.match(r"^tile\.if (%[\w.]+)", line)
        if m:
            cond = self.value(m.group(1))
            then, close = self.block()
            other = None
            if close.endswith("{"):
                other, _ = self.block()
            return IfThenElse(cond, then, other)
        if line.startswith("tile.while"):
            cond_block, _ = self.block()
            body, _ = self.block()
            return While(cond_block, body)
        m = re.match(r"^tile\.kernel \(([^)]*)\) grid \[([^\]]*)\]"
                     r"(?: threads \[([^\]]*)\])?", line)
        if m:
            names = [n.strip() for n in m.group(1).split(",") if n.strip()]
            bound = [Var(n.lstrip("%")) for n in names]
            self.scopes.append(dict(zip(names, bound)))
            body, _ = self.block()
            self.scopes.pop()
            extents = [self.value(e) for e in m.group(2).split(",")]
            threads = [self.value(e) for e in (m.group(3) or "").split(",")
                       if e.strip()]
            # `node`: the block and thread index variables it binds.
            return AttrStmt(bound, "thread_extent", extents + threads, body)
        m = re.match(r"^tile\.condition (%[\w.]+)", line)
        if m:
            return Evaluate(self.value(m.group(1)))
        m = re.match(r'^tile\.intrinsic "T\.(\w+)"', line)
        if m:
            return Evaluate(Call("handle", "tl." + m.group(1), []))
        m = re.match(r"^tile\.(\w+)(.*)", line)
        if m:
            ops = re.findall(r"%[\w.]+", m.group(2).split(" : ")[0])
            stmt = Evaluate(Call("handle", "tl." + m.group(1),
                                 [self.value(o) for o in ops]))
            if line.endswith("{"):  # an operation with a region
                body, _ = self.block()
                return [stmt, body]
            return stmt
        if line.endswith("{"):
            body, _ = self.block()
            return body
        return None


def _seq(stmts):
    stmts = [s for s in stmts if s is not None]
    if len(stmts) == 1:
        return stmts[0]
    return SeqStmt(stmts)


def parse_body(tile_ir, name=None):
    """The body of function ``name`` (else the first) of Tile IR text."""
    lines = tile_ir.splitlines()
    for i, raw in enumerate(lines):
        m = re.match(r"^\s*tile\.func @([\w.]+)\((.*)\)\s*\{$", raw)
        if not m or (name is not None and m.group(1) != name and
                     any(f"tile.func @{name}(" in x for x in lines)):
            continue
        reader = _Reader(lines[i + 1:], m.group(1))
        for pname, ty in re.findall(r"(%[\w.]+): (!tile\.buffer<[^>]*>)",
                                    m.group(2)):
            dims, dtype, scope = reader.buffer_of(ty)
            reader.define(pname, Buffer(pname.lstrip("%"), dims, dtype,
                                        scope))
        body, _ = reader.block()
        return body
    raise ValueError("no tile.func in the Tile IR")


def body_of(func):
    """``func.body`` of a :class:`~tilelang.language._objects.PrimFunc`.

    A prim_func defined inside a function (a test) is built by evaluating
    that function, whose later lines may fail where tlc cannot evaluate
    them (an ``assert`` on this very view); it is then built alone
    (``_jit.prim_func_alone_inputs``)."""
    from ._build import TLCBuildError, emit_tile
    from ._jit import prim_func_alone_inputs, prim_func_build_inputs
    build_file, kernel, defines = prim_func_build_inputs(func)
    try:
        text = emit_tile(build_file, kernel, defines, "cpu", texts=True)
    except TLCBuildError as error:
        alone = prim_func_alone_inputs(func)
        if alone is None:
            raise
        build_file, kernel, defines = alone
        try:
            text = emit_tile(build_file, kernel, defines, "cpu", texts=True)
        except TLCBuildError:
            raise error from None
    return parse_body(text, kernel)
