"""``tilelang.language.eager.ast``: runs a Python function with its
statements routed through a builder object, the mechanism of TileLang's
eager frontend (``mutate(fn).gen(builder)``).

:func:`mutate` parses ``fn``'s source and rewrites its body (nested
functions keep their own code):

* every statement is preceded by ``builder.set_fileline(file, line,
  name)``;
* ``for t in it`` iterates ``builder.ctx_for(it)``; ``while c`` loops over
  ``builder.ctx_while(lambda: c)`` (one item per iteration);
* ``if c`` / ``elif c`` test ``builder.if_cond(c)``;
* ``break`` / ``continue`` happen when ``builder.ctx_break()`` /
  ``builder.ctx_continue()`` return true;
* ``x = v`` / ``x: a = v`` bind ``builder.bind("x", v[, a])`` (tuple
  targets bind each name), ``x op= v`` binds ``builder.aug_assign(op, x,
  v)``, a bare expression goes to ``builder.eval(v)`` and ``return v``
  returns ``builder.ret(v)``.

:class:`BaseBuilder`'s hooks give Python's own semantics, so
``mutate(fn).gen(BaseBuilder())`` computes what ``fn`` computes; a
subclass overrides hooks to trace the program instead (tlc traces kernel
bodies itself, from the source: this module serves scripts that drive a
builder in Python). Expressions are not rewritten.
"""

import ast as _ast
import inspect
import operator
import textwrap

from ... import _ast_parse

__all__ = ["BaseBuilder", "MutatedFunction", "mutate"]

_AUG_OPS = {
    "Add": operator.add, "Sub": operator.sub, "Mult": operator.mul,
    "MatMult": operator.matmul, "Div": operator.truediv,
    "Mod": operator.mod, "Pow": operator.pow, "LShift": operator.lshift,
    "RShift": operator.rshift, "BitOr": operator.or_,
    "BitXor": operator.xor, "BitAnd": operator.and_,
    "FloorDiv": operator.floordiv,
}


class BaseBuilder:
    """Hooks with Python's semantics; ``location`` is the last
    ``(file, line, function)`` passed to :meth:`set_fileline`."""

    class empty:
        """The annotation of a binding that has none."""

    location = None

    def set_fileline(self, filename, lineno, name):
        self.location = (filename, lineno, name)

    def ctx_for(self, iterable):
        return iterable

    def ctx_while(self, cond):
        while cond():
            yield

    def if_cond(self, cond):
        return cond

    def ctx_break(self):
        return True

    def ctx_continue(self):
        return True

    def bind(self, name, value, annot=empty):
        return value

    def aug_assign(self, op, target, value):
        return _AUG_OPS[op](target, value)

    def eval(self, value):
        return value

    def ret(self, value):
        return value


_TB = "__tlc_builder"


def _call(method, *args):
    """``__tlc_builder.method(*args)`` as an expression node."""
    return _ast.Call(
        func=_ast.Attribute(value=_ast.Name(_TB, _ast.Load()), attr=method,
                            ctx=_ast.Load()),
        args=list(args), keywords=[])


