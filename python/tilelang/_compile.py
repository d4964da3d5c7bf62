"""``tilelang.compile``, ``par_compile``, ``lower`` and the objects they
return or take (``PendingInstance``, ``@tilelang.jit`` over a prim_func,
``CompiledArtifact``)."""

import os

from . import _build
from ._attrs import returned_empties
from ._kernel import JITKernel, out_idx_items
from .language._objects import PrimFunc
from ._compiler import _Compiler
from ._prim_inputs import (_refused_inside, prim_func_alone_inputs,
                           prim_func_build_inputs)


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
    from ._jit import JITFunction  # _jit imports this module
    if isinstance(func, JITFunction):
        if pass_configs or compile_flags:
            func = func._with_build_configs(pass_configs, compile_flags)
        return func.compile()
    from ._ir_module import IRModule
    if isinstance(func, IRModule):
        # An IRModule of one prim_func (`tvm.IRModule({"main": func})`,
        # what a TileLang transform returns) builds that prim_func;
        # tvm.compile builds modules of several.
        from ._executable import module_prim_funcs
        funcs = module_prim_funcs(func, "tilelang.compile")
        if len(funcs) != 1:
            raise TypeError(
                "tilelang.compile builds one prim_func; this IRModule has "
                f"{len(funcs)} ({', '.join(n for n, _ in funcs)}): compile "
                "mod[NAME], or tvm.compile(mod) for all of them")
        func = funcs[0][1]
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
