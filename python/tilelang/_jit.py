"""``@tilelang.jit``, ``tilelang.compile`` and the mapping of a Python call
to the tlc kernel instance it asks for.

Python never runs a kernel body. A lazy factory call ``matmul(1024, 1024,
1024, block_M=64)`` is bound to the factory's signature (defaults applied)
and every parameter becomes a ``-D`` binding; an eager call ``add(a, b)``
binds its compile-time parameters the same way and its ``T.const`` sizes
from the tensors' shapes (found, like TileLang does, where a const is a
direct dimension of a tensor annotation). tlc-build then compiles exactly
that instance.
"""

import ast
import contextlib
import copy
import numbers
import inspect
import os
import threading
import types

from . import _attrs, _build, _callables, _nested, _script_env
from .env import env as _env_vars
from .jit import compile_phase
from ._attrs import returned_empties
from ._kernel import JITKernel, out_idx_items
from .language._objects import PrimFunc, Symbol, TensorType

_TENSOR_ANNOTATIONS = {"Tensor", "Buffer", "StridedTensor", "ptr",
                       "SharedBuffer", "FragmentBuffer", "LocalBuffer"}
_SUPPORTED_CUDA = {(8, 0): "sm_80", (8, 6): "sm_86", (8, 9): "sm_89",
                   (9, 0): "sm_90a"}
_SUPPORTED_HIP = ("gfx90a", "gfx942", "gfx950")


# -- targets -------------------------------------------------------------------


def resolve_target(target):
    """The tlc-build ``--target`` for a TileLang target spec (``"cpu"``,
    ``"cuda"``, ``"hip"``, ``"auto"``, ``"cuda -arch=sm_80"``, a dict,
    None). Under ROCm torch (``torch.version.hip`` set) torch's ``cuda``
    device is an AMD GPU: the default (``"auto"``) is ``hip:<arch>`` of the
    current device, and ``"hip"`` without an architecture names it too."""
    from ._target import Target
    if target is None:
        target = Target.current()  # `with tvm.target.Target(...):`
    if target is None:
        target = os.environ.get("TILELANG_DEFAULT_TARGET", "auto")
    if isinstance(target, Target):
        target = target.spec()
    if isinstance(target, dict):
        kind = target.get("kind", "auto")
        arch = target.get("arch") or target.get("mcpu")
        target = kind if not arch else f"{kind}:{arch}"
    target = str(target).strip()
    if target in ("cpu", "llvm", "c", "cpp"):
        return "cpu"
    if target.startswith("hip"):
        return target if ":" in target else f"hip:{_current_hip_arch()}"
    if target == "auto" and _rocm_torch():
        return f"hip:{_current_hip_arch()}" if _hip_available() else "cpu"
    if target == "auto" or target.startswith("cuda"):
        arch = None
        if "sm_" in target:
            arch = "sm_" + target.split("sm_", 1)[1].split()[0].rstrip(",")
        elif target == "auto":
            if not _cuda_available():
                return "cpu"
        if arch is None:
            arch = _current_cuda_arch()
        if arch in ("sm_90", "sm_100", "sm_100a", "sm_120"):
            arch = "sm_90a" if arch == "sm_90" else arch
        return f"cuda:{arch}"
    return target


# Looked up once per process (availability) and per device (capability):
# every kernel call resolves its target, and torch's queries cost tens of
# microseconds a call.
_CUDA_AVAILABLE = None
_DEVICE_CAPABILITY = {}


def _cuda_available():
    global _CUDA_AVAILABLE
    if _CUDA_AVAILABLE is None:
        try:
            import torch
            _CUDA_AVAILABLE = bool(torch.cuda.is_available())
        except ImportError:
            _CUDA_AVAILABLE = False
    return _CUDA_AVAILABLE


def _current_cuda_arch():
    if not _cuda_available():
        return "sm_90a"
    import torch
    device = torch.cuda.current_device()
    cap = _DEVICE_CAPABILITY.get(device)
    if cap is None:
        cap = _DEVICE_CAPABILITY[device] = \
            tuple(torch.cuda.get_device_capability(device))
    if cap in _SUPPORTED_CUDA:
        return _SUPPORTED_CUDA[cap]
    older = [c for c in _SUPPORTED_CUDA if c <= cap]
    return _SUPPORTED_CUDA[max(older)] if older else f"sm_{cap[0]}{cap[1]}"


def _rocm_torch():
    """True under a ROCm build of torch (its ``cuda`` device is AMD's)."""
    try:
        import torch
    except ImportError:
        return False
    return bool(getattr(torch.version, "hip", None))


def _hip_available():
    """An AMD GPU through ROCm torch, or the HIP runtime's sim device
    (``TLC_HIP_DEVICE=sim``, tlc_hip.h)."""
    return os.environ.get("TLC_HIP_DEVICE") == "sim" or _cuda_available()


_HIP_ARCH = {}


