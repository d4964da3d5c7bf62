"""The signature of an eager kernel (its tensor and scalar parameters,
the ``T.const`` sizes their shapes bind, strides, ``Any`` dtypes) and the
``-D`` bindings of a call's bound values."""

import ast

from . import _build, _callables
from .language._objects import Symbol
from ._factory_source import _callee_name, _own_nodes


_TENSOR_ANNOTATIONS = {"Tensor", "Buffer", "StridedTensor", "ptr",
                       "SharedBuffer", "FragmentBuffer", "LocalBuffer"}


def _is_any_dtype(ann):
    """Whether a tensor annotation's dtype is ``typing.Any``
    (``T.Tensor[[int, int], Any]``: the argument's dtype)."""
    node = None
    if isinstance(ann, ast.Call):
        node = ann.args[1] if len(ann.args) > 1 else next(
            (k.value for k in ann.keywords if k.arg == "dtype"), None)
    elif isinstance(ann, ast.Subscript) and \
            isinstance(ann.slice, ast.Tuple) and len(ann.slice.elts) == 2:
        node = ann.slice.elts[1]
    return (isinstance(node, ast.Name) and node.id == "Any") or \
        (isinstance(node, ast.Attribute) and node.attr == "Any")


def _dtype_define(value):
    """The ``-D`` text of the dtype of a tensor argument (torch, NumPy or
    a ``T.Tensor(shape, dtype)`` placeholder), or None."""
    from ._dtype import dtype
    d = getattr(value, "dtype", None)
    if d is None:
        return None
    try:
        return "T." + dtype(d).tlc_name
    except (TypeError, ValueError):
        try:
            return "T." + dtype(str(d)).tlc_name
        except (TypeError, ValueError):
            return None


def _strides_node(ann):
    """The strides expression of a ``T.StridedTensor`` annotation node
    (``T.StridedTensor[shape, strides, dtype]`` or the call form), or
    None."""
    if _callee_name(ann) != "StridedTensor":
        return None
    if isinstance(ann, ast.Call):
        if len(ann.args) > 1:
            return ann.args[1]
        return next((k.value for k in ann.keywords if k.arg == "strides"),
                    None)
    if isinstance(ann, ast.Subscript) and isinstance(ann.slice, ast.Tuple) \
            and len(ann.slice.elts) > 1:
        return ann.slice.elts[1]
    return None


def _shape_node(ann):
    """The shape expression of a tensor annotation node."""
    if isinstance(ann, ast.Call) and ann.args:
        return ann.args[0]
    if isinstance(ann, ast.Subscript):
        s = ann.slice
        if isinstance(s, ast.Tuple) and s.elts:
            return s.elts[0]
        return s
    return None