class _Mutator(_ast.NodeTransformer):
    def __init__(self, filename, name):
        self.filename = filename
        self.name = name

    def _body(self, stmts):
        out = []
        for stmt in stmts:
            mark = _ast.Expr(_call("set_fileline",
                                   _ast.Constant(self.filename),
                                   _ast.Constant(stmt.lineno),
                                   _ast.Constant(self.name)))
            _ast.copy_location(mark, stmt)
            out.append(mark)
            new = self.visit(stmt)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def _bodies(self, node):
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(node, field, None), list):
                setattr(node, field, self._body(getattr(node, field)))
        if isinstance(node, _ast.Try):
            for handler in node.handlers:
                handler.body = self._body(handler.body)
        return node

    # Nested functions and classes keep their own code.
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_For(self, node):
        node.iter = _call("ctx_for", node.iter)
        return self._bodies(node)

    def visit_While(self, node):
        cond = _ast.Lambda(
            args=_ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                kw_defaults=[], defaults=[]),
            body=node.test)
        loop = _ast.For(target=_ast.Name("_", _ast.Store()),
                        iter=_call("ctx_while", cond), body=node.body,
                        orelse=node.orelse)
        _ast.copy_location(loop, node)
        return self._bodies(loop)

    def visit_If(self, node):
        node.test = _call("if_cond", node.test)
        return self._bodies(node)

    def visit_With(self, node):
        return self._bodies(node)

    visit_Try = visit_With

    def _guarded(self, node, hook):
        guard = _ast.If(test=_call(hook), body=[node], orelse=[])
        return _ast.copy_location(guard, node)

    def visit_Break(self, node):
        return self._guarded(node, "ctx_break")

    def visit_Continue(self, node):
        return self._guarded(node, "ctx_continue")

    def _bind(self, target, value, annot=None):
        """Statements binding ``value`` to ``target`` through the hook."""
        if isinstance(target, _ast.Name):
            args = [_ast.Constant(target.id), value]
            if annot is not None:
                args.append(annot)
            stmt = _ast.Assign(targets=[_ast.Name(target.id, _ast.Store())],
                               value=_call("bind", *args))
            return [stmt]
        if isinstance(target, (_ast.Tuple, _ast.List)) and all(
                isinstance(e, _ast.Name) for e in target.elts):
            # Unpack first (a, b = b, a swaps), then bind each name.
            stmts = [_ast.Assign(targets=[target], value=value)]
            for e in target.elts:
                stmts += self._bind(e, _ast.Name(e.id, _ast.Load()))
            return stmts
        return [_ast.Assign(targets=[target], value=value)]

    def visit_Assign(self, node):
        if len(node.targets) != 1:
            return node
        stmts = self._bind(node.targets[0], node.value)
        for s in stmts:
            _ast.copy_location(s, node)
        return stmts

    def visit_AnnAssign(self, node):
        if node.value is None or not isinstance(node.target, _ast.Name):
            return node
        stmts = self._bind(node.target, node.value, node.annotation)
        for s in stmts:
            _ast.copy_location(s, node)
        return stmts

    def visit_AugAssign(self, node):
        if not isinstance(node.target, _ast.Name):
            return node
        name = node.target.id
        value = _call("aug_assign", _ast.Constant(type(node.op).__name__),
                      _ast.Name(name, _ast.Load()), node.value)
        stmt = _ast.Assign(targets=[_ast.Name(name, _ast.Store())],
                           value=_call("bind", _ast.Constant(name), value))
        return _ast.copy_location(stmt, node)

    def visit_Expr(self, node):
        node.value = _call("eval", node.value)
        return node

    def visit_Return(self, node):
        value = node.value if node.value is not None else _ast.Constant(None)
        node.value = _call("ret", value)
        return node


class MutatedFunction:
    """``fn`` with its statements routed through a builder: ``gen(builder)``
    is the function those statements run with."""

    def __init__(self, fn, tree, filename):
        self.fn = fn
        self._tree = tree
        self._filename = filename

    def gen(self, builder):
        fn = self.fn
        free = fn.__code__.co_freevars
        func = self._tree
        # def __tlc_make(__tlc_builder, <free variables>): <fn>; return fn
        maker = _ast.FunctionDef(
            name="__tlc_make",
            args=_ast.arguments(
                posonlyargs=[], args=[_ast.arg(_TB)] + [_ast.arg(n) for n in free],
                kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=[func, _ast.Return(_ast.Name(func.name, _ast.Load()))],
            decorator_list=[], returns=None)
        if "type_params" in _ast.FunctionDef._fields:   # Python 3.12
            maker.type_params = []
        module = _ast.Module(body=[maker], type_ignores=[])
        _ast.fix_missing_locations(module)
        code = compile(module, self._filename, "exec")
        scope = {}
        exec(code, fn.__globals__, scope)
        cells = [c.cell_contents for c in (fn.__closure__ or ())]
        made = scope["__tlc_make"](builder, *cells)
        made.__defaults__ = fn.__defaults__
        made.__kwdefaults__ = fn.__kwdefaults__
        return made


def mutate(fn):
    """The :class:`MutatedFunction` of Python function ``fn`` (its source
    must be readable)."""
    filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    lines, first = inspect.getsourcelines(fn)
    tree = _ast_parse.parse(textwrap.dedent("".join(lines)))
    _ast.increment_lineno(tree, first - 1)
    func = tree.body[0]
    if not isinstance(func, _ast.FunctionDef):
        raise TypeError(f"mutate expects a def function, not {fn!r}")
    func.decorator_list = []
    func.body = _Mutator(filename, func.name)._body(func.body)
    return MutatedFunction(fn, func, filename)