def _current_hip_arch():
    """The current AMD GPU's architecture (``gcnArchName`` without its
    feature suffixes: ``gfx942:sramecc+:xnack-`` is ``gfx942``), gfx942
    without ROCm torch or a device; a ``ValueError`` for one tlc does not
    build for."""
    if not _rocm_torch():
        return "gfx942"
    import torch
    try:
        device = torch.cuda.current_device()
    except (AssertionError, RuntimeError):
        return "gfx942"
    arch = _HIP_ARCH.get(device)
    if arch is None:
        try:
            props = torch.cuda.get_device_properties(device)
        except (AssertionError, RuntimeError):
            return "gfx942"
        name = getattr(props, "gcnArchName", "") or ""
        arch = _HIP_ARCH[device] = name.split(":")[0].strip()
    if arch not in _SUPPORTED_HIP:
        raise ValueError(
            f"the current AMD GPU is {arch or 'of unknown architecture'}; "
            f"tlc's HIP target builds for {', '.join(_SUPPORTED_HIP)} (CDNA2 "
            "and CDNA3): pass target='cpu' or one of those "
            "(target='hip:gfx942')")
    return arch


# -- source analysis -----------------------------------------------------------


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


def _pick_manifest(build, kernel):
    """The instance of a build: the only one, else the first named like
    the kernel."""
    ms = build.manifests
    if len(ms) == 1:
        return ms[0]
    named = [m for m in ms if m.get("name") == kernel]
    if len(named) == 1:
        return named[0]
    raise _build.TLCBuildError(
        f"tlc-build made {len(ms)} instances of kernel '{kernel}' for one "
        f"call ({', '.join(m['name'] for m in ms)}); the package cannot tell "
        "which one the call asked for", build.log, command=build.command)


def _split_flags(flags):
    """``compile_flags`` as a list: a string is split at whitespace."""
    if flags is None:
        return []
    if isinstance(flags, str):
        return flags.split()
    if isinstance(flags, (list, tuple)) and all(isinstance(f, str)
                                                 for f in flags):
        return list(flags)
    raise TypeError("compile_flags must be a string or a list of strings, "
                    f"got {flags!r}")


def _config_text(value):
    """A pass-config value as tlc records it: as Python prints it."""
    return value if isinstance(value, str) else str(value)


def _build_config_args(pass_configs, compile_flags=None):
    """tlc-build's ``--pass-config`` / ``--compile-flag`` options for pass
    configs and compile flags given from Python
    (``tilelang.compile(f, pass_configs=..., compile_flags=...)``); they win
    over the source's, as TileLang's external arguments do."""
    args = []
    for key, value in (pass_configs or {}).items():
        key = str(getattr(key, "value", key))
        if key == "tl.device_compile_flags":
            args += ["--compile-flag=" + f for f in _split_flags(value)]
        args.append(f"--pass-config={key}={_config_text(value)}")
    args += ["--compile-flag=" + f for f in _split_flags(compile_flags)]
    return args


def _same_environ(entries, tlc_env):
    """``(kernel, reads)`` of the entry of ``entries`` (``(reads,
    values, kernel)``, see :meth:`_Compiler.instance`) whose read
    variables have the same values in ``tlc_env``, else ``(None, None)``."""
    for reads, values, kernel in entries:
        if _build.environ_values(reads, tlc_env) == values:
            return kernel, reads
    return None, None


class _Compiler:
    """Builds and memoizes instances of one kernel of one source file;
    an instance is memoized with the values of the environment variables
    its evaluation read (tlc-build --environ-report), so a script that sets
    one of them between two calls gets the other instance."""

    def __init__(self, source_file, kernel, target, pass_configs=None,
                 compile_flags=None):
        self.source_file = source_file
        self.kernel = kernel
        self.target_spec = target
        self.pass_configs = dict(pass_configs or {})
        self.compile_flags = _split_flags(compile_flags)
        self._cache = {}
        # Instances compiled explicitly (strict compilation runs only these).
        self._explicit = {}
        self._lock = threading.Lock()

    def instance(self, defines, make, timeout=None, build_file=None,
                 explicit=False):
        """The kernel of the instance ``defines`` describes, built from
        ``build_file`` (default: the compiler's file; a copy of it with
        callable arguments appended, see :mod:`_callables`). ``explicit``:
        a compile the script asked for (``.compile``, ``tilelang.compile``),
        which strict compilation (:mod:`tilelang.jit.compile_phase`)
        requires before a call runs the instance."""
        build_file = build_file or self.source_file
        target = resolve_target(self.target_spec)
        # A tvm.transform.PassContext entered around the call adds its
        # config; the kernel's own pass configs win.
        from ._target import current_pass_configs
        pass_configs = {**current_pass_configs(), **self.pass_configs}
        key = (build_file, target, tuple(sorted(defines.items())),
               tuple(sorted((str(k), str(v))
                            for k, v in pass_configs.items())),
               tuple(self.compile_flags))
        # The instance also depends on the environment variables its
        # evaluation read (a script may set os.environ between two calls):
        # each memoized kernel is kept with what it read and their values.
        tlc_env = dict(_script_env.script_environ(build_file))
        strict = _env_vars.is_explicit_compile_required()
        if strict:
            # An instance compiled explicitly before: nothing to compile
            # (also after compilation is sealed).
            with self._lock:
                kernel, reads = _same_environ(self._explicit.get(key, ()),
                                              tlc_env)
            if kernel is None and not explicit:
                raise RuntimeError(self._not_compiled(defines, target))
            if kernel is not None:
                _build.note_environ(reads)
                return kernel
        with compile_phase.compilation_scope():
            with self._lock:
                kernel, reads = _same_environ(self._cache.get(key, ()),
                                              tlc_env)
            if kernel is None:
                build = _build.build(build_file, self.kernel, defines,
                                     target, timeout=timeout,
                                     extra_args=_build_config_args(
                                         pass_configs, self.compile_flags))
                kernel = make(build, _pick_manifest(build, self.kernel),
                              target)
                reads = build.environ_reads
                values = _build.environ_values(reads, tlc_env)
                with self._lock:
                    entries = self._cache.setdefault(key, [])
                    found, _ = _same_environ(entries, tlc_env)
                    if found is None:
                        entries.append((reads, values, kernel))
                    else:
                        kernel = found
            else:
                _build.note_environ(reads)
            if explicit:
                if strict:
                    kernel.prepare_for_execution()
                with self._lock:
                    entries = self._explicit.setdefault(key, [])
                    if _same_environ(entries, tlc_env)[0] is None:
                        entries.append((reads, _build.environ_values(
                            reads, tlc_env), kernel))
        return kernel

    def _not_compiled(self, defines, target):
        shown = ", ".join(f"{k}={v}" for k, v in sorted(defines.items()))
        return (f"No explicitly compiled specialization of kernel "
                f"'{self.kernel}' for target '{target}' matches this call "
                f"({shown or 'no bindings'}): with "
                "TILELANG_REQUIRE_EXPLICIT_COMPILE set, a call runs only an "
                "instance compiled before it with factory.compile(...) or "
                "factory.par_compile([...]) (the same arguments; for an "
                "eager kernel, matching tensor shapes or T.const values)")


