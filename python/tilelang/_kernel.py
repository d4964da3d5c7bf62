"""``JITKernel``: one built kernel instance, callable with tensors."""

import ctypes
import numbers
import os

from . import _tensors as tz
from . import _verify_cpu
from .jit import compile_phase
from ._runtime import (CpuLauncher, CudaLauncher, HipLauncher, eval_extent,
                       extent_names, hip_context, solve_affine_extent,
                       scalar_value)


def _fmt_shape(shape):
    return "(" + ", ".join(str(s) for s in shape) + \
        ("," if len(shape) == 1 else "") + ")"


def _extra_unit_dims(shape, ndim):
    """Whether ``shape`` has more than ``ndim`` dimensions and every one
    after the first ``ndim`` is 1."""
    shape = list(shape)
    return len(shape) > ndim and all(int(d) == 1 for d in shape[ndim:])


class KernelParam:
    """One parameter of a built kernel as scripts see it
    (``profiler.params[i].shape``, ``.dtype``): the shape holds ints, and
    the names of symbolic extents as :class:`Symbol` objects.

    Scripts also make one themselves, as TileLang's dataclass:
    ``KernelParam(dtype=T.float32, shape=[])`` (an empty shape is a scalar
    parameter; a tensor supply then draws a Python number for it)."""

    def __init__(self, param=None, dtype=None, shape=None, name=None):
        from ._dtype import dtype as _dtype
        from .language._objects import Symbol
        if param is None or not isinstance(param, dict):
            if param is not None:      # KernelParam(dtype, shape)
                dtype, shape = param, dtype if shape is None else shape
            if dtype is None:
                raise TypeError("KernelParam needs a manifest parameter or "
                                "dtype= and shape=")
            shape = list(shape if shape is not None else [])
            param = {"name": name or "param",
                     "kind": "tensor" if shape else "scalar",
                     "dtype": str(_dtype(dtype)),
                     "shape": [e if isinstance(e, int) else str(e)
                               for e in shape]}
        dtype = _dtype
        self.manifest_param = param
        self.name = param["name"]
        self.kind = param["kind"]
        self.shape = [e if isinstance(e, int) else Symbol(str(e))
                      for e in param.get("shape", [])]
        try:
            self.dtype = dtype(param["dtype"])
        except (TypeError, ValueError):
            self.dtype = param["dtype"]

    def is_scalar(self):
        return self.kind != "tensor"

    def torch_dtype(self):
        return tz.torch_dtype(str(self.dtype))

    def __repr__(self):
        return f"KernelParam({self.name}, {self.shape}, {self.dtype})"


class _SourceModule:
    """A device module of :attr:`JITKernel.imported_modules`: its source."""

    def __init__(self, source, type_key):
        self._source = source
        self.type_key = type_key
        self.imported_modules = []

    def get_source(self, fmt=""):
        return self._source()

    inspect_source = get_source  # TVM-FFI's name

    @property
    def imports(self):
        return self.imported_modules

    def __repr__(self):
        return f"Module({self.type_key})"


# TileLang's constructor keywords (tilelang/jit/kernel.py's JITKernel):
# JITKernel(func, out_idx, execution_backend, target, target_host, verbose,
# pass_configs, from_database, compile_flags).
_TILELANG_INIT = ("func", "out_idx", "execution_backend", "target",
                  "target_host", "verbose", "pass_configs", "from_database",
                  "compile_flags")


class _JITKernelType(type):
    """Makes ``JITKernel(prim_func, out_idx=..., target=...)``, TileLang's
    way to compile a program directly, build it as ``tilelang.compile``
    does; the package's own construction (a build result and its manifest)
    is unchanged."""

    def __call__(cls, *args, **kwargs):
        first = args[0] if args else kwargs.get("func")
        if not _is_program(first) and "func" not in kwargs:
            return super().__call__(*args, **kwargs)
        given = dict(zip(_TILELANG_INIT, args))
        for key, value in kwargs.items():
            if key not in _TILELANG_INIT:
                raise TypeError(
                    f"JITKernel() got an unexpected keyword argument '{key}'")
            if key in given:
                raise TypeError(
                    f"JITKernel() got multiple values for argument '{key}'")
            given[key] = value
        if len(args) > len(_TILELANG_INIT):
            raise TypeError(f"JITKernel() takes at most {len(_TILELANG_INIT)} "
                            f"arguments ({len(args)} given)")
        if given.get("from_database"):
            raise NotImplementedError(
                "JITKernel(from_database=True) restores a kernel from "
                "TileLang's kernel database; tlc's build cache does that for "
                "tilelang.compile(func, ...) (TLC_CACHE_DIR)")
        from ._compile import compile as build
        return build(given.get("func"), out_idx=given.get("out_idx"),
                     execution_backend=given.get("execution_backend"),
                     target=given.get("target"),
                     target_host=given.get("target_host"),
                     verbose=given.get("verbose"),
                     pass_configs=given.get("pass_configs"),
                     compile_flags=given.get("compile_flags"))


