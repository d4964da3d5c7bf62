"""TileLang's older autotuning spellings (releases of early 2025), which
scripts of that time still use::

    from tilelang.autotuner import jit, autotune

    @autotune(configs=[...], warmup=3, rep=20)        # or (configs, keys)
    @jit(out_idx=[-1], ref_prog=ref, skip_check=False, target="auto")
    def kernel(block_M=None, block_N=None, ...):
        ...
        return main                                    # a @T.prim_func

    result = kernel()        # AutotuneResult: latency, config, ref_latency,
                             # libcode, func, kernel
    latency, config, ref_latency = tuned(M, N)   # the `keys=` form

Their meaning, from TileLang's ``tilelang/autotuner/__init__.py`` of that
time: ``jit(...)`` makes a function whose call compiles the prim_func the
decorated function returns (``tilelang.compile(fn(*args), out_idx,
target)``) and returns a :class:`JITContext` (the kernel with its check
and supply options: ``supply_type``, or ``distribution``, its other name
of that time). ``autotune`` over it tunes the decorated function's
parameters: with ``keys``, the parameters named there come from each
configuration and the others from the call, and the call returns
``(best_latency, best_config, ref_latency)``; without, every parameter
comes from the configuration (one a configuration lacks is a ValueError)
and the call returns an :class:`AutotuneResult`. A configuration is
reported as the tuple of the decorated function's arguments in parameter
order, as TileLang reported it; keys of a configuration that name no
parameter are left out. Each configuration is checked against
``ref_prog`` (unless ``skip_check``) with the given tolerances, then
timed; the builds run in parallel as ``@tilelang.autotune``'s do.
"""

import functools
import inspect

from .autotuner import AutotuneResult, _Tuner
from .profiler import TensorSupplyType

_UNSET = object()


class JITContext:
    """What an older ``@tilelang.autotuner.jit`` function's call returns:
    the compiled ``kernel`` (and its ``profiler``) with the check and
    supply options of the decorator."""

    def __init__(self, kernel, out_idx, target, options):
        self.kernel = kernel
        self.out_idx = out_idx
        self.target = target
        self.ref_prog = options["ref_prog"]
        self.supply_prog = options["supply_prog"]
        self.rtol = options["rtol"]
        self.atol = options["atol"]
        self.max_mismatched_ratio = options["max_mismatched_ratio"]
        self.skip_check = options["skip_check"]
        self.manual_check_prog = options["manual_check_prog"]
        self.cache_input_tensors = options["cache_input_tensors"]
        self.supply_type = options["supply_type"]
        self.distribution = options["supply_type"]

    @functools.cached_property
    def profiler(self):
        """The kernel's profiler with the decorator's supply type (the
        oldest spelling's ``JITContext.profiler``)."""
        return self.kernel.get_profiler(tensor_supply_type=self.supply_type)


class LegacyJitFunction:
    """``@tilelang.autotuner.jit(...)`` over a function returning a
    ``@T.prim_func``."""

    def __init__(self, fn, out_idx, target, options):
        self.fn = fn
        self.out_idx = out_idx
        self.target = target
        self.options = options
        functools.update_wrapper(self, fn)

    def compile_kernel(self, *args, **kwargs):
        """The kernel of ``fn(*args, **kwargs)``."""
        from ._compile import compile as _compile
        return _compile(self.fn(*args, **kwargs), out_idx=self.out_idx,
                        target=self.target)

    def __call__(self, *args, **kwargs):
        return JITContext(self.compile_kernel(*args, **kwargs), self.out_idx,
                          self.target, self.options)