class _InstanceCacheView:
    """``JITFunction.func``: a read-only view of a kernel's built
    instances."""

    def __init__(self, jit_function):
        self._jit = jit_function

    @property
    def p1_cache(self):
        """The built instances: ``{(bindings, n): kernel}`` (``n`` counts
        the instances of the same bindings built under other environment
        variable values)."""
        compiler = self._jit._compiler
        with compiler._lock:
            return {(key[2], n): kernel
                    for key, entries in compiler._cache.items()
                    for n, (_, _, kernel) in enumerate(entries)}

    def __repr__(self):
        return f"<instances of {self._jit.__name__}: {len(self.p1_cache)}>"


class JITFunction:
    """What ``@tilelang.jit`` returns: a lazy factory (calling it gives a
    :class:`JITKernel`) or an eager kernel (calling it runs it)."""

    # A kernel named test_* at module level is not a test: pytest would
    # collect it (it follows ``__wrapped__`` to the function) and call it
    # with fixtures named after its parameters.
    __test__ = False

    def __init__(self, fn, out_idx=None, target=None, pass_configs=None,
                 **options):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self.out_idx = out_idx
        self.target = target
        self.pass_configs = pass_configs
        self.options = options
        self.source_file = _source_file(fn)
        self.signature = inspect.signature(fn)
        node = _function_node(fn)
        self.is_lazy = _is_lazy(node) or _returns_factory(fn, node)
        names = list(self.signature.parameters)
        self.eager = None if self.is_lazy else EagerSignature(node, names)
        # As TileLang, an eager function with out_idx is refused when it is
        # called or compiled, not where it is decorated (a script may
        # decorate a function it never calls).
        self._out_idx_error = None
        if self.eager is not None and out_idx is not None:
            self._out_idx_error = (
                f"@tilelang.jit(out_idx=...) on eager kernel "
                f"'{fn.__name__}': declare outputs with T.empty() and "
                "return them instead")
        # A kernel defined inside another function is built from a copy of
        # the file with it lifted to module level (tilelang._nested).
        self.is_nested = "<locals>" in fn.__qualname__
        # A module-level eager function given to tilelang.jit(fn) by a call
        # is built from a copy with the decorator added, as a nested one.
        lift = self.is_nested or (self.eager is not None and
                                  not _jit_decorated(node))
        self._build_file, self._build_kernel = self.source_file, fn.__name__
        if lift:
            self._build_file, self._build_kernel = _nested.lift(
                self.source_file, fn.__code__, fn.__code__.co_freevars,
                eager=not self.is_lazy,
                jit=self.is_lazy and not _is_lazy(node),
                imports=_nested.module_names(
                    _nested.cell_values(fn.__code__, fn.__closure__)))
        # tlc reads a module-level kernel's decorator from the source; a
        # lifted one has lost it, so its compile flags come from here.
        self._compiler = _Compiler(
            self._build_file, self._build_kernel, target, pass_configs,
            options.get("compile_flags") if lift else None)
        self._defaults = {n: p.default for n, p in
                          self.signature.parameters.items()
                          if p.default is not inspect.Parameter.empty}

    def __repr__(self):
        kind = "lazy" if self.is_lazy else "eager"
        return f"<tilelang.jit {kind} {self.__name__} ({self.source_file})>"

    @property
    def func(self):
        """TileLang's ``JITImpl.func``, for what scripts inspect of it:
        ``p1_cache``, the instances built so far (one per distinct
        specialization: sizes, ``T.const`` values, environment)."""
        return _InstanceCacheView(self)

    # -- lazy ------------------------------------------------------------------

    def _bind(self, args, kwargs):
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}(): {e}") from None
        bound.apply_defaults()
        values = dict(bound.arguments)
        for p in self.signature.parameters.values():
            if p.kind == inspect.Parameter.VAR_KEYWORD:
                values.update(values.pop(p.name, {}))
            elif p.kind == inspect.Parameter.VAR_POSITIONAL:
                values.pop(p.name, None)
        return values

    def _closure_defines(self, rep=None):
        """``-D`` texts of a nested kernel's free variables (none for a
        module-level one)."""
        if not self.is_nested:
            return {}
        enclosing = self.fn.__qualname__.rsplit(".<locals>.", 1)[0]
        return _nested.check_defines(self.__name__, enclosing,
                                     _nested.closure_values(self.fn), rep)

    def _representer(self):
        return _callables.Representer(self.source_file, self.fn.__globals__)

    def _lazy_kernel(self, values, timeout=None, explicit=False):
        rep = self._representer()
        defines = {**self._closure_defines(rep),
                   **_defines_for(values, self._defaults, self.__name__,
                                  rep, self.is_nested)}

        def make(build, manifest, target):
            return JITKernel(build, manifest, target, out_idx=self.out_idx,
                             source_file=self.source_file,
                             kernel_name=self.__name__, defines=defines)
        kernel = self._compiler.instance(defines, make, timeout,
                                         rep.build_file(self._build_file),
                                         explicit)
        # A parameter given T.dynamic("m") stays symbolic under its own
        # name; the profiler also takes the script's name for it.
        kernel.symbol_aliases.update(
            {v.name: k for k, v in values.items()
             if isinstance(v, Symbol) and v.name != k})
        return kernel

    # -- eager -----------------------------------------------------------------

    def _eager_kernel(self, compile_values, consts, timeout=None,
                      explicit=False):
        if self._out_idx_error:
            raise ValueError(self._out_idx_error)
        sig = self.eager
        rep = self._representer()
        defines = {**self._closure_defines(rep),
                   **_defines_for(compile_values, self._defaults,
                                  self.__name__, rep, self.is_nested)}
        for name, value in consts.items():
            if name.endswith(".dtype"):
                defines[name] = value  # already a -D text
                continue
            text = _build.format_define(value)
            if text is None or not isinstance(value, numbers.Real):
                raise TypeError(f"kernel '{self.__name__}': T.const '{name}' "
                                f"must be an int or a float, got {value!r}")
            defines[name] = text

        def make(build, manifest, target):
            # The call is the instance's call site; a raise tlc-build only
            # warned about (evaluating the kernel without one) ended its
            # body there, so the instance would run without the rest
            # (tlc-build now refuses to write such an instance itself;
            # the guard stays for one that does not).
            raised = _build.raised_in_instance(
                build.diagnostics, build_file, self._build_kernel)
            if raised is not None:
                raise _build.error_class(_build.raised_category(raised))(
                    f"kernel '{self.__name__}' raised while tlc built it: "
                    f"{_build.format_raise(raised)}", build.log,
                    command=build.command)
            return JITKernel(build, manifest, target,
                             input_names=sig.runtime,
                             return_names=sig.returns,
                             source_file=self.source_file,
                             kernel_name=self.__name__, defines=defines)
        build_file = rep.build_file(self._build_file)
        return self._compiler.instance(defines, make, timeout, build_file,
                                       explicit)

    def _split_eager(self, values, given_consts=None):
        """``(runtime arguments, compile-time values, T.const values)`` of
        a call; ``given_consts`` are the call's ``NAME=value`` keywords for
        T.const names that no argument's shape gives (a grid extent or a
        factor of the body: TileLang's issue 2760)."""
        sig = self.eager
        runtime = {n: values[n] for n in sig.runtime if n in values}
        compile_values = {n: v for n, v in values.items()
                          if n not in sig.runtime}
        consts = dict(given_consts or {})
        for name in sig.consts:
            if name in consts:
                continue
            stride = name not in sig.const_dims
            where = sig.const_strides.get(name) if stride else \
                sig.const_dims[name]
            if where is None:
                raise ValueError(
                    f"Cannot find value for constexpr variable '{name}' of "
                    f"kernel '{self.__name__}': it is not a direct dimension "
                    "or T.StridedTensor stride of any tensor annotation; "
                    f"pass {name}=... to the call")
            param, dim = where
            t = runtime.get(param)
            shape = getattr(t, "shape", None)
            if shape is None:
                raise TypeError(
                    f"argument '{param}' of kernel '{self.__name__}' must be "
                    f"a tensor, got {type(t).__name__}")
            if dim >= len(shape):
                raise ValueError(
                    f"argument '{param}' of kernel '{self.__name__}' has "
                    f"{len(shape)} dimension(s); its annotation needs more")
            value = _dense_stride(shape, dim) if stride else shape[dim]
            if value is None or isinstance(value, Symbol):
                continue
            if not stride and dim == len(shape) - 1 and \
                    str(getattr(t, "dtype", "")).endswith("float4_e2m1fn_x2"):
                value = int(value) * 2  # fp4 pairs: two elements a byte
            consts[name] = int(value)
        self._any_dtypes(runtime, consts)
        return runtime, compile_values, consts

    def _any_dtypes(self, tensors, consts):
        """``NAME.dtype`` bindings of the tensors annotated with dtype Any,
        from the arguments ``tensors`` (name -> tensor or placeholder)."""
        for name in self.eager.any_dtype:
            if name not in tensors:
                continue
            text = _dtype_define(tensors[name])
            if text is None:
                raise TypeError(
                    f"argument '{name}' of kernel '{self.__name__}' is "
                    "annotated with dtype Any and must be a tensor with a "
                    f"dtype, got {type(tensors[name]).__name__}")
            consts[f"{name}.dtype"] = text

    # -- public ----------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if self.is_lazy:
            return self._lazy_kernel(self._bind(args, kwargs))
        if self._out_idx_error:
            raise ValueError(self._out_idx_error)
        params = self.signature.parameters
        given_consts = {k: kwargs.pop(k) for k in list(kwargs)
                        if k in self.eager.consts and k not in params}
        values = self._bind(args, kwargs)
        runtime, compile_values, consts = self._split_eager(values,
                                                            given_consts)
        kernel = self._eager_kernel(compile_values, consts)
        return kernel(**{n: v for n, v in runtime.items()
                         if n in kernel._input_names})

    def _with_build_configs(self, pass_configs, compile_flags):
        """This kernel with more pass configs and compile flags
        (``tilelang.compile(jit_fn, pass_configs=...)``): the decorator's
        tlc reads from the source; these win over them."""
        other = copy.copy(self)
        other._compiler = _Compiler(
            self._build_file, self._build_kernel, self.target,
            {**(self.pass_configs or {}), **(pass_configs or {})},
            self._compiler.compile_flags + _split_flags(compile_flags))
        return other

    def compile(self, *args, timeout=None, **kwargs):
        """Builds the instance without running it. Eager kernels take
        their ``T.const`` sizes by name (``add.compile(N=4096)``) or from
        placeholder ``T.Tensor(shape, dtype)`` arguments."""
        if self.is_lazy:
            return self._lazy_kernel(self._bind(args, kwargs), timeout,
                                     explicit=True)
        if self._out_idx_error:
            raise ValueError(self._out_idx_error)
        compile_values, consts = self.eager_bindings(args, kwargs)
        return self._eager_kernel(compile_values, consts, timeout,
                                  explicit=True)

    def eager_bindings(self, args, kwargs, optional=()):
        """``(compile-time values, T.const values)`` of an eager kernel's
        ``compile(*args, **kwargs)``; parameters named in ``optional`` may
        be left out (the autotuner fills them per configuration)."""
        sig = self.eager
        kwargs = dict(kwargs)
        consts = {k: kwargs.pop(k) for k in list(kwargs) if k in sig.consts}
        params = self.signature.parameters
        given = dict(zip(params, args))
        for k, v in kwargs.items():
            if k not in params:
                raise TypeError(f"{self.__name__}.compile(): unexpected "
                                f"argument '{k}' (not a parameter or a "
                                "T.const)")
            given[k] = v
        compile_values = {}
        for name, p in params.items():
            if name in sig.runtime or p.kind in (
                    inspect.Parameter.VAR_KEYWORD,
                    inspect.Parameter.VAR_POSITIONAL):
                continue
            if name in given:
                compile_values[name] = given[name]
            elif p.default is not inspect.Parameter.empty:
                compile_values[name] = p.default
            elif name not in optional:
                raise TypeError(f"{self.__name__}.compile(): missing "
                                f"argument '{name}'")
        for name in sig.consts:
            if name in consts:
                continue
            stride = name not in sig.const_dims
            param, dim = (sig.const_strides if stride else
                          sig.const_dims).get(name, (None, 0))
            shape = getattr(given.get(param), "shape", None)
            value = None if shape is None or dim >= len(shape) else \
                _dense_stride(shape, dim) if stride else shape[dim]
            if value is None or isinstance(value, Symbol):
                raise TypeError(
                    f"{self.__name__}.compile(): T.const '{name}' needs a "
                    f"value: pass {name}=... or a tensor for "
                    f"'{param or '?'}'")
            consts[name] = int(value)
        self._any_dtypes(given, consts)
        return compile_values, consts

    def get_kernel_source(self, *args, **kwargs):
        return self.compile(*args, **kwargs).get_kernel_source()

    def get_tir(self, *args, **kwargs):
        """The program one call describes, not yet built: TileLang's
        PrimFunc for these arguments (placeholder ``T.Tensor(shape,
        dtype)`` for an eager kernel's tensors). The package's stands
        for it: :func:`par_compile` / ``tilelang.compile`` build it,
        ``.script()`` prints its Tile IR."""
        return PendingInstance(self, args, kwargs)

    def par_compile(self, configs, num_workers=None, ignore_error=False):
        """Compiles many configurations (dicts of keywords or tuples of
        positional arguments) in parallel; returns the kernels in order
        (None for failures when ``ignore_error``)."""
        from concurrent.futures import ThreadPoolExecutor

        def one(cfg):
            try:
                if isinstance(cfg, dict):
                    return self.compile(**cfg)
                return self.compile(*cfg)
            except Exception:
                if ignore_error:
                    return None
                raise
        with ThreadPoolExecutor(num_workers or os.cpu_count() or 1) as pool:
            return list(pool.map(one, configs))


