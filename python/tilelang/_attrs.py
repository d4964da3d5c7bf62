"""The attributes TileLang gives a prim_func when it defines it
(``PrimFunc.attrs``), read from the function's source.

TileLang records them while it traces the body: ``T.empty`` tensors the
body returns become outputs (``tilelang_out_idx``: their indices counted
from the end of the parameter list, where they are appended),
``T.annotate_pass_configs(dict)`` / ``T.annotate_compile_flags(list)``
become ``tilelang_pass_configs`` / ``tilelang_compile_flags``. tlc reads
the same statements from the source when it builds the kernel; the
package finds them in the function's syntax tree and evaluates the two
annotations' arguments with the function's globals and closure (they
are Python values: ``{PassConfigKey.TL_ENABLE_FAST_MATH: True}``; an
argument only the body computes is recorded as its source text)."""

import ast
import inspect
import textwrap

from . import _ast_parse


def _function_node(fn):
    lines, _ = inspect.getsourcelines(fn)
    tree = _ast_parse.parse(textwrap.dedent("".join(lines)))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def _own_nodes(fn_node):
    """The nodes of the body in source order, not of nested functions."""
    todo = list(reversed(fn_node.body))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(reversed(list(ast.iter_child_nodes(node))))


def _called(node, name):
    """Whether ``node`` is a call of ``T.<name>`` (any module alias) or of
    a bare ``<name>``."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr == name) or \
        (isinstance(f, ast.Name) and f.id == name)


def _scope(fn):
    scope = dict(getattr(fn, "__globals__", {}))
    code = getattr(fn, "__code__", None)
    for name, cell in zip(code.co_freevars if code else (),
                          getattr(fn, "__closure__", None) or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return scope


def _evaluate(node, fn):
    expr = ast.Expression(body=node)
    ast.fix_missing_locations(expr)
    return eval(compile(expr, "<attribute>", "eval"), _scope(fn))


def _empty_names(fn_node):
    names = []
    for node in _own_nodes(fn_node):
        if isinstance(node, ast.Assign) and _called(node.value, "empty"):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return names


def _returned_names(fn_node):
    for node in _own_nodes(fn_node):
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            items = value.elts if isinstance(value, (ast.Tuple, ast.List)) \
                else [value]
            return [v.id if isinstance(v, ast.Name) else None for v in items]
    return []


def returned_empties(fn):
    """The names of the ``T.empty`` tensors prim_func ``fn`` returns, in
    the return statement's order, or None where it returns anything
    else."""
    try:
        node = _function_node(fn)
    except (OSError, TypeError, SyntaxError):
        return None
    if node is None:
        return None
    empties = set(_empty_names(node))
    returned = _returned_names(node)
    if returned and all(n in empties for n in returned):
        return returned
    return None


def empty_out_idx(fn):
    """``tilelang_out_idx`` of prim_func ``fn``: where its body returns
    only ``T.empty`` tensors, their indices from the end of the
    parameters (``[-1]`` for one); else None."""
    returned = returned_empties(fn)
    return None if returned is None else list(range(-len(returned), 0))


def source_attrs(fn):
    """The attributes of prim_func ``fn`` (see the module's text)."""
    attrs = {"global_symbol": fn.__name__}
    try:
        node = _function_node(fn)
    except (OSError, TypeError, SyntaxError):
        return attrs
    if node is None:
        return attrs
    out_idx = empty_out_idx(fn)
    if out_idx is not None:
        attrs["tilelang_out_idx"] = out_idx
    for call in _own_nodes(node):
        for name, key in (("annotate_pass_configs", "tilelang_pass_configs"),
                          ("annotate_compile_flags",
                           "tilelang_compile_flags")):
            if _called(call, name) and call.args:
                try:
                    value = _evaluate(call.args[0], fn)
                except Exception:
                    # A value only the body computes: its source text.
                    attrs[key] = ast.unparse(call.args[0])
                    continue
                if key == "tilelang_pass_configs":
                    value = {str(k): v for k, v in dict(value).items()}
                else:
                    value = [value] if isinstance(value, str) else \
                        list(value)
                attrs[key] = value
    return attrs
