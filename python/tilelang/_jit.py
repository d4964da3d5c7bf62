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

import copy
import numbers
import inspect
import os

from . import _build, _callables, _nested
from ._kernel import JITKernel
from .language._objects import PrimFunc, Symbol, TensorType
from ._compile import (CompiledArtifact, PendingInstance, PrimFuncJIT,
                       compile, lower, par_compile)
from ._compiler import _Compiler, _InstanceCacheView, _split_flags
from ._eager_signature import (EagerSignature, _defines_for, _dense_stride,
                               _dtype_define)
from ._factory_source import (_function_node, _is_lazy, _jit_decorated,
                              _returns_factory, _source_file)
# Names other modules and scripts read from this module.
from ._prim_inputs import (  # noqa: F401
    check_at_definition, definition_checks_deferred, definition_error,
    prim_func_alone_inputs, prim_func_build_inputs)
from ._target_resolve import (  # noqa: F401
    _HIP_ARCH, _cuda_available, _current_cuda_arch, _current_hip_arch,
    _hip_available, _rocm_torch, resolve_target)


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


__all__ = ["jit", "compile", "par_compile", "lower", "CompiledArtifact",
           "JITFunction", "JITKernel", "resolve_target", "TensorType"]