def jit(func=None, *, out_idx=None, target=None, target_host=None,
        execution_backend=None, verbose=None, pass_configs=None,
        debug_root_path=None, compile_flags=None):
    """``@tilelang.jit`` / ``@tilelang.jit(out_idx=[-1], target="cpu")``."""
    options = dict(target_host=target_host,
                   execution_backend=execution_backend, verbose=verbose,
                   debug_root_path=debug_root_path,
                   compile_flags=compile_flags)

    def wrap(fn):
        if isinstance(fn, PrimFunc):
            return PrimFuncJIT(fn, out_idx=out_idx, target=target,
                               pass_configs=pass_configs,
                               compile_flags=compile_flags)
        return JITFunction(fn, out_idx=out_idx, target=target,
                           pass_configs=pass_configs, **options)
    if func is not None:
        return wrap(func)
    return wrap


def prim_func_build_inputs(func):
    """What tlc-build builds for prim_func ``func``: the file (a copy with
    a nested factory lifted or callable arguments appended, where needed),
    the kernel name and the ``-D`` bindings."""
    build_file, build_kernel = func.source_file, func.kernel_name
    defines = {}
    rep = _callables.Representer(func.source_file,
                                 getattr(func.fn, "__globals__", None))
    if func.factory is None:
        hidden = _hidden_prim_func_inputs(func, rep)
        if hidden is not None:
            build_file, build_kernel, defines = hidden
    if func.factory_code is not None and func.factory_nested:
        # A prim_func made by a factory defined inside another function.
        build_file, build_kernel = _nested.lift(
            func.source_file, func.factory_code, list(func.factory_closure),
            imports=_nested.module_names(func.factory_closure))
        defines = _nested.check_defines(func.kernel_name, "its enclosing "
                                        "function", func.factory_closure, rep)
    # A value the package cannot pass that the kernel does not read (a
    # pytest fixture such as `monkeypatch` of the test function defining
    # the prim_func) stays unbound; tlc evaluates the factory without it.
    used = set(func.fn.__code__.co_freevars)
    for name, value in func.factory_args.items():
        try:
            defines.update(_defines_for({name: value}, {}, func.kernel_name,
                                        rep))
        except TypeError:
            if name in used:
                raise
    return rep.build_file(build_file), build_kernel, defines


