"""Source analysis of jit-decorated functions: their AST, whether a
function is a lazy factory (it returns a prim_func, or a call of another
factory) or an eager kernel."""

import ast
import inspect
import os

from . import _attrs


def _source_file(fn):
    path = inspect.getsourcefile(fn) or inspect.getfile(fn)
    return os.path.abspath(path)


def _function_node(fn):
    node = _attrs._function_node(fn)
    if node is None:
        raise TypeError(f"cannot find the source of function '{fn.__name__}'")
    return node


def _callee_name(node):
    """``prim_func`` of ``T.prim_func`` / ``prim_func`` / ``T.prim_func()``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _own_nodes(fn_node):
    """The nodes of a function body, not of functions nested in it."""
    stack = list(fn_node.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                      ast.Lambda)):
                stack.append(child)


def _is_lazy(fn_node):
    for node in ast.walk(fn_node):
        if node is not fn_node and isinstance(node, ast.FunctionDef):
            if any(_callee_name(d) == "prim_func"
                   for d in node.decorator_list):
                return True
    return False


# Decorators by which tlc-build finds an eager kernel at module level.
_JIT_DECORATORS = {"jit", "lazy_jit", "jit2", "autotune"}


def _jit_decorated(fn_node):
    """Whether the ``def`` carries a ``@tilelang.jit``-like decorator (an
    eager function wrapped only by a later call, ``tilelang.jit(fn)``,
    does not: tlc-build would not know it as a kernel)."""
    return any(_callee_name(d) in _JIT_DECORATORS
               for d in fn_node.decorator_list)


def _own_returns(fn_node):
    """The ``return`` statements of a function, not of functions in it."""
    todo = list(fn_node.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return):
            yield node
            continue
        todo.extend(ast.iter_child_nodes(node))


def _visible_value(fn, name):
    """The value ``name`` has in the body of ``fn`` when it is not assigned
    there: a variable of an enclosing function (its closure cell), a
    parameter's default value, else the module's global; None when it is
    not known before a call (a parameter without a default)."""
    code = getattr(fn, "__code__", None)
    if code is not None and name in code.co_freevars:
        cells = fn.__closure__ or ()
        try:
            return cells[code.co_freevars.index(name)].cell_contents
        except (IndexError, ValueError):
            return None
    if code is not None and name in code.co_varnames:
        try:
            param = inspect.signature(fn).parameters.get(name)
        except (TypeError, ValueError):
            param = None
        if param is None or param.default is inspect.Parameter.empty:
            return None
        return param.default
    return getattr(fn, "__globals__", {}).get(name)


def _returns_factory(fn, fn_node, depth=0):
    """Whether ``fn`` returns what another lazy factory returns
    (``def kernel(N): return copy_kernel(N)``), as tlc decides it: a
    ``return`` calls (or takes ``.prim_func`` of a call of), by name, a
    function that defines a ``@T.prim_func``
    or is such a factory itself: the module's, an enclosing function's
    (``def outer(): def f(...): ...; def kernel(b): return f(b)``) or a
    parameter's default value (``def kernel(b, f=factory)``)."""
    if depth > 4:
        return False
    for ret in _own_returns(fn_node):
        call = ret.value
        if isinstance(call, ast.Attribute) and call.attr == "prim_func":
            call = call.value  # a factory's kernel's prim_func
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
            continue
        g = _visible_value(fn, call.func.id)
        if getattr(g, "is_lazy", False) is True:
            return True  # a @tilelang.jit factory the package knows lazy
        g = getattr(g, "__wrapped__", g)
        if not inspect.isfunction(g) or g is fn:
            continue
        try:
            node = _function_node(g)
        except (OSError, TypeError):
            continue
        if _is_lazy(node) or _returns_factory(g, node, depth + 1):
            return True
    return False