def jit(out_idx=None, supply_type=_UNSET, ref_prog=None, supply_prog=None,
        rtol=1e-2, atol=1e-2, max_mismatched_ratio=0.01, skip_check=False,
        manual_check_prog=None, cache_input_tensors=True, target="auto",
        distribution=_UNSET, profiler="auto"):
    """TileLang's older ``tilelang.autotuner.jit`` (see the module's
    text); ``supply_type`` and ``distribution`` are one option. The
    oldest spelling's ``profiler`` ("auto", "tvm" or "torch": which of
    TileLang's runtimes timed the kernel) changes nothing here: the kernel
    runs through tlc's runtime either way."""
    if profiler not in ("auto", "tvm", "torch"):
        raise ValueError(f"jit(profiler={profiler!r}): expected 'auto', "
                         "'tvm' or 'torch'")
    if supply_type is not _UNSET and distribution is not _UNSET and \
            supply_type != distribution:
        raise ValueError("jit() got supply_type and distribution with "
                         "different values (they are one option)")
    supply = supply_type if supply_type is not _UNSET else distribution
    if supply is _UNSET or supply is None:
        supply = TensorSupplyType.Auto
    options = dict(supply_type=supply, ref_prog=ref_prog,
                   supply_prog=supply_prog, rtol=rtol, atol=atol,
                   max_mismatched_ratio=max_mismatched_ratio,
                   skip_check=skip_check, manual_check_prog=manual_check_prog,
                   cache_input_tensors=cache_input_tensors)

    def wrap(fn):
        return LegacyJitFunction(fn, out_idx, target, options)
    return wrap


class LegacyAutoTuner:
    """``@autotune(configs, keys=None, warmup, rep, timeout)`` over an
    older ``@tilelang.autotuner.jit`` function."""

    def __init__(self, jit_fn, configs, keys, warmup, rep, timeout):
        self.jit_fn = jit_fn
        self.fn = jit_fn
        self.configs = configs
        self.keys = None if keys is None else list(keys)
        self.warmup, self.rep, self.timeout = warmup, rep, timeout
        functools.update_wrapper(self, jit_fn.fn)

    def _arguments(self, args, kwargs):
        """(parameter names, the call's values of the others, tuned
        names) of a call."""
        params = list(inspect.signature(self.jit_fn.fn).parameters)
        bound = inspect.signature(self.jit_fn.fn).bind_partial(*args,
                                                               **kwargs)
        given = dict(bound.arguments)
        if self.keys is not None:
            unknown = [k for k in self.keys if k not in params]
            if unknown:
                raise ValueError(f"autotune keys {unknown} name no parameter "
                                 f"of {self.jit_fn.fn.__name__}")
            tuned = [p for p in params if p in self.keys]
        else:
            tuned = [p for p in params if p not in given]
        return params, given, tuned

    def run(self, *args, **kwargs):
        params, given, tuned = self._arguments(args, kwargs)
        configs = self.configs() if callable(self.configs) else \
            list(self.configs)
        picked = []
        for config in configs:
            missing = [k for k in tuned if k not in config]
            if missing:
                raise ValueError(f"Configuration {config} does not contain "
                                 f"key {missing[0]}")
            picked.append({k: config[k] for k in tuned})
        defaults = {name: p.default for name, p in
                    inspect.signature(self.jit_fn.fn).parameters.items()
                    if p.default is not inspect.Parameter.empty}

        def arguments(cfg):
            values = {**defaults, **given, **cfg}
            return {p: values[p] for p in params if p in values}

        def build_one(cfg):
            return self.jit_fn.compile_kernel(**arguments(cfg))

        options = {k: v for k, v in self.jit_fn.options.items()
                   if k != "cache_input_tensors"}
        tuner = _Tuner(picked, self.warmup, self.rep, self.timeout,
                       **options)
        best = tuner.run(build_one, picked)
        config = tuple(arguments(best.config).values())
        context = JITContext(best.kernel, self.jit_fn.out_idx,
                             self.jit_fn.target, self.jit_fn.options)
        result = AutotuneResult(best.kernel, config, best.latency,
                                best.ref_latency, best.results)
        result.func = context
        result.libcode = best.kernel.get_kernel_source()
        if self.keys is not None:
            return best.latency, config, best.ref_latency
        return result

    def __call__(self, *args, **kwargs):
        return self.run(*args, **kwargs)