def _module_statement(fn, source_file):
    """Whether module-level function ``fn`` is defined by a statement of
    the module's top level of ``source_file`` (not inside an ``if``, a
    ``with``, a ``try`` ...). True where the package cannot tell."""
    try:
        with open(source_file, encoding="utf-8",
                  errors="surrogateescape") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return True
    first = fn.__code__.co_firstlineno

    def starts(node):
        lines = [d.lineno for d in node.decorator_list] + [node.lineno]
        return first in lines

    found = [n for n in ast.walk(tree)
             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and
             n.name == fn.__name__ and starts(n)]
    if len(found) != 1:
        return True
    return any(n is found[0] for n in tree.body)


def _hidden_prim_func_inputs(func, rep):
    """``(build_file, kernel, defines)`` for a prim_func defined at module
    level inside a block tlc does not run when it evaluates the module,
    such as ``if __name__ == "__main__":`` (TileLang's issue-2528 test
    defines ``kernel_3d`` there); None for one at the module's top level.
    TileLang traces the function where it is defined, reading the globals
    it uses then; the package builds a copy of it inside a module-level
    factory whose parameters are the globals it reads that hold values it
    can pass (modules are imported inside the factory), bound to their
    values at the definition."""
    fn = func.fn
    if func.factory is not None or \
            _module_statement(fn, func.source_file):
        return None
    try:
        node = _attrs._function_node(fn)
    except (OSError, TypeError, SyntaxError):
        return None
    if node is None:
        return None
    g = func.definition_globals
    if g is None:
        g = getattr(fn, "__globals__", {})
    params = set(inspect.signature(fn).parameters)
    values = {}
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Name) or \
                not isinstance(sub.ctx, ast.Load) or \
                sub.id in params or sub.id in values or sub.id not in g:
            continue
        value = g[sub.id]
        if isinstance(value, types.ModuleType) or \
                _build.format_define(value) is not None:
            values[sub.id] = value
    defines = _nested.check_defines(fn.__name__, "the module", values, rep)
    build_file, kernel = _nested.lift_prim_func(
        func.source_file, fn.__code__, list(values),
        imports=_nested.module_names(values))
    return build_file, kernel, defines