def _is_program(obj):
    """Whether ``obj`` is what ``tilelang.compile`` builds: a prim_func, an
    IRModule of one, a factory call's pending instance or a jit function."""
    from ._compile import PendingInstance, PrimFunc
    from ._ir_module import IRModule
    from ._jit import JITFunction
    return isinstance(obj, (PrimFunc, IRModule, PendingInstance, JITFunction))


class JITKernel(metaclass=_JITKernelType):
    """A compiled kernel instance.

    Call it with the inputs (torch tensors; NumPy arrays too on the ``cpu``
    target) positionally or by parameter name. Outputs (``out_idx`` of a
    lazy factory, ``T.empty`` tensors of an eager kernel) are allocated and
    returned: one tensor, or a list (lazy) / tuple (eager) of several.

    Wrong calls raise before anything runs: ``TypeError`` for a missing or
    extra argument, a non-tensor where a tensor is expected, or a wrong
    dtype; ``ValueError`` for a wrong shape, a tensor on the wrong device
    or a written non-contiguous tensor that shares memory with another
    argument (a non-contiguous tensor runs on a dense copy; one the kernel
    writes is copied back after the launch).
    """

    @classmethod
    def from_tilelang_function(cls, tilelang_func, **kwargs):
        """TileLang's ``JITKernel.from_tilelang_function(func, **kwargs)``:
        ``JITKernel(func, **kwargs)``, the program compiled."""
        return cls(tilelang_func, **kwargs)

    def __init__(self, build, manifest, target, out_idx=None,
                 input_names=None, return_names=None, source_file=None,
                 kernel_name=None, defines=None):
        self.build_result = build
        self.manifest = manifest
        self.artifact_dir = build.out_dir
        self.target = target
        self.source_file = source_file
        self.kernel_name = kernel_name or manifest["kernel"]
        self.defines = dict(defines or {})
        self.params = manifest["params"]
        names = [p["name"] for p in self.params]
        if input_names is None:
            outs = _normalize_out_idx(out_idx, len(self.params))
            self._outputs = outs
            self._inputs = [i for i in range(len(self.params))
                            if i not in outs]
        else:
            self._inputs = [names.index(n) for n in input_names if n in names]
            self._outputs = [i for i, n in enumerate(names)
                             if n not in input_names]
            if return_names:
                order = {n: k for k, n in enumerate(return_names)}
                self._outputs.sort(key=lambda i: order.get(names[i], 1 << 30))
        self._input_names = list(input_names) if input_names is not None \
            else [names[i] for i in self._inputs]
        self._eager = input_names is not None
        self._launchers = {}
        # Script names of symbolic parameters (T.dynamic("m") passed as M).
        self.symbol_aliases = {}
        self.latency = None
        self.config = None
        self.ref_latency = None
        # The prim_func it was built from (tilelang.compile), if any.
        self.prim_func = None

    # -- introspection ---------------------------------------------------------

    @property
    def adapter(self):
        """The execution backend's view of the kernel
        (``tilelang/_adapter.py``)."""
        from ._adapter import Adapter
        return Adapter(self)

    @property
    def cache_hit(self):
        """True when tlc-build took every binary from its cache."""
        return self.build_result.cache_hits > 0 and \
            self.build_result.cache_hits == len(self.build_result.manifests)

    def get_kernel_source(self, kernel_only=True):
        """The generated source (CUDA C++ or the CPU target's C++)."""
        path = os.path.join(self.artifact_dir,
                            self.manifest["generated_source"])
        with open(path) as f:
            return f.read()

    def script(self):
        """A readable text of the kernel: the Tile IR of this instance
        (``tlc-build --emit=tile`` with the build's own file, bindings and
        options; MLIR's text form, not TVM's TVMScript)."""
        from ._build import emit_tile_of
        return emit_tile_of(self.build_result.command)

    def get_host_source(self):
        """The host side of the launch as C++: one function that launches
        this instance's kernels as the package does (grid, block, shared
        memory and TMA maps from the manifest, symbols as arguments)
        through tlc's CUDA runtime, passes them to tlc's HIP runtime, or
        fills the CPU entry point's arguments (``tilelang/_host_source.py``)."""
        from ._host_source import host_source
        name = os.path.splitext(self.manifest["generated_source"])[0]
        return host_source(self.manifest, name,
                           {v: k for k, v in self.symbol_aliases.items()})

    # TVM's runtime.Module view older scripts read after `tilelang.lower`:
    # `mod.imported_modules[0].get_source()` is the device source,
    # `mod.get_source()` the host side.
    @property
    def imported_modules(self):
        return [_SourceModule(self.get_kernel_source,
                              "c" if self.target == "cpu" else
                              self.target.split(":")[0])]

    def get_source(self, fmt=""):
        return self.get_host_source()

    # TVM-FFI's names (`mod.imports[0].inspect_source()`).
    imports = imported_modules
    inspect_source = get_source

    def show_source(self, which="kernel"):
        print(self.get_kernel_source())

    def with_out_idx(self, out_idx):
        """The same built instance with other outputs allocated by the call
        (older scripts' ``tilelang.Profiler(mod, params, result_idx)``)."""
        if self._eager:
            raise TypeError(f"kernel '{self.manifest['name']}' is eager: its "
                            "outputs are the tensors it returns")
        other = JITKernel(self.build_result, self.manifest, self.target,
                          out_idx=out_idx, source_file=self.source_file,
                          kernel_name=self.kernel_name, defines=self.defines)
        other.symbol_aliases = dict(self.symbol_aliases)
        return other

    def order_outputs(self, names):
        """Returns the outputs in the order of ``names`` (the tensors a
        prim_func's body returns) where all of them are outputs."""
        index = {p["name"]: i for i, p in enumerate(self.params)}
        if all(n in index and index[n] in self._outputs for n in names) and \
                len(names) == len(self._outputs):
            self._outputs = [index[n] for n in names]

    @property
    def result_idx(self):
        """The indices of the parameters the call allocates and returns."""
        return list(self._outputs)

    @property
    def kernel_params(self):
        """Every parameter as a :class:`KernelParam`."""
        return [KernelParam(p) for p in self.params]

    def get_profiler(self, tensor_supply_type=None,
                     tensor_distribution=None):
        """A :class:`~tilelang.profiler.Profiler` drawing inputs as
        ``tensor_supply_type`` says (``tensor_distribution``: TileLang's
        other name of it)."""
        from .profiler import Profiler, TensorSupplyType
        if tensor_supply_type is not None and \
                tensor_distribution is not None and \
                tensor_supply_type != tensor_distribution:
            raise TypeError("get_profiler() got both tensor_supply_type and "
                            "tensor_distribution")
        return Profiler(self, tensor_supply_type or tensor_distribution or
                        TensorSupplyType.Auto)

    def run_once(self, func=None):
        """Runs the kernel (or ``func``) once on inputs drawn as
        ``get_profiler()`` draws them, and returns what it returns."""
        return self.get_profiler().run_once(func)

    @property
    def input_params(self):
        return [self.params[i] for i in self._inputs]

    @property
    def output_params(self):
        return [self.params[i] for i in self._outputs]

    def __repr__(self):
        return (f"<JITKernel {self.manifest['name']} target={self.target} "
                f"inputs={[p['name'] for p in self.input_params]} "
                f"outputs={[p['name'] for p in self.output_params]}>")

    # -- calling ---------------------------------------------------------------

    def _launcher(self, device):
        launcher = self._launchers.get(device)
        if launcher is None:
            index = int(device.split(":")[1]) if ":" in device else 0
            if self.target == "cpu":
                launcher = CpuLauncher(self.artifact_dir, self.manifest)
            elif self.target.startswith("hip"):
                launcher = HipLauncher(self.artifact_dir, self.manifest,
                                       index)
            else:
                launcher = CudaLauncher(self.artifact_dir, self.manifest,
                                        index)
            self._launchers[device] = launcher
        return launcher

    def _split_outputs(self, args, kwargs):
        """TileLang's two ways of giving a kernel with ``out_idx`` its
        output buffers instead of having the call allocate them: every
        parameter positionally (its "full ABI" call, ``kernel(A, B, C)``
        for ``out_idx=[2]``), or ``out=`` (the buffer, or a sequence of
        one per output). Returns ``(args, kwargs, provided)``: the call
        without the outputs, and ``{parameter index: buffer}``. Neither
        applies to an eager kernel (its call is the function's)."""
        if self._eager or not self._outputs:
            if "out" in kwargs and "out" not in self._input_names and \
                    not self._eager:
                raise ValueError(
                    f"kernel '{self.manifest['name']}': output buffers can "
                    "only be given (out=) when out_idx is set")
            return args, kwargs, {}
        if "out" in kwargs and "out" not in self._input_names:
            kwargs = dict(kwargs)
            out = kwargs.pop("out")
            name = self.manifest["name"]
            if len(args) == len(self.params):
                raise ValueError(f"kernel '{name}': output buffers were "
                                 "given both positionally and with out=")
            if len(self._outputs) == 1:
                out = [out]
            elif not isinstance(out, (list, tuple)):
                raise ValueError(
                    f"kernel '{name}' has {len(self._outputs)} outputs; "
                    f"out= must be a sequence of them, got "
                    f"{type(out).__name__}")
            elif len(out) != len(self._outputs):
                raise ValueError(
                    f"kernel '{name}' has {len(self._outputs)} outputs, but "
                    f"out= gives {len(out)}")
            return args, kwargs, dict(zip(self._outputs, out))
        if len(args) == len(self.params) and len(self._inputs) + \
                len(set(self._outputs)) == len(self.params):
            provided = {i: args[i] for i in self._outputs}
            return [args[i] for i in self._inputs], kwargs, provided
        return args, kwargs, {}

    def _collect(self, args, kwargs):
        name = self.manifest["name"]
        want = self._input_names
        full = f", or all {len(self.params)} parameters with the " \
            "output buffers" if self._outputs and not self._eager else ""
        takes = f"kernel '{name}' takes {len(want)} argument(s) " \
            f"({', '.join(want)}){full}"
        if not kwargs and len(args) != len(want):
            # TileLang's adapters raise this ValueError for a positional
            # call of another count; tlc-build --check models the same.
            raise ValueError(
                f"Kernel expected {len(want)} inputs, but {len(args)} are "
                f"provided. ({takes})")
        if len(args) > len(want):
            raise TypeError(f"{takes}, got {len(args)}")
        values = dict(zip(want, args))
        for k, v in kwargs.items():
            if k not in want:
                raise TypeError(f"kernel '{name}' has no input '{k}' "
                                f"(inputs: {', '.join(want)})")
            if k in values:
                raise TypeError(f"kernel '{name}': argument '{k}' given "
                                "twice")
            values[k] = v
        missing = [n for n in want if n not in values]
        if missing:
            outs = [p["name"] for p in self.output_params]
            hint = f"; outputs {', '.join(outs)} are allocated by the " \
                "kernel" if outs else ""
            raise TypeError(
                f"kernel '{name}' is missing argument(s) "
                f"{', '.join(missing)} (inputs: {', '.join(want)}{hint})")
        return values

    def _check_grids(self, env):
        """TileLang refuses a launch whose grid has an extent of 0 (a
        dynamic ``M`` of 0, or ``T.Kernel(0)``) with an error rather than
        running nothing (its issue 1993); so does the package, before any
        launch and before outputs are allocated, so no argument changes.
        tlc-run and the C API skip such a launch instead."""
        for n, launch in enumerate(self.manifest.get("launches", [])):
            for d, g in enumerate(launch.get("grid", [])):
                if eval_extent(g, env) > 0:
                    continue
                bound = ", ".join(f"{s} = {env[s]}"
                                  for s in sorted(extent_names(g)) if s in env)
                raise ValueError(
                    f"kernel '{self.manifest['name']}': grid extent {d} of "
                    f"launch {n} ({launch.get('location', '?')}) is "
                    f"{eval_extent(g, env)}"
                    + (f" ({g}, {bound})" if bound else "")
                    + "; a grid of 0 blocks is an error, as in TileLang, so "
                    "nothing was launched")

    def _bind_symbols(self, values, provided=None):
        """The value of every symbol of the manifest: a dimension (or
        stride) of the input tensor whose shape names it, else of an
        output buffer the caller gave (``provided``: {parameter index:
        tensor}; a symbol only an output's shape names, such as the second
        of two same-named ``T.dynamic``), else a run-time scalar of its
        name, else solved from an affine dimension."""
        env = {}
        if provided:
            values = {**values, **{self.params[i]["name"]: t
                                   for i, t in provided.items()}}
        shaped = self.input_params + [self.params[i]
                                      for i in sorted(provided or ())
                                      if i in self._outputs]
        for sym in self.manifest.get("symbols", []):
            s = sym["name"]
            for p in shaped:
                if p["kind"] != "tensor" or s not in p["shape"]:
                    continue
                t = values.get(p["name"])
                if tz.is_torch(t) or tz.is_numpy(t):
                    dim = p["shape"].index(s)
                    if len(t.shape) == len(p["shape"]) or \
                            _extra_unit_dims(t.shape, len(p["shape"])):
                        env[s] = int(t.shape[dim])
                        if p["dtype"] in tz.PACKED and \
                                dim == len(p["shape"]) - 1:
                            env[s] *= 2  # two elements a byte
                        break
            if s not in env:
                # A symbol a stride gives (`T.StridedTensor[(m, n),
                # (pitch, 1)]`): that stride of the caller's tensor.
                for p in self.input_params:
                    if p["kind"] != "tensor" or s not in p.get("strides", []):
                        continue
                    t = values.get(p["name"])
                    if (tz.is_torch(t) or tz.is_numpy(t)) and \
                            len(t.shape) == len(p["strides"]):
                        env[s] = tz.strides_of(t)[p["strides"].index(s)]
                        break
            given = values.get(s)
            if s not in env and isinstance(given, (int, float)) and \
                    not (tz.is_torch(given) or tz.is_numpy(given)):
                # An integer runtime scalar tlc keeps as a symbol (float
                # ones are scalar parameters).
                if isinstance(given, float) and not given.is_integer():
                    raise TypeError(
                        f"kernel '{self.manifest['name']}': the runtime "
                        f"scalar '{s}' is an integer symbol of the kernel "
                        f"and cannot take {given!r} (annotate it with a "
                        "float dtype, e.g. T.float32, for a float scalar)")
                env[s] = int(given)
            if s not in env:
                env_s = self._solve_symbol(s, values, env)
                if env_s is not None:
                    env[s] = env_s
            if s not in env:
                self._unbound_symbol_argument(s, values)
                raise ValueError(
                    f"kernel '{self.manifest['name']}': cannot bind symbol "
                    f"'{s}' ({sym['kind']}): it is not a dimension of any "
                    "input tensor")
        return env

    def _unbound_symbol_argument(self, s, values):
        """Raises the error of the argument that should have given the
        symbol ``s``: an input tensor parameter whose shape names ``s``
        got something other than a tensor (TypeError) or a tensor of
        another number of dimensions (ValueError), so the message names
        the argument rather than the symbol."""
        name = self.manifest["name"]
        for p in self.input_params:
            if p["kind"] != "tensor" or \
                    not any(isinstance(e, str) and s in extent_names(e)
                            for e in p["shape"]):
                continue
            t = values.get(p["name"])
            what = f"argument '{p['name']}' of kernel '{name}'"
            if not (tz.is_torch(t) or tz.is_numpy(t)):
                raise TypeError(f"{what} must be a tensor, got "
                                f"{type(t).__name__}")
            if len(t.shape) != len(p["shape"]):
                raise ValueError(
                    f"{what} must have {len(p['shape'])} dimension(s) "
                    f"{_fmt_shape(p['shape'])}, got shape "
                    f"{_fmt_shape(list(t.shape))}")

    def _solve_symbol(self, s, values, env):
        """``s`` from a dimension that is an affine expression of it and of
        symbols already bound (``A: T.Tensor((n * 4,), ...)`` called with
        16 elements binds n = 4), or None. _check_tensor then checks
        every dimension, so a value that fits one and not another is a
        shape error, as for plain symbols."""
        for p in self.input_params:
            if p["kind"] != "tensor":
                continue
            t = values.get(p["name"])
            if not (tz.is_torch(t) or tz.is_numpy(t)) or \
                    len(t.shape) != len(p["shape"]):
                continue
            for dim, e in zip(t.shape, p["shape"]):
                if isinstance(e, str) and s in extent_names(e) and \
                        extent_names(e) - {s} <= set(env):
                    v = solve_affine_extent(e, s, int(dim), env)
                    if v is not None:
                        return v
        return None

    def _check_tensor(self, p, t, env, device):
        name = self.manifest["name"]
        what = f"argument '{p['name']}' of kernel '{name}'"
        if not (tz.is_torch(t) or tz.is_numpy(t)):
            raise TypeError(f"{what} must be a tensor, got "
                            f"{type(t).__name__}")
        if tz.is_torch(t) and t.layout != tz.torch.strided:
            # A sparse or other non-dense layout has no data pointer of
            # its elements (torch raised "Cannot access data pointer").
            raise TypeError(f"{what} must be a dense (strided) tensor, got "
                            f"layout {t.layout} (use .to_dense())")
        if tz.is_numpy(t) and self.target != "cpu":
            raise TypeError(f"{what}: NumPy arrays only run on the cpu "
                            f"target; this kernel is for '{self.target}' "
                            "(pass a CUDA torch tensor)")
        if not tz.matches_dtype(t, p["dtype"]):
            raise TypeError(f"{what} must have dtype {p['dtype']}, got "
                            f"{tz.describe_dtype(t)}")
        expect = tz.storage_shape([eval_extent(e, env) for e in p["shape"]],
                                  p["dtype"])
        shape = list(t.shape)
        if _extra_unit_dims(shape, len(expect)):
            # TileLang's adapter checks the dimensions the parameter
            # declares, by index: a (n, 1) tensor passes for (n,) (the
            # fused-MoE example's routed weights). Only trailing 1s are
            # taken: the elements are then the same, in the same order.
            shape = shape[:len(expect)]
        if shape != expect:
            sym = any(isinstance(e, str) for e in p["shape"])
            detail = f" = {_fmt_shape(p['shape'])}" if sym else ""
            raise ValueError(f"{what} must have shape {_fmt_shape(expect)}"
                             f"{detail}, got {_fmt_shape(list(t.shape))}")
        dev = tz.device_of(t)
        if dev != device:
            raise ValueError(f"{what} is on {dev}, but the other arguments "
                             f"are on {device}")

    def _device(self, values):
        devices = [tz.device_of(values[p["name"]]) for p in self.input_params
                   if p["kind"] == "tensor" and
                   (tz.is_torch(values[p["name"]]) or
                    tz.is_numpy(values[p["name"]]))]
        if self.target == "cpu":
            for d in devices:
                if d != "cpu":
                    raise ValueError(
                        f"kernel '{self.manifest['name']}' was built for the "
                        f"cpu target, but an argument is on {d}; move it to "
                        "the CPU or build for a CUDA target")
            return "cpu"
        if self.target.startswith("hip"):
            return self._hip_device(devices)
        for d in devices:
            if not d.startswith("cuda"):
                raise ValueError(
                    f"kernel '{self.manifest['name']}' was built for "
                    f"{self.target}, but an argument is on {d}; pass CUDA "
                    "tensors")
        if devices:
            return devices[0]
        import torch
        return f"cuda:{torch.cuda.current_device()}"

    def _hip_device(self, devices):
        """The device of a HIP kernel's call: ROCm torch's ``cuda`` device
        (an AMD GPU), or ``cpu`` where the HIP runtime simulates
        (``TLC_HIP_DEVICE=sim``). The HIP device is opened first, so a
        missing HIP runtime or GPU is the error, whatever the tensors."""
        index = next((int(d.split(":")[1]) for d in devices
                      if d.startswith("cuda:")), None)
        if index is None and not devices:
            index = self._torch_current_device()
        _, simulated = hip_context(index or 0)
        name = self.manifest["name"]
        for d in devices:
            if simulated and d != "cpu":
                raise ValueError(
                    f"kernel '{name}' runs on the sim device "
                    f"(TLC_HIP_DEVICE=sim), which takes CPU tensors, but an "
                    f"argument is on {d}")
            if not simulated and not d.startswith("cuda"):
                raise ValueError(
                    f"kernel '{name}' was built for {self.target}, but an "
                    f"argument is on {d}; pass tensors on ROCm torch's "
                    "'cuda' device (an AMD GPU)")
        if simulated:
            return "cpu"
        return devices[0] if devices else f"cuda:{index or 0}"

    @staticmethod
    def _torch_current_device():
        try:
            import torch
            return torch.cuda.current_device()
        except (ImportError, AssertionError, RuntimeError):
            return 0

    def prepare_for_execution(self):
        """Loads the kernel for the device a call would use now (the
        current CUDA / ROCm device, or the host), so that its first launch
        does not; strict compilation does this when it compiles. Returns
        the kernel."""
        if self.target == "cpu":
            device = "cpu"
        elif self.target.startswith("hip"):
            device = self._hip_device([])
        else:
            device = f"cuda:{self._torch_current_device()}"
        self._launcher(device)
        return self

    def __call__(self, *args, **kwargs):
        compile_phase.before_launch()
        args, kwargs, provided = self._split_outputs(args, kwargs)
        if _verify_cpu.wanted(self):  # TLC_VERIFY_CPU: also run on cpu
            return _verify_cpu.checked_call(self, args, kwargs, provided)
        return self._call(args, kwargs, provided)

    def _call(self, args, kwargs, provided):
        """The call with the inputs ``args``/``kwargs`` and the caller's
        output buffers ``provided`` ({parameter index: tensor}; the others
        are allocated)."""
        values = self._collect(args, kwargs)
        device = self._device(values)
        env = self._bind_symbols(values, provided)
        self._check_grids(env)
        use_numpy = any(tz.is_numpy(v) for v in values.values())
        keep = []  # ctypes objects and copies alive until the launch ends
        cuda = self.target != "cpu"
        args_out = [None] * len(self.params)
        outputs = []
        write_back = []  # (caller's non-contiguous view, dense copy)
        for i in provided:
            # Checked as inputs are, before anything runs.
            self._check_tensor(self.params[i], provided[i], env, device)
            if "strides" in self.params[i]:
                self._check_strides(self.params[i], provided[i], env)
        for i, p in enumerate(self.params):
            if i in provided:
                v = provided[i]
                if "strides" not in p and not tz.is_contiguous(v):
                    values_and_outputs = dict(values)
                    values_and_outputs.update(
                        {self.params[j]["name"]: provided[j]
                         for j in provided})
                    self._check_no_overlap(p, v, values_and_outputs)
                    dense = tz.contiguous(v)
                    write_back.append((v, dense))
                    v = dense
                outputs.append((i, provided[i]))
                args_out[i] = v
                continue
            if i in self._outputs:
                if p["kind"] != "tensor":
                    raise TypeError(f"output '{p['name']}' is a scalar")
                shape = [eval_extent(e, env) for e in p["shape"]]
                if "strides" in p:
                    t = tz.empty_strided(
                        shape, [eval_extent(e, env) for e in p["strides"]],
                        p["dtype"], use_numpy, device)
                else:
                    t = tz.empty(shape, p["dtype"], use_numpy, device)
                _verify_cpu.fill_output(t, p["dtype"])
                outputs.append((i, t))
                args_out[i] = t
                continue
            v = values[p["name"]]
            if p["kind"] == "tensor" and v is None:
                # TileLang's null tensor: a null pointer, for a parameter
                # the kernel does not touch on this call (a flag argument
                # guards it); its symbols must come from other arguments.
                args_out[i] = None
                continue
            if p.get("pointer") and isinstance(v, numbers.Integral) and \
                    not isinstance(v, bool):
                # A `T.ptr` parameter takes an address (data_ptr()) too;
                # the caller vouches for what it points at.
                args_out[i] = int(v)
                continue
            if p["kind"] == "tensor":
                self._check_tensor(p, v, env, device)
                if "strides" in p:
                    # The kernel addresses the caller's view at the
                    # strides it declares (T.StridedTensor): passed as it
                    # is, when its strides are those.
                    self._check_strides(p, v, env)
                    args_out[i] = v
                    continue
                if not tz.is_contiguous(v):
                    # The kernel gets a dense copy (its manifest describes
                    # dense tensors); one it writes is copied back into
                    # the caller's view after the launch.
                    dense = tz.contiguous(v)
                    if p.get("role", "in") != "in":
                        self._check_no_overlap(p, v, values)
                        write_back.append((v, dense))
                    v = dense
                args_out[i] = v
            else:
                args_out[i] = v
        pointers = []
        for i, p in enumerate(self.params):
            v = args_out[i]
            if p["kind"] == "tensor":
                keep.append(v)
                addr = 0 if v is None else v if isinstance(v, int) else \
                    tz.data_ptr(v)
                pointers.append(ctypes.c_uint64(addr) if cuda else addr)
                continue
            if scalar_value(p["dtype"], 0) is None:
                raise TypeError(f"scalar parameter '{p['name']}' has dtype "
                                f"{p['dtype']}, which the package cannot pass")
            if (tz.is_torch(v) and v.numel() == 1) or \
                    (tz.is_numpy(v) and v.size == 1):
                v = v.item()
            what = f"argument '{p['name']}' of kernel " \
                f"'{self.manifest['name']}'"
            if not isinstance(v, numbers.Real):
                raise TypeError(f"{what} must be a number ({p['dtype']}), "
                                f"got {type(v).__name__}")
            if not p["dtype"].startswith(("float", "bfloat")):
                if not isinstance(v, numbers.Integral) and \
                        not float(v).is_integer():
                    raise TypeError(f"{what} is an integer ({p['dtype']}), "
                                    f"got {v!r}")
                v = int(v)
            else:
                v = float(v)
            c = scalar_value(p["dtype"], v)
            keep.append(c)
            pointers.append(c if cuda else ctypes.addressof(c))
        symbols = [env[s["name"]] for s in self.manifest.get("symbols", [])]
        launcher = self._launcher(device)
        if cuda:
            self._launch_cuda(launcher, pointers, symbols, env, device)
        else:
            launcher.launch(pointers, symbols)
        for view, dense in write_back:
            tz.copy_into(view, dense)
        del keep
        # In the order of `_outputs`: the return statement's, for outputs
        # a body returns (not the parameters').
        made = dict(outputs)
        result = [made[i] for i in self._outputs]
        if not result:
            return None
        if len(result) == 1:
            return result[0]
        return tuple(result) if self._eager else result

    def _check_strides(self, p, t, env):
        """A tensor for a parameter with declared strides must have them
        (in every dimension of more than one element, where a stride
        makes a difference): the kernel reads it at those strides."""
        expect = [eval_extent(e, env) for e in p["strides"]]
        got = tz.strides_of(t)
        if any(n > 1 and g != e for n, g, e in zip(t.shape, got, expect)):
            raise ValueError(
                f"argument '{p['name']}' of kernel '{self.manifest['name']}'"
                f" has strides {tuple(got)}, but the kernel declares "
                f"strides {tuple(expect)}"
                + (f" = {tuple(p['strides'])}"
                   if any(isinstance(e, str) for e in p["strides"]) else "")
                + " (T.StridedTensor); pass a view with those strides")

    def _check_no_overlap(self, p, view, values):
        """A written non-contiguous argument runs on a dense copy that is
        copied back after the launch: refused where it shares memory with
        another tensor argument, whose reads would miss the kernel's
        writes (the kernel itself would see them)."""
        for name, other in values.items():
            if name == p["name"] or other is None or \
                    not (tz.is_torch(other) or tz.is_numpy(other)):
                continue
            if tz.shares_memory(view, other):
                raise ValueError(
                    f"argument '{p['name']}' of kernel "
                    f"'{self.manifest['name']}' is written by the kernel, "
                    f"is not contiguous and shares memory with argument "
                    f"'{name}'; pass a contiguous tensor")

    def _launch_cuda(self, launcher, values, symbols, env, device):
        if getattr(launcher, "simulated", False):
            # HIP on the sim device: host memory, its own workspaces, run
            # to completion.
            launcher.launch(values, symbols, symbol_env=env)
            return
        import torch
        stream = torch.cuda.current_stream(torch.device(device)).cuda_stream
        spaces = {}
        buffers = []
        for w in self.manifest.get("workspaces", []):
            size = eval_extent(w["bytes"], env)
            buf = torch.full((max(1, size),), 0xFF, dtype=torch.uint8,
                             device=device)
            buffers.append(buf)
            spaces[w["name"]] = buf.data_ptr()
        launcher.launch(values, symbols, stream=stream, workspaces=spaces,
                        symbol_env=env)
        # The caching allocator may hand the workspaces out again only after
        # the stream has finished with them.
        for buf in buffers:
            buf.record_stream(torch.cuda.current_stream(torch.device(device)))


def out_idx_items(out_idx):
    """``out_idx`` (an int or a list / tuple of ints) as a list; ValueError
    for anything else."""
    def is_int(i):
        return isinstance(i, numbers.Integral) and not isinstance(i, bool)
    items = [out_idx] if is_int(out_idx) else out_idx
    if not isinstance(items, (list, tuple)) or not all(map(is_int, items)):
        raise ValueError(f"out_idx must be an int or a list of integers, "
                         f"got {out_idx!r}")
    return list(items)


def _normalize_out_idx(out_idx, n):
    """The parameter positions ``out_idx`` (an int or a list of ints,
    negative from the end) names, each in ``[0, n)``; ValueError for
    anything else (a float or string element, an index out of range)."""
    if out_idx is None:
        return []
    items = out_idx_items(out_idx)
    result = []
    for i in items:
        if not -n <= i < n:
            raise ValueError(f"out_idx {i} is out of range: a kernel with {n} "
                             f"parameters takes indices between {-n} and "
                             f"{n - 1}")
        result.append(int(i) % n)
    return sorted(set(result))
