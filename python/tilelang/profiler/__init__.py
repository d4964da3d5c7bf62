"""Benchmarking and checking kernels: ``Profiler``, ``do_bench``."""

import contextlib
import enum
import numbers
import statistics
import time

from .. import _tensors as tz
from .._runtime import eval_extent


class TensorSupplyType(enum.Enum):
    """How the profiler fills input tensors."""
    Integer = 1
    Uniform = 2
    Normal = 3
    Randn = 4
    Zero = 5
    One = 6
    Auto = 7


# TileLang's other name of the same enum (its April 2025 rename; scripts of
# that time call `get_profiler(tensor_distribution=TensorDistribution.X)`).
TensorDistribution = TensorSupplyType


def _is_cuda_value(x):
    return tz.is_torch(x) and x.device.type == "cuda"


def _sync(cuda):
    if cuda:
        from ..utils import device
        device.device_synchronize()


# What do_bench returns of its timings (CUDA work timed with CUDA events,
# and CPU work with a monotonic clock).
_RETURN_MODES = ("mean", "min", "max", "median", "all")


def _quantile(ordered, q):
    """The ``q`` quantile of the sorted ``ordered``, interpolated linearly
    between the two nearest ranks."""
    pos = q * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


# The timing methods TileLang names (``backend``). CUDA work is timed with
# CUDA events whichever is named (``cupti`` / ``cudagraph`` need TileLang's
# profiler hooks), host work with a monotonic clock (TileLang's ``wall``).
_BACKENDS = ("event", "cupti", "cudagraph", "wall")


def _bench_device(device):
    """``(is_cuda, cuda index or None)`` of do_bench's ``device``: an int
    (a CUDA ordinal), a string or a ``torch.device``; ValueError for a kind
    tlc runs nothing on (``mps``, ``meta``, ...)."""
    import torch
    if isinstance(device, bool) or not isinstance(
            device, (int, str, torch.device)):
        raise ValueError(f"do_bench: device must be an int, a str or a "
                         f"torch.device, got {device!r}")
    try:
        dev = torch.device("cuda", device) if isinstance(device, int) \
            else torch.device(device)
    except (RuntimeError, ValueError) as e:
        raise ValueError(f"do_bench: bad device {device!r}: {e}") from None
    if dev.type == "cpu":
        return False, None
    if dev.type == "cuda":
        return True, dev.index
    raise ValueError(f"do_bench: profiling is not supported on device "
                     f"{dev} (cpu or cuda)")


def do_bench(fn, warmup=25, rep=100, _n_warmup=0, _n_repeat=0,
             quantiles=None, fast_flush=True, backend="event",
             return_mode="mean", device=None, cache_size=256,
             early_stop_baseline=None, grad_to_none=None,
             input_tensors=None, cuda=None):
    """Runs ``fn()`` repeatedly; returns its time in milliseconds (the
    mean, or ``return_mode`` min/max/median, or the ``quantiles``).

    ``warmup`` and ``rep`` are time budgets in ms, as in TileLang;
    ``_n_warmup`` / ``_n_repeat`` override them with run counts. CUDA work
    is timed with CUDA events on the current stream (of ``device``'s GPU
    when it names one), with the L2 cache flushed before each timed run by
    zeroing a ``cache_size`` MB buffer (int32 with ``fast_flush``, else
    int8); CPU work (``device="cpu"``, or no GPU in use) with a monotonic
    clock, unflushed. ``early_stop_baseline`` (ms): when the first estimate
    is slower, that estimate is returned without the full timing.
    ``grad_to_none``: tensors whose ``.grad`` is cleared before each run.
    """
    if backend not in _BACKENDS:
        raise ValueError(f"do_bench: backend must be one of "
                         f"{', '.join(_BACKENDS)}, got {backend!r}")
    if return_mode not in _RETURN_MODES:
        raise ValueError(f"do_bench: return_mode must be one of "
                         f"{', '.join(_RETURN_MODES)}, got {return_mode!r}")
    if quantiles is not None:
        quantiles = list(quantiles) if isinstance(quantiles, (list, tuple)) \
            else None
        if not quantiles or not all(
                isinstance(q, numbers.Real) and not isinstance(q, bool) and
                0 <= q <= 1 for q in quantiles):
            raise ValueError("do_bench: quantiles must be a non-empty list of "
                             "numbers in [0, 1]")
    if isinstance(cache_size, bool) or not isinstance(
            cache_size, numbers.Real) or not cache_size > 0:
        raise ValueError(f"do_bench: cache_size must be a positive number "
                         f"of MB, got {cache_size!r}")
    if early_stop_baseline is not None and (
            isinstance(early_stop_baseline, bool) or
            not isinstance(early_stop_baseline, numbers.Real)):
        raise ValueError(f"do_bench: early_stop_baseline must be a number "
                         f"of ms, got {early_stop_baseline!r}")
    grads = list(grad_to_none) if grad_to_none is not None else []
    index = None
    if device is not None:
        on_cuda, index = _bench_device(device)
        if cuda is not None and cuda != on_cuda:
            raise ValueError(
                f"do_bench: device {device!r} does not match the kernel's "
                f"target ({'a CUDA GPU' if cuda else 'the CPU'})")
        cuda = on_cuda
    call = (lambda: fn(*input_tensors)) if input_tensors is not None else fn
    if cuda is None:
        try:
            import torch
            cuda = torch.cuda.is_available() and torch.cuda.is_initialized()
        except ImportError:
            cuda = False
    scope = contextlib.nullcontext()
    if cuda and index is not None:
        import torch
        if torch.cuda.is_available() and index != torch.cuda.current_device():
            scope = torch.cuda.device(index)
    with scope:
        return _timed(call, cuda, warmup, rep, _n_warmup, _n_repeat,
                      quantiles, return_mode, fast_flush, cache_size,
                      early_stop_baseline, grads)