class _Deferred(threading.local):
    on = False


_definition_checks = _Deferred()


@contextlib.contextmanager
def definition_checks_deferred():
    """Within it (in this thread), ``@T.prim_func`` does not check the
    function where it is defined (:func:`check_at_definition`): its build
    reports the same errors. The autotuner builds every configuration's
    prim_func at once, and the check was a second tlc-build run each."""
    previous = _definition_checks.on
    _definition_checks.on = True
    try:
        yield
    finally:
        _definition_checks.on = previous


def check_at_definition(func):
    """Raises, where ``@T.prim_func`` defines ``func``, the error TileLang
    raises while tracing it there (a ValueError for a bad argument, a
    RuntimeError for a variable used outside its region, ...): tlc checks
    the instance (``tlc-build --check``) and the first error in the
    function's own lines whose diagnostic carries a Python exception type
    TileLang raises at the definition is raised as that type.
    Other errors wait for the build. ``TLC_CHECK_AT_DEFINITION=0`` turns
    the check off."""
    if os.environ.get("TLC_CHECK_AT_DEFINITION", "1") == "0" or \
            _definition_checks.on:
        return
    try:
        build_file, kernel, defines = prim_func_build_inputs(func)
        target = resolve_target(None)
        lines, first = inspect.getsourcelines(func.fn)
        within = (func.source_file, first, first + len(lines) - 1)
    except Exception:  # what cannot be built is reported by the build
        return
    found = _build.check_categorized(build_file, kernel, defines, target,
                                     within)
    if found is not None:
        cls, diagnostic = found
        raise definition_error(cls, diagnostic)