class EagerSignature:
    """What Python needs to know about an eager kernel: which parameters
    are runtime tensors / scalars, its ``T.const`` names and where each is a
    direct dimension, and the names it returns."""

    def __init__(self, fn_node, param_names):
        from ._dtype import is_dtype_name
        self.tensors = []
        self.scalars = []
        self.consts = []
        # Tensors annotated with dtype Any: tlc takes their dtype from
        # `-D NAME.dtype=...`, the argument's.
        self.any_dtype = []
        shapes = {}
        strides = {}
        args = fn_node.args
        for a in args.posonlyargs + args.args + args.kwonlyargs:
            if a.annotation is not None:
                kind = _callee_name(a.annotation)
                if kind in _TENSOR_ANNOTATIONS:
                    self.tensors.append(a.arg)
                    shapes[a.arg] = _shape_node(a.annotation)
                    strides[a.arg] = _strides_node(a.annotation)
                    if _is_any_dtype(a.annotation):
                        self.any_dtype.append(a.arg)
                elif kind and is_dtype_name(kind) and \
                        isinstance(a.annotation, ast.Attribute):
                    self.scalars.append(a.arg)
        self.returns = []
        for node in _own_nodes(fn_node):
            if isinstance(node, ast.AnnAssign) and \
                    isinstance(node.target, ast.Name) and \
                    node.target.id in param_names:
                kind = _callee_name(node.annotation)
                name = node.target.id
                if kind in _TENSOR_ANNOTATIONS and name not in self.tensors:
                    self.tensors.append(name)
                    shapes[name] = _shape_node(node.annotation)
                    strides[name] = _strides_node(node.annotation)
                    if _is_any_dtype(node.annotation):
                        self.any_dtype.append(name)
                elif kind and is_dtype_name(kind) and \
                        name not in self.scalars:
                    self.scalars.append(name)
            elif isinstance(node, ast.Assign) and \
                    isinstance(node.value, ast.Call):
                callee = _callee_name(node.value.func)
                cargs = node.value.args
                if callee == "const" and cargs and \
                        isinstance(cargs[0], ast.Constant) and \
                        isinstance(cargs[0].value, str):
                    self.consts += [n for n in cargs[0].value.replace(
                        ",", " ").split() if n]
                elif callee in ("make_tensor", "match_buffer") and \
                        len(cargs) >= 2 and isinstance(cargs[0], ast.Name) \
                        and cargs[0].id in param_names:
                    if cargs[0].id not in self.tensors:
                        self.tensors.append(cargs[0].id)
                    shapes.setdefault(cargs[0].id, cargs[1])
            elif isinstance(node, ast.Return) and node.value is not None:
                v = node.value
                elts = v.elts if isinstance(v, ast.Tuple) else [v]
                self.returns = [e.id for e in elts if isinstance(e, ast.Name)]
        # Where each const is first a direct dimension; else where it is
        # first a direct stride of a T.StridedTensor annotation.
        self.const_dims = {}
        self.const_strides = {}
        for table, found in ((shapes, self.const_dims),
                             (strides, self.const_strides)):
            for name in self.tensors:
                node = table.get(name)
                if node is None:
                    continue
                elts = node.elts if isinstance(node, (ast.Tuple, ast.List)) \
                    else [node]
                for dim, e in enumerate(elts):
                    if isinstance(e, ast.Name) and e.id in self.consts and \
                            e.id not in self.const_dims and \
                            e.id not in found:
                        found[e.id] = (name, dim)
        order = {n: i for i, n in enumerate(param_names)}
        self.runtime = sorted(set(self.tensors) | set(self.scalars),
                              key=lambda n: order.get(n, 1 << 30))


def _dense_stride(shape, dim):
    """The stride, in elements, of dimension ``dim`` of a row-major dense
    tensor of ``shape``; None where a later extent is symbolic.

    A ``T.StridedTensor`` stride const is bound to the stride of the tensor
    the kernel gets: the kernel manifests describe dense tensors, and the
    package passes a non-contiguous argument as a contiguous copy (written
    back after the launch), so that is the dense one."""
    stride = 1
    for extent in shape[dim + 1:]:
        if isinstance(extent, Symbol):
            return None
        stride *= int(extent)
    return stride


# -- defines -------------------------------------------------------------------


def _defines_for(bound, defaults, kernel, rep=None, nested=False):
    """``-D`` texts for the bound values (Symbols stay symbolic); callables
    are named through ``rep`` (a :class:`_callables.Representer`). A
    default value tlc cannot take as a ``-D`` text is left to tlc, which
    evaluates the default itself, unless the kernel is ``nested`` (lifted
    to module level, where its defaults' names of the enclosing function
    are not defined): a callable default is then named as an argument."""
    defines = {}
    for name, value in bound.items():
        if isinstance(value, Symbol):
            continue
        if name in defaults and defaults[name] is value and \
                _build.format_define(value) is None and \
                not (nested and callable(value)):
            continue  # tlc evaluates the default itself
        try:
            text = rep.define(value) if rep is not None else \
                _build.format_define(value)
        except _callables.CallableError as e:
            raise TypeError(
                f"kernel '{kernel}': cannot pass {name}="
                f"{_callables._short(value)} to tlc: {e}") from None
        if text is None:
            raise TypeError(
                f"kernel '{kernel}': cannot pass {name}={value!r} to tlc "
                "(parameters must be int, float, bool, None, str, a dtype, "
                "a function, lambda or functools.partial of the script, a "
                "T.Layout / T.Fragment, or a tuple / list of these)")
        defines[name] = text
    return defines
