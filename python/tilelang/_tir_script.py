"""TVMScript-shaped text of the TIR-shaped view of a prim_func
(``PrimFunc.script()``, ``node.script()`` of the nodes ``func.body``
holds; ``tilelang/_tir.py`` says what the view models).

The text follows TVMScript's statement forms: ``B[0] = 100`` for a store,
``for i in T.serial(n):`` (``T.serial(lo, hi, step)``, ``T.unroll``,
``T.parallel``), ``if c:`` /
``else:``, ``while c:``, ``with T.Kernel(grid..., threads=...) as (bx,
...):`` for a launch, ``T.copy(...)`` / ``T.loop_break()`` for tile
operations, and parameters as ``A: T.Buffer((8,), "int32")``. Expressions
are constants, buffer loads, variables and, for the arithmetic and
comparisons tlc's Tile IR computes them with (whose operator the view
does not keep), ``T.<operation>(operands)`` calls named after the Tile IR
operation (``T.arith_addi(A[0], 7)``). It is not TVM's printer: TVM's
lowering passes have not run, and only the view's nodes are printed.
"""

from . import _tir

_INDENT = "    "


def expr(value):
    """The text of an expression of the view."""
    if isinstance(value, _tir.IntImm):
        return str(int(value)) if value.dtype != "bool" else \
            str(bool(int(value)))
    if isinstance(value, _tir.FloatImm):
        return repr(float(value))
    if isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, _tir.Var):
        return value.name
    if isinstance(value, _tir.Buffer):
        return value.name
    if isinstance(value, _tir.BufferLoad):
        return f"{value.buffer.name}[{_indices(value.indices)}]"
    if isinstance(value, _tir.Call):
        name = value.op.name
        name = name[3:] if name.startswith("tl.") else name.replace(".", "_")
        return f"T.{name}({', '.join(expr(a) for a in value.args)})"
    return repr(value)


def _indices(indices):
    return ", ".join(expr(i) for i in indices)


def _loop_head(loop):
    kind = {"unrolled": "unroll", "parallel": "parallel"}.get(loop.kind,
                                                            "serial")
    lo = loop.min
    from_zero = isinstance(lo, int) and int(lo) == 0
    if isinstance(lo, int) and isinstance(loop.extent, int):
        hi = expr(_tir.IntImm("int32", int(lo) + int(loop.extent)))
    elif from_zero:
        hi = expr(loop.extent)
    else:
        hi = f"{expr(lo)} + {expr(loop.extent)}"
    args = [hi] if from_zero else [expr(lo), hi]
    if loop.step is not None and not (isinstance(loop.step, int) and
                                      int(loop.step) == 1):
        args.append(expr(loop.step))
    return f"for {loop.loop_var.name} in T.{kind}({', '.join(args)}):"


def stmt_lines(node, depth=0):
    """The lines of statement ``node`` indented ``depth`` levels."""
    pad = _INDENT * depth
    if node is None:
        return [pad + "pass"]
    if isinstance(node, _tir.SeqStmt):
        lines = []
        for s in node.seq:
            lines += stmt_lines(s, depth)
        return lines or [pad + "pass"]
    if isinstance(node, _tir.BufferStore):
        return [f"{pad}{node.buffer.name}[{_indices(node.indices)}] = "
                f"{expr(node.value)}"]
    if isinstance(node, _tir.For):
        return [pad + _loop_head(node)] + stmt_lines(node.body, depth + 1)
    if isinstance(node, _tir.IfThenElse):
        lines = [f"{pad}if {expr(node.condition)}:"]
        lines += stmt_lines(node.then_case, depth + 1)
        if node.else_case is not None:
            lines += [pad + "else:"] + stmt_lines(node.else_case, depth + 1)
        return lines
    if isinstance(node, _tir.While):
        cond = node.condition
        if isinstance(cond, _tir.Evaluate):
            cond = cond.value
        elif not isinstance(cond, (_tir.Call, _tir.Var, _tir.BufferLoad,
                                   int)):
            # The condition is computed by statements: print them first.
            return [pad + "while True:"] + \
                stmt_lines(cond, depth + 1) + stmt_lines(node.body, depth + 1)
        return [f"{pad}while {expr(cond)}:"] + stmt_lines(node.body, depth + 1)
    if isinstance(node, _tir.AttrStmt) and node.attr_key == "thread_extent":
        sizes = ", ".join(expr(v) for v in node.value)
        return [f"{pad}with T.Kernel({sizes}):"] + \
            stmt_lines(node.body, depth + 1)
    if isinstance(node, _tir.AttrStmt):
        return [f"{pad}with T.attr({node.attr_key!r}, {expr(node.value)}):"] \
            + stmt_lines(node.body, depth + 1)
    if isinstance(node, _tir.Evaluate):
        return [pad + expr(node.value)]
    return [pad + repr(node)]


def node_script(node):
    if isinstance(node, _tir.Stmt):
        return "\n".join(stmt_lines(node)) + "\n"
    return expr(node)


def _param(var, buffer):
    if buffer is None:
        return f"{var.name}: T.{var.dtype}"
    shape = ", ".join(expr(s) for s in buffer.shape)
    shape = f"({shape},)" if len(buffer.shape) == 1 else f"({shape})"
    return f'{var.name}: T.Buffer({shape}, "{buffer.dtype}")'


def func_script(func, body):
    """The text of prim_func ``func`` whose body (the view) is ``body``."""
    params, buffers = func._params_and_buffers()
    head = ", ".join(_param(p, b) for p, b in zip(params, buffers))
    lines = ["# from tvm.script import tir as T", "", "@T.prim_func",
             f"def {func.__name__}({head}):"]
    return "\n".join(lines + stmt_lines(body, 1)) + "\n"