def definition_error(cls, diagnostic):
    """The exception of class ``cls`` for a diagnostic tlc reported at a
    definition (``{"file", "line", "col", "message", ...}``). Its text is
    the diagnostic's message alone, TileLang's words (scripts compare
    ``str(e)`` with TileLang's text: test_tilelang_issue_3035.py; tlc's
    ``ValueError: `` prefix is the exception's type); where
    it is stays available as ``e.location`` (``FILE:LINE:COL``),
    ``e.diagnostic`` (tlc's whole line) and a note of the exception
    (shown under the traceback)."""
    message = diagnostic.get("message", "")
    category = diagnostic.get("category")
    if category and message.startswith(category + ": "):
        # tlc's message names the exception type; Python prints the type.
        message = message[len(category) + 2:]
    error = cls(message)
    error.location = (f"{diagnostic.get('file')}:{diagnostic.get('line')}:"
                      f"{diagnostic.get('col')}")
    error.diagnostic = _build.format_diagnostic(diagnostic)
    if hasattr(error, "add_note"):  # Python 3.11+
        error.add_note(f"at {error.location} (tlc)")
    return error


class PendingInstance:
    """What ``jit_fn.get_tir(args...)`` returns: a kernel call's instance,
    built on :meth:`compile` (once)."""

    def __init__(self, jit_fn, args, kwargs):
        self.jit_fn = jit_fn
        self.args = args
        self.kwargs = kwargs
        self.__name__ = jit_fn.__name__
        self._kernel = None

    def compile(self, pass_configs=None, compile_flags=None):
        if self._kernel is None:
            fn = self.jit_fn
            if pass_configs or compile_flags:
                fn = fn._with_build_configs(pass_configs, compile_flags)
            self._kernel = fn.compile(*self.args, **self.kwargs)
        return self._kernel

    def script(self):
        """The Tile IR of the instance (see :meth:`JITKernel.script`)."""
        return self.compile().script()

    def __repr__(self):
        return f"<tilelang instance of {self.__name__}>"