def _result(times, quantiles, return_mode):
    """What do_bench returns of the run times ``times`` (ms)."""
    if quantiles is not None:
        # Linearly interpolated, as torch.quantile; one quantile is a
        # number, several a list (TileLang's and Triton's do_bench).
        values = [_quantile(sorted(times), q) for q in quantiles]
        return values[0] if len(values) == 1 else values
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return statistics.median(times)
    if return_mode == "all":
        return times
    return statistics.fmean(times)


def _timed(call, cuda, warmup, rep, n_warmup, n_repeat, quantiles,
           return_mode, fast_flush, cache_size, early_stop_baseline, grads):
    # Estimate one run.
    call()
    _sync(cuda)
    start = time.perf_counter()
    for _ in range(3):
        call()
    _sync(cuda)
    est_ms = max((time.perf_counter() - start) * 1000 / 3, 1e-4)
    if early_stop_baseline is not None and est_ms > early_stop_baseline:
        return _result([est_ms], quantiles, return_mode)
    n_warmup = n_warmup or max(1, int(warmup / est_ms))
    n_repeat = n_repeat or max(1, int(rep / est_ms))
    n_warmup, n_repeat = min(n_warmup, 1000), min(n_repeat, 1000)
    for _ in range(n_warmup):
        call()
    _sync(cuda)
    times = []
    if cuda:
        from ..utils import device
        flush = None
        import torch
        if torch.cuda.is_available():
            size = int(cache_size * 2**20)
            flush = torch.empty(size // 4, dtype=torch.int32, device="cuda") \
                if fast_flush else torch.empty(size, dtype=torch.int8,
                                               device="cuda")
            if not flush.is_cuda:  # a host stand-in for torch.cuda
                flush = None
        events = [(device.Event(enable_timing=True),
                   device.Event(enable_timing=True))
                  for _ in range(n_repeat)]
        for s, e in events:
            for g in grads:
                g.grad = None
            if flush is not None:
                flush.zero_()
            s.record()
            call()
            e.record()
        device.device_synchronize()
        times = [s.elapsed_time(e) for s, e in events]
    else:
        for _ in range(n_repeat):
            for g in grads:
                g.grad = None
            t0 = time.perf_counter()
            call()
            times.append((time.perf_counter() - t0) * 1000)
    return _result(times, quantiles, return_mode)


def supply_tensor(param, env, supply_type, device):
    """A random input tensor for manifest parameter ``param``, drawn as
    TileLang's profiler draws it: ``Auto`` is uniform in [-1, 1) for
    float16/bfloat16/float32, integers in [-2, 2] for other signed types and
    float64, [0, 2] for unsigned ones, {0, 1} for bool and integers in
    [-128, 127] for float8; ``Integer`` the same integers (float types
    included); ``Uniform`` uniform in [-1, 1); ``Normal`` normal with mean
    -1 and standard deviation 1; ``Randn`` standard normal; int8 under
    ``Uniform``/``Normal`` is all ones."""
    import torch
    shape = [eval_extent(e, env) for e in param["shape"]]
    name = param["dtype"]
    dtype = tz.torch_dtype(name)
    unsigned = name.startswith("uint")
    float8 = name.startswith("float8")
    if supply_type == TensorSupplyType.Zero:
        return torch.zeros(shape, dtype=dtype, device=device)
    if supply_type == TensorSupplyType.One:
        return torch.ones(shape, dtype=dtype, device=device)

    def integers():
        if dtype == torch.bool:
            return torch.randint(0, 2, shape, device=device).bool()
        if unsigned:
            return torch.randint(0, 3, shape, device=device).to(dtype)
        if float8:
            return torch.randint(-128, 128, shape, device=device,
                                 dtype=torch.int8).to(dtype)
        return torch.randint(-2, 3, shape, device=device).to(dtype)

    def uniform():
        return torch.empty(shape, dtype=torch.float32,
                           device=device).uniform_(-1.0, 1.0).to(dtype)

    if supply_type == TensorSupplyType.Auto:
        if dtype in (torch.float16, torch.bfloat16, torch.float32):
            return uniform()
        return integers()
    if supply_type == TensorSupplyType.Integer or not (
            dtype.is_floating_point or dtype == torch.int8):
        return integers()
    if dtype == torch.int8:
        return torch.ones(shape, dtype=dtype, device=device)
    if supply_type == TensorSupplyType.Uniform:
        return uniform()
    if supply_type == TensorSupplyType.Normal:
        return torch.empty(shape, dtype=torch.float32,
                           device=device).normal_(-1.0, 1.0).to(dtype)
    return torch.randn(shape, dtype=torch.float32, device=device).to(dtype)


def supply_scalar(param, supply_type):
    """A Python number for scalar manifest parameter ``param``: one element
    drawn as :func:`supply_tensor` draws a tensor's (on the CPU), as a
    ``bool``, ``int`` or ``float`` by the dtype's family."""
    value = supply_tensor({"shape": [], "dtype": param["dtype"]}, {},
                          supply_type, "cpu").item()
    name = str(param["dtype"])
    if name == "bool":
        return bool(value)
    if name.startswith(("int", "uint")):
        return int(value)
    return float(value)


class Profiler:
    """``kernel.get_profiler(tensor_supply_type=...)``: makes inputs for a
    kernel, benchmarks it and checks it against a reference program.

    Older scripts make it themselves from what ``tilelang.lower`` returned:
    ``Profiler(mod, params, result_idx, supply_type)`` (``result_idx``: the
    parameters the call allocates and returns). It is then callable like the
    kernel, and ``.func``, ``.params`` and ``.result_idx`` are what those
    scripts read.
    """

    def __init__(self, kernel, supply_type=TensorSupplyType.Auto,
                 symbols=None, legacy_supply_type=None, result_idx=None):
        if isinstance(supply_type, (list, tuple)):
            # Profiler(mod, params, result_idx, supply_type)
            if result_idx is None:
                result_idx = symbols
            symbols = None
            supply_type = legacy_supply_type or TensorSupplyType.Auto
        if result_idx is not None:
            kernel = kernel.with_out_idx(result_idx)
        if not isinstance(supply_type, TensorSupplyType):
            raise TypeError("tensor_supply_type must be a TensorSupplyType, "
                            f"got {supply_type!r}")
        self.kernel = kernel
        self.supply_type = supply_type
        self.symbols = dict(symbols or {})
        self._inputs = None
        self._by_symbols = {}

    @property
    def func(self):
        """The kernel: called with the inputs, returns the outputs."""
        return self.kernel

    @property
    def params(self):
        """Every parameter of the kernel (``.shape``, ``.dtype``)."""
        return self.kernel.kernel_params

    @property
    def result_idx(self):
        return self.kernel.result_idx

    def __call__(self, *args, **kwargs):
        return self.kernel(*args, **kwargs)

    @property
    def device(self):
        if self.kernel.target == "cpu":
            return "cpu"
        if self.kernel.target.startswith("hip"):
            # ROCm torch's "cuda" device, or "cpu" on the sim device
            # (TLC_HIP_DEVICE=sim), whose kernels take CPU tensors.
            return self.kernel._hip_device([])
        import torch
        return f"cuda:{torch.cuda.current_device()}"

    def _supply_inputs(self, symbols=None):
        env = dict(self.symbols if symbols is None else symbols)
        missing = [s["name"] for s in self.kernel.manifest.get("symbols", [])
                   if s["name"] not in env]
        if missing:
            script = {v: k for k, v in self.kernel.symbol_aliases.items()}
            missing = [f"{script[m]} (parameter {m})" if m in script else m
                       for m in missing]
            raise ValueError(
                f"kernel '{self.kernel.manifest['name']}' has unbound symbols "
                f"{', '.join(missing)}: pass input_tensors, or "
                "get_profiler().with_symbols(name=value)")
        return [supply_tensor(p, env, self.supply_type, self.device)
                if p["kind"] == "tensor" else 1
                for p in self.kernel.input_params]

    def with_symbols(self, **symbols):
        self.symbols.update(symbols)
        self._inputs = None
        return self

    def _get_inputs(self, input_tensors=None, symbols=None):
        """The call's inputs: ``input_tensors``, else tensors supplied for
        the profiler's symbols updated by ``symbols`` (TileLang's
        ``dynamic_symbolic_constraints``; one set kept per binding)."""
        if input_tensors is not None:
            return list(input_tensors)
        if symbols:
            aliases = self.kernel.symbol_aliases
            env = {**self.symbols,
                   **{aliases.get(k, k): v for k, v in symbols.items()}}
            key = tuple(sorted(env.items()))
            cached = self._by_symbols.get(key)
            if cached is None:
                cached = self._by_symbols[key] = self._supply_inputs(env)
            return cached
        if self._inputs is None:
            self._inputs = self._supply_inputs()
        return self._inputs

    def run_once(self, func=None):
        inputs = self._get_inputs()
        return (func or self.kernel)(*inputs)

    def do_bench(self, func=None, warmup=25, rep=100, n_warmup=0, n_repeat=0,
                 input_tensors=None, backend="event", quantiles=None,
                 return_mode="mean", profiler=None,
                 dynamic_symbolic_constraints=None, device=None,
                 fast_flush=True, cache_size=256, early_stop_baseline=None,
                 grad_to_none=None):
        """Median-free TileLang-style timing (ms) of the kernel, or of
        ``func`` (e.g. a reference program) on the same inputs.
        ``profiler`` is older TileLang's name for ``backend``; CUDA work is
        timed with CUDA events whichever backend is named.
        ``dynamic_symbolic_constraints`` (``{"m": 256}``) gives the
        symbolic extents of the supplied inputs for this call (a symbol
        left unbound is a ``ValueError`` naming it); ``input_tensors``
        wins over it. ``device``, ``fast_flush``, ``cache_size``,
        ``early_stop_baseline`` and ``grad_to_none`` are
        :func:`do_bench`'s; a ``device`` of another kind than the kernel's
        target (``"cuda"`` for a CPU kernel) is a ValueError."""
        inputs = self._get_inputs(input_tensors,
                                  dynamic_symbolic_constraints)
        target = func or self.kernel
        # A HIP kernel on the sim device is timed by the host's clock (the
        # simulation's wall time, not a GPU's).
        cuda = self.device != "cpu"
        return do_bench(lambda: target(*inputs), warmup=warmup, rep=rep,
                        _n_warmup=n_warmup, _n_repeat=n_repeat,
                        quantiles=quantiles, return_mode=return_mode,
                        device=device, fast_flush=fast_flush,
                        cache_size=cache_size,
                        early_stop_baseline=early_stop_baseline,
                        grad_to_none=grad_to_none, cuda=cuda)

    def _outputs_and_reference(self, reference_program, input_tensors):
        """``(kernel outputs, reference outputs)``, each a list, of one run
        of both on the same inputs."""
        inputs = self._get_inputs(input_tensors)
        # A kernel writing in place (no allocated outputs) must not change
        # the inputs the reference sees.
        snapshot = [x.clone() if tz.is_torch(x) else x for x in inputs]
        outs = self.kernel(*inputs)
        if outs is None:
            outs = [inputs[i] for i, p in enumerate(self.kernel.input_params)
                    if p.get("role", "in") != "in"]
        ref = reference_program(*snapshot)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        refs = list(ref) if isinstance(ref, (list, tuple)) else [ref]
        return outs, refs

    def manual_assert_close(self, reference_program, input_tensors=None,
                            manual_check_prog=None):
        """Runs the kernel and ``reference_program`` on the same inputs and
        calls ``manual_check_prog(outputs, reference_outputs)`` (two lists)
        to compare them; what it raises is the failure."""
        if not callable(manual_check_prog):
            raise ValueError("manual_assert_close needs manual_check_prog, a "
                             "function of (outputs, reference_outputs)")
        outs, refs = self._outputs_and_reference(reference_program,
                                                 input_tensors)
        manual_check_prog(outs, refs)
        return True

    def assert_allclose(self, reference_program, input_tensors=None,
                        atol=1e-2, rtol=1e-2, max_mismatched_ratio=0.01):
        """Runs the kernel and ``reference_program`` on the same inputs and
        compares every output (AssertionError with the details)."""
        from ..testing import torch_assert_close
        outs, refs = self._outputs_and_reference(reference_program,
                                                 input_tensors)
        if len(outs) != len(refs):
            raise AssertionError(f"the kernel has {len(outs)} output(s), the "
                                 f"reference program returned {len(refs)}")
        for i, (o, r) in enumerate(zip(outs, refs)):
            torch_assert_close(o, r, rtol=rtol, atol=atol,
                               max_mismatched_ratio=max_mismatched_ratio,
                               base_name=f"output {i}",
                               ref_name="reference")
        return True

    def assert_consistent(self, repeat=10):
        first = self.run_once()
        for _ in range(repeat):
            again = self.run_once()
            from .testing import torch_assert_close
            a = first if not isinstance(first, (list, tuple)) else first[0]
            b = again if not isinstance(again, (list, tuple)) else again[0]
            torch_assert_close(a, b, rtol=0, atol=0)