def par_compile(funcs, out_idx=None, execution_backend=None, target=None,
                target_host=None, verbose=None, pass_configs=None,
                compile_flags=None, num_workers=None, ignore_error=False):
    """``tilelang.par_compile([func, ...])``: :func:`compile` of each
    prim_func or ``get_tir`` instance, in parallel; the kernels in order
    (None for a failure when ``ignore_error``)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(func):
        try:
            if isinstance(func, PendingInstance):
                return func.compile(pass_configs, compile_flags)
            return compile(func, out_idx=out_idx, target=target,
                           pass_configs=pass_configs,
                           compile_flags=compile_flags)
        except Exception:
            if ignore_error:
                return None
            raise
    funcs = list(funcs)
    with ThreadPoolExecutor(num_workers or os.cpu_count() or 1) as pool:
        return list(pool.map(one, funcs))


def compile(func, out_idx=None, execution_backend=None, target=None,  # noqa: A001
            target_host=None, verbose=None, pass_configs=None,
            compile_flags=None):
    """``tilelang.compile(prim_func, out_idx=..., target=...)``: builds the
    instance the prim_func object describes (a module-level prim_func, or
    one made by a plain factory call, whose arguments become the
    bindings)."""
    if isinstance(func, PendingInstance):
        return func.compile(pass_configs, compile_flags)
    if isinstance(func, JITFunction):
        if pass_configs or compile_flags:
            func = func._with_build_configs(pass_configs, compile_flags)
        return func.compile()
    if not isinstance(func, PrimFunc):
        raise TypeError("tilelang.compile expects a @T.prim_func, got "
                        f"{type(func).__name__}")
    working = func
    returned_names = returned_empties(func.fn)
    if returned_names is not None:
        if out_idx is not None:
            raise ValueError(
                f"Out index conflict: prim_func '{func.__name__}' returns "
                f"T.empty output(s) {', '.join(returned_names)} and "
                f"tilelang.compile was given out_idx={out_idx!r}; give one "
                "of them")
        out_idx = list(range(-len(returned_names), 0))
    elif out_idx is not None:
        working = func.with_attr("tilelang_out_idx", out_idx_items(out_idx))
    build_file, build_kernel, defines = prim_func_build_inputs(func)

    def build(build_file, build_kernel, defines):
        compiler = _Compiler(build_file, build_kernel, target, pass_configs,
                             compile_flags)

        def make(build, manifest, tgt):
            kernel = JITKernel(build, manifest, tgt, out_idx=out_idx,
                               source_file=func.source_file,
                               kernel_name=func.kernel_name, defines=defines)
            kernel.prim_func = working
            if returned_names:
                kernel.order_outputs(returned_names)
            return kernel
        return compiler.instance(defines, make, explicit=True)
    try:
        return build(build_file, build_kernel, defines)
    except _build.TLCBuildError as error:
        alone = prim_func_alone_inputs(func)
        if alone is None or _refused_inside(error, func):
            raise
        try:
            return build(*alone)
        except _build.TLCBuildError:
            raise error from None


def _refused_inside(error, func):
    """Whether tlc refused the build with a diagnostic located in the
    prim_func's own lines: building the prim_func alone would be refused
    the same way (an autotuner's configuration tlc refuses is built once,
    not twice)."""
    refused = getattr(error, "refused", None)
    if not refused or refused[2] is None or refused[3] is None:
        return False
    try:
        lines, first = inspect.getsourcelines(func.fn)
        same = os.path.samefile(refused[2], func.source_file)
    except (OSError, TypeError):
        return False
    return same and first <= refused[3] < first + len(lines)


def prim_func_alone_inputs(func):
    """Like :func:`prim_func_build_inputs`, for a prim_func defined inside
    a function: its copy inside a module-level factory of the variables it
    uses, bound to the values its closure holds. tlc then builds it without
    evaluating the rest of the defining function (a test's later lines,
    which may fail where tlc cannot evaluate them, such as an inspection of
    the compiled kernel). None for a module-level prim_func."""
    if func.factory is None:
        return None
    closure = {**_nested.closure_values(func.fn), **func.materialized}
    rep = _callables.Representer(func.source_file,
                                 getattr(func.fn, "__globals__", None))
    defines = _nested.check_defines(func.fn.__name__, func.factory, closure,
                                    rep)
    build_file, kernel = _nested.lift_prim_func(
        func.source_file, func.fn.__code__, list(closure),
        imports=_nested.module_names(closure))
    return rep.build_file(build_file), kernel, defines


class PrimFuncJIT:
    """``@tilelang.jit(...)`` over a ``@T.prim_func``: the program is fixed,
    so calling it (with no arguments) or ``.compile()`` gives the kernel
    :func:`compile` builds with the decorator's options, built once."""

    def __init__(self, func, **options):
        self.func = func
        self.options = options
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self._kernel = None

    def compile(self):
        if self._kernel is None:
            self._kernel = compile(self.func, **self.options)
        return self._kernel

    def __call__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(
                f"'{self.__name__}' is a @tilelang.jit over a prim_func: "
                "call it with no arguments to get the kernel, then call the "
                "kernel with its arguments")
        return self.compile()

    def get_kernel_source(self):
        return self.compile().get_kernel_source()

    def __repr__(self):
        return f"<tilelang.jit prim_func {self.__name__}>"


class CompiledArtifact:
    """What ``tilelang.lower(func)`` returns: the built kernel (no outputs
    allocated by the call) and its parameters. Older scripts unpack it,
    ``mod, params = tilelang.lower(func)``, and hand both to
    ``tilelang.Profiler(mod, params, result_idx, supply_type)``."""

    def __init__(self, kernel):
        self.rt_mod = kernel
        self.params = kernel.kernel_params

    @property
    def kernel_source(self):
        return self.rt_mod.get_kernel_source()

    def __iter__(self):
        return iter((self.rt_mod, self.params))

    def __repr__(self):
        return f"<CompiledArtifact {self.rt_mod.manifest['name']}>"


def lower(func, target=None, target_host=None, runtime_only=False,
          enable_host_codegen=False, enable_device_compile=False,
          pass_configs=None, compile_flags=None, **kwargs):
    """``tilelang.lower(prim_func, target=...)``: builds the instance the
    prim_func describes (as :func:`compile` does) and returns a
    :class:`CompiledArtifact`. tlc always builds the complete kernel, so
    the host/device switches change nothing."""
    return CompiledArtifact(compile(func, target=target,
                                    pass_configs=pass_configs,
                                    compile_flags=compile_flags))


__all__ = ["jit", "compile", "par_compile", "lower", "CompiledArtifact", "JITFunction", "JITKernel", "resolve_target",
           "TensorType"]
