"""Differential mode: GPU kernel calls checked against the ``cpu`` target.

With ``TLC_VERIFY_CPU=1`` in the environment (or ``tilelang.tlc_verify_cpu
(True)``), a call of a kernel built for a CUDA target also runs the same
instance built for tlc's ``cpu`` target on host copies of the call's
arguments, and compares what the two wrote::

    [tlc-verify-cpu] gemm instance=main (M=1024, N=1024) call 1: 1 written
    tensor (C) and 2 inputs: max_abs=3.1e-03 rel_err=2.2e-04 agree

The script builds its own inputs, so kernels whose inputs have a contract
(cu_seqlens prefix sums, paged KV block tables, top-k indices, group sizes)
are checked on valid inputs, and extents bound at run time (``T.dynamic``)
are bound from the call's shapes as for the GPU call.

What is compared, and how (the rules of ``tlc-run --verify``,
``runtime/tools/tlc-run/tlc-run.cpp`` and ``runtime/lib/DType.cpp``):

* every tensor the kernel may write: the outputs the call allocates
  (``out_idx``, ``T.empty``), which both sides first fill with tlc-run's NaN
  poison (float dtypes; integers with 0) so an element left unwritten is
  seen, and every tensor argument (in-place outputs; one the kernel only
  reads compares equal unless something overwrote it);
* float elements agree when ``|gpu - cpu| <= atol + rtol * |cpu|`` with the
  dtype's tolerances (:data:`TOLERANCES`), or when both are NaN, or equal
  infinities; a NaN on one side only differs. Poison left on one side only
  is a difference ("unwritten on the GPU/CPU"); on both, an agreement (the
  kernel leaves those elements at these inputs). Integers and bools must be
  equal. ``max_abs`` is the largest ``|gpu - cpu|`` over finite pairs and
  ``rel_err`` is ``||gpu - cpu||_2 / ||cpu||_2`` over them, as tlc-run
  prints them.

Order-free outputs (top-k indices placed at positions taken with
``T.atomic_add(..., return_prev=True)``: the order is the order threads
reach the atomic, not deterministic on the GPU) cannot be compared element
by element. ``TLC_VERIFY_CPU_SETS=NAME[,NAME...]`` (or
``tlc_verify_cpu(sets=[...])``) names the tensors to compare row by row as
multisets instead: both sides sorted along the last axis first (NaNs
last), as ``tlc-run --verify-as-set``. A name is a parameter name, or
``KERNEL:NAME`` for one kernel only; nothing is compared as a set unless
named.

Switches: ``TLC_VERIFY_CPU=1`` (report; the script goes on after a
difference), ``TLC_VERIFY_CPU=strict`` (a difference raises an
``AssertionError`` naming the kernel, the tensor and the first differing
index); ``TLC_VERIFY_CPU_CALLS=N`` checks each instance's first N calls
(default 1), so benchmark loops run at full speed after them. Calls inside
a CUDA graph capture are not checked (a note says so), nor are the
autotuner's calls of the configurations it times (``TLC_VERIFY_CPU_AUTOTUNE
=1`` checks them too; the kernel it returns is checked when the script
calls it). The CPU build goes
through the package's build cache (``tilelang._build.build``) and runs on
every core the process may use (``TLC_CPU_THREADS`` overrides). A summary
line is printed at exit; :func:`report` returns the counts.

The package does not run kernels on tlc's ``sim`` device (only ``tlc-run``
does), so only CUDA targets are checked; kernels built for ``cpu`` are not
(they are the reference), except in the test mode
(:func:`check_cpu_target`, or ``TLC_VERIFY_CPU_SELF=1``), which checks a
``cpu`` kernel against a second build of itself so the whole path runs
without a GPU (a CUDA script through tests/python/cuda_script_on_cpu.py).
"""

import atexit
import copy
import math
import os
import sys
import threading

from . import _tensors as tz

# (rtol, atol) per manifest dtype: tlc-run --verify's (runtime/lib/DType.cpp).
TOLERANCES = {
    "float16": (1e-2, 1e-2), "bfloat16": (2e-2, 2e-2),
    "float32": (1e-3, 1e-4), "tfloat32": (1e-2, 1e-2),
    "float64": (1e-7, 1e-9),
    "float8_e4m3": (1.25e-1, 1e-1), "float8_e4m3fn": (1.25e-1, 1e-1),
    "float8_e5m2": (2.5e-1, 1e-1), "float8_e4m3fnuz": (1.25e-1, 1e-1),
    "float8_e5m2fnuz": (2.5e-1, 1e-1), "float8_e8m0fnu": (5e-1, 1e-1),
}

# tlc-run's poison: a quiet NaN whose payload no arithmetic produces
# (DType::storeNaN); the other float dtypes have one NaN, so for them any
# NaN counts as poison. (bits, torch integer dtype name, NumPy one.)
POISON_BITS = {
    "float16": (0x7E5A, "int16", "uint16"),
    "bfloat16": (0x7FDA, "int16", "uint16"),
    "float32": (0x7FE5A5A5, "int32", "uint32"),
    "tfloat32": (0x7FE5A5A5, "int32", "uint32"),
    "float64": (0x7FFA5A5A5A5A5A5A, "int64", "uint64"),
    "float8_e5m2": (0x7D, "uint8", "uint8"),
}

_PREFIX = "[tlc-verify-cpu]"

_lock = threading.Lock()
_tls = threading.local()
_api_mode = [None]   # set by tlc_verify_cpu(); None: the environment's
_api_calls = [None]
_api_sets = [None]   # set by tlc_verify_cpu(sets=...)
_check_cpu = [False]
_calls = {}          # (artifact dir, instance) -> calls checked
_twins = {}          # (artifact dir, instance) -> JITKernel or error text
_noted = set()
# Called with (kernel, {name: tensor}) after the device call and before the
# comparison: tests plant differences here.
after_device_call = []
counts = {"checked": 0, "agree": 0, "differ": 0, "no_twin": 0,
          "twin_failed": 0, "not_checked": 0}


def _parse_mode(text):
    text = (text or "").strip().lower()
    if text in ("", "0", "false", "no", "off"):
        return None
    return "strict" if text == "strict" else "on"


def mode():
    """None (off), ``"on"`` or ``"strict"``."""
    if _api_mode[0] is not None:
        return _api_mode[0] or None
    return _parse_mode(os.environ.get("TLC_VERIFY_CPU"))


def call_limit():
    """How many calls of each instance are checked."""
    if _api_calls[0] is not None:
        return _api_calls[0]
    try:
        return max(0, int(os.environ.get("TLC_VERIFY_CPU_CALLS", "1")))
    except ValueError:
        return 1


def set_names():
    """The tensors compared as multisets per row (``KERNEL:NAME`` or
    ``NAME``): ``tlc_verify_cpu(sets=...)``, else ``TLC_VERIFY_CPU_SETS``."""
    if _api_sets[0] is not None:
        return set(_api_sets[0])
    text = os.environ.get("TLC_VERIFY_CPU_SETS", "")
    return {n.strip() for n in text.split(",") if n.strip()}


def _as_set(kernel, name):
    names = set_names()
    return name in names or f"{kernel.kernel_name}:{name}" in names


def sorted_rows(t):
    """``t`` with each row (the last axis) sorted ascending, NaNs last: a
    multiset view for order-free outputs."""
    if tz.is_torch(t):
        if t.dim() == 0:
            return t
        return t.detach().cpu().sort(dim=-1, stable=True).values
    import numpy
    t = numpy.asarray(t)
    return t if t.ndim == 0 else numpy.sort(t, axis=-1, kind="stable")


def tlc_verify_cpu(on=True, calls=None, sets=None):
    """Turns the differential mode on (``True``), off (``False``) or on
    with differences raising (``"strict"``), over ``TLC_VERIFY_CPU``;
    ``calls`` checks that many first calls of each instance (over
    ``TLC_VERIFY_CPU_CALLS``); ``sets`` names the tensors compared row by
    row as multisets (over ``TLC_VERIFY_CPU_SETS``; ``[]`` none). ``None``
    leaves the environment in charge."""
    if sets is not None:
        _api_sets[0] = [sets] if isinstance(sets, str) else list(sets)
    if on is None:
        _api_mode[0] = None
    elif on is True or on is False:
        _api_mode[0] = "on" if on else ""
    else:
        _api_mode[0] = _parse_mode(str(on)) or ""
    if calls is not None:
        _api_calls[0] = max(0, int(calls))


def check_cpu_target(on=True):
    """Test mode: kernels built for ``cpu`` are checked too (against a
    second build of the same instance, run on copies)."""
    _check_cpu[0] = bool(on)


def report():
    """The counts so far: calls checked, agreeing, differing, without a
    CPU twin (build failed), whose twin failed to run, not checked."""
    return dict(counts)


def reset():
    """Forgets the calls, twins and counts (tests)."""
    with _lock:
        _calls.clear()
        _twins.clear()
        _noted.clear()
        for k in counts:
            counts[k] = 0


def _say(text):
    print(f"{_PREFIX} {text}", file=sys.stderr, flush=True)


@atexit.register
def _summary():
    if not any(counts.values()):
        return
    _say(f"summary: {counts['checked']} call(s) checked: {counts['agree']} "
         f"agree, {counts['differ']} differ; {counts['no_twin']} without a "
         f"CPU twin, {counts['twin_failed']} whose CPU twin failed, "
         f"{counts['not_checked']} not checkable")


# -- the hooks in JITKernel.__call__ ------------------------------------------

def wanted(kernel):
    """Whether this call of ``kernel`` goes through :func:`checked_call`."""
    if getattr(_tls, "inside", False) or mode() is None:
        return False
    return kernel.target != "cpu" or _check_cpu[0] or \
        os.environ.get("TLC_VERIFY_CPU_SELF", "") not in ("", "0")


def fill_output(t, dtype):
    """Fills an output the call allocated with tlc-run's poison while a
    checked call runs (both sides), so unwritten elements show."""
    if getattr(_tls, "poison", False):
        poison(t, dtype)


def poison(t, dtype):
    """Fills tensor or array ``t`` of manifest dtype ``dtype`` with
    tlc-run's poison: the NaN of :data:`POISON_BITS`, a NaN for the other
    float dtypes, 0 for integers and bools."""
    bits = POISON_BITS.get(dtype)
    if tz.is_torch(t):
        import torch
        if bits is not None:
            value = bits[0]
            if bits[1] != "uint8" and value >= 1 << (8 * t.element_size() - 1):
                value -= 1 << (8 * t.element_size())
            t.view(getattr(torch, bits[1])).fill_(value)
        elif t.is_floating_point():
            t.fill_(float("nan"))
        else:
            t.fill_(0)
        return
    import numpy
    if bits is not None:
        t.view(numpy.dtype(bits[2]))[...] = bits[0]
    elif t.dtype.kind == "f":
        t[...] = numpy.nan
    else:
        t[...] = 0


# -- the CPU twin -------------------------------------------------------------

def build_inputs(command):
    """``(source file, kernel, {name: -D text}, extra args)`` of the
    tlc-build command a kernel was built with; the extra args keep the
    pass configs and drop device-compiler flags and the target."""
    source, kernel, defines, extra = command[1], None, {}, []
    skip = False
    for arg in command[2:]:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg.startswith("--kernel="):
            kernel = arg[len("--kernel="):]
        elif arg.startswith("-D"):
            name, _, text = arg[2:].partition("=")
            defines[name] = text
        elif arg.startswith("--pass-config="):
            extra.append(arg)
    return source, kernel, defines, extra


def _same_params(a, b):
    """Why the CPU build's parameters differ from the GPU build's, or
    None."""
    if [p["name"] for p in a] != [p["name"] for p in b]:
        return "parameters " + ", ".join(p["name"] for p in b) + " vs " + \
            ", ".join(p["name"] for p in a)
    for p, q in zip(a, b):
        for key in ("kind", "dtype", "shape"):
            if p.get(key) != q.get(key):
                return f"parameter '{p['name']}' has {key} {q.get(key)} on " \
                    f"the cpu target, {p.get(key)} on the GPU"
    return None


def _uncount(build):
    """Takes a twin's build out of ``tilelang.build_stats`` (the
    script's own builds are what they count)."""
    from . import _build
    compiled = sum(1 for line in build.log.splitlines()
                   if line.startswith("wrote ") and
                   not line.endswith("(cached)"))
    with _build._stats_lock:
        _build.stats["builds"] -= 1
        _build.stats["cache_hits"] -= build.cache_hits
        _build.stats["compiled"] -= compiled


def twin_of(kernel):
    """The same instance built for the ``cpu`` target, as a kernel called
    like ``kernel`` (same outputs and inputs); raises ``RuntimeError`` when
    it cannot be built. Memoized per instance."""
    from . import _build
    key = (kernel.artifact_dir, kernel.manifest["name"])
    with _lock:
        known = _twins.get(key)
    if isinstance(known, str):
        raise RuntimeError(known)
    if known is not None:
        return known
    try:
        source, name, defines, extra = build_inputs(
            kernel.build_result.command)
        build = _build.build(source, name, defines, "cpu", extra_args=extra)
        _uncount(build)
        ms = build.manifests
        named = [m for m in ms if m.get("name") == kernel.manifest["name"]]
        if len(named) != 1 and len(ms) != 1:
            raise RuntimeError(f"the cpu build made {len(ms)} instances")
        manifest = named[0] if named else ms[0]
        why = _same_params(kernel.params, manifest["params"])
        if why:
            raise RuntimeError(why)
    except Exception as e:  # noqa: BLE001 - reported, the call goes on
        text = str(e).strip().splitlines()
        text = f"{type(e).__name__}: {text[0] if text else ''}"
        with _lock:
            _twins[key] = text
        raise RuntimeError(text) from None
    twin = copy.copy(kernel)
    twin.build_result = build
    twin.manifest = manifest
    twin.artifact_dir = build.out_dir
    twin.target = "cpu"
    twin.params = manifest["params"]
    twin._launchers = {}
    threads = os.environ.get("TLC_CPU_THREADS")
    if not threads:
        try:
            workers = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            workers = os.cpu_count() or 1
        twin._launcher("cpu").workers = workers
    with _lock:
        _twins[key] = twin
    return twin


# -- copies and comparison ----------------------------------------------------

def host_copy(v):
    """A host copy of a tensor argument at the same strides (a scalar or
    None as it is)."""
    if tz.is_torch(v):
        import torch
        t = v.detach()
        try:
            h = torch.empty_strided(tuple(t.shape), tuple(t.stride()),
                                    dtype=t.dtype, device="cpu")
            h.copy_(t)
            return h
        except RuntimeError:  # overlapping strides (an expand)
            return t.to("cpu", copy=True)
    if tz.is_numpy(v):
        return v.copy(order="K")
    return v


def _float64(t, dtype):
    """``(values as float64 NumPy, poison mask)`` of a host tensor."""
    import numpy
    if tz.is_torch(t):
        import torch
        t = t.detach().cpu()
        bits = POISON_BITS.get(dtype)
        values = t.to(torch.float64).numpy()
        if bits is not None:
            raw = t.contiguous().view(getattr(torch, bits[1])).numpy()
            mask = raw.view(numpy.dtype(bits[2])) == bits[0]
        else:
            mask = numpy.isnan(values)
        return values, mask
    bits = POISON_BITS.get(dtype)
    values = numpy.asarray(t).astype(numpy.float64)
    if bits is not None:
        mask = numpy.ascontiguousarray(t).view(numpy.dtype(bits[2])) == \
            bits[0]
    else:
        mask = numpy.isnan(values)
    return values, mask


def _integers(t):
    import numpy
    if tz.is_torch(t):
        import torch
        t = t.detach().cpu()
        if t.dtype == torch.bool:
            return t.numpy()
        try:
            return t.numpy()
        except TypeError:  # torch uint16/32/64: through int64 / bits
            return t.to(torch.int64).numpy()
    return numpy.asarray(t)


class Comparison:
    """One tensor compared: ``bad`` elements of ``total``, the first one's
    index and values, and the error measures over finite pairs."""

    def __init__(self, name, total):
        self.name = name
        self.total = total
        self.bad = 0
        self.first = None
        self.first_values = None
        self.max_abs = 0.0
        self.rel_err = 0.0
        self.gpu_unwritten = 0  # poison on the device side only
        self.cpu_unwritten = 0  # poison on the CPU side only
        self.both_unwritten = 0
        self.shape_error = None

    @property
    def ok(self):
        return self.bad == 0 and self.shape_error is None


def tolerances(param):
    """(rtol, atol) for a manifest parameter: its dtype's, or those of the
    coarser arithmetic the manifest's ``precision`` names (a float32 output
    of float32 gemms, whose products are tf32: ``tfloat32``), as tlc-run
    --verify chooses them; (None, None) for a dtype without tolerances."""
    own = TOLERANCES.get(param["dtype"])
    coarse = TOLERANCES.get(param.get("precision") or "")
    if own is None or coarse is None:
        return own or (None, None)
    return max(own[0], coarse[0]), max(own[1], coarse[1])


def compare(name, out, ref, dtype, rtol=None, atol=None):
    """Compares ``out`` (the device's result, on the host) with ``ref``
    (the CPU target's) element by element; returns a :class:`Comparison`."""
    import numpy
    shape_out, shape_ref = tuple(out.shape), tuple(ref.shape)
    c = Comparison(name, int(numpy.prod(shape_ref, dtype=numpy.int64)))
    if shape_out != shape_ref:
        c.shape_error = f"shape {shape_out} vs {shape_ref}"
        c.bad = c.total
        return c
    if dtype in TOLERANCES or dtype.startswith(("float", "bfloat")):
        rt, at = TOLERANCES.get(dtype, (0.0, 0.0))
        rtol = rt if rtol is None else rtol
        atol = at if atol is None else atol
        o, o_poison = _float64(out, dtype)
        r, r_poison = _float64(ref, dtype)
        o_nan, r_nan = numpy.isnan(o), numpy.isnan(r)
        inf = numpy.isinf(o) | numpy.isinf(r)
        finite = ~o_nan & ~r_nan & ~inf
        with numpy.errstate(invalid="ignore", over="ignore"):
            d = numpy.where(finite, numpy.abs(o - r), 0.0)
            bad = numpy.where(
                r_nan, ~o_nan,
                numpy.where(o_nan, True,
                            numpy.where(inf, o != r,
                                        d > atol + rtol * numpy.abs(r))))
        if finite.any():
            c.max_abs = float(d.max())
            num = float(numpy.sum(d * d))
            den = float(numpy.sum(numpy.where(finite, r * r, 0.0)))
            c.rel_err = math.sqrt(num / den) if den > 0 else math.sqrt(num)
        c.gpu_unwritten = int(numpy.sum(o_poison & ~r_poison))
        c.cpu_unwritten = int(numpy.sum(r_poison & ~o_poison))
        c.both_unwritten = int(numpy.sum(o_poison & r_poison))
    else:
        o, r = _integers(out), _integers(ref)
        bad = o != r
        if bad.any():
            diff = numpy.abs(o.astype(numpy.float64) - r.astype(numpy.float64))
            c.max_abs = float(diff.max())
        o = o.astype(numpy.float64)
        r = r.astype(numpy.float64)
    c.bad = int(numpy.count_nonzero(bad))
    if c.bad:
        first = numpy.argwhere(bad)[0]
        c.first = tuple(int(i) for i in first)
        c.first_values = (o[tuple(first)].item(), r[tuple(first)].item())
    return c


def _describe(c):
    if c.shape_error:
        return f"{c.name}: {c.shape_error}"
    text = f"{c.name}: {c.bad} of {c.total}"
    if c.first is not None:
        g, r = c.first_values
        text += f", first at {list(c.first)}: gpu {g:g} cpu {r:g}"
    if c.gpu_unwritten:
        text += f", {c.gpu_unwritten} unwritten on the GPU"
    if c.cpu_unwritten:
        text += f", {c.cpu_unwritten} unwritten on the CPU"
    return text


# -- one checked call ---------------------------------------------------------

def _as_list(result, n):
    if n == 0:
        return []
    if n == 1:
        return [result]
    return list(result)


def _label(kernel):
    defines = ", ".join(f"{k}={v}" for k, v in sorted(kernel.defines.items()))
    if len(defines) > 100:
        defines = defines[:97] + "..."
    return f"{kernel.kernel_name} instance={kernel.manifest['name']}" + \
        (f" ({defines})" if defines else "")


def _plain(kernel, args, kwargs, provided=None):
    _tls.inside = True
    try:
        return kernel._call(args, kwargs, provided or {})
    finally:
        _tls.inside = False


def _note_once(key, text):
    with _lock:
        if key in _noted:
            return
        _noted.add(key)
    _say(text)


def _capturing(kernel):
    if kernel.target == "cpu":
        return False
    try:
        import torch
        return bool(torch.cuda.is_current_stream_capturing())
    except Exception:  # noqa: BLE001 - no CUDA torch: not capturing
        return False


def _in_autotuner():
    """Whether the call comes from ``tilelang.autotuner`` (timing or
    checking a configuration)."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_globals.get("__name__") == "tilelang.autotuner":
            return True
        f = f.f_back
    return False


def checked_call(kernel, args, kwargs, provided=None):
    """Calls ``kernel`` as usual and checks the call against its CPU twin
    (while the instance has calls left to check); returns what the call
    returns. ``provided`` holds the output buffers the caller gave
    ({parameter index: tensor}; the twin gets host copies of them)."""
    provided = provided or {}
    key = (kernel.artifact_dir, kernel.manifest["name"])
    with _lock:
        n = _calls.get(key, 0)
    if n >= call_limit():
        return _plain(kernel, args, kwargs, provided)
    if _in_autotuner() and os.environ.get("TLC_VERIFY_CPU_AUTOTUNE", "") \
            in ("", "0"):
        _note_once(("tune",) + key, f"{_label(kernel)}: not checked while "
                   "the autotuner times configurations (the kernel it "
                   "returns is checked when the script calls it; "
                   "TLC_VERIFY_CPU_AUTOTUNE=1 checks these too)")
        return _plain(kernel, args, kwargs, provided)
    if _capturing(kernel):
        _note_once(("graph",) + key, f"{_label(kernel)}: not checked inside "
                   "a CUDA graph capture")
        with _lock:
            counts["not_checked"] += 1
        return _plain(kernel, args, kwargs, provided)
    with _lock:
        n = _calls.get(key, 0)
        if n >= call_limit():
            n = None
        else:
            _calls[key] = n + 1
    if n is None:
        return _plain(kernel, args, kwargs, provided)
    label = _label(kernel)
    values = kernel._collect(args, kwargs)
    for p in kernel.params:
        v = values.get(p["name"])
        if p.get("pointee") or (p.get("pointer") and not
                                (tz.is_torch(v) or tz.is_numpy(v))):
            with _lock:
                counts["not_checked"] += 1
            _say(f"{label} call {n + 1}: not checked: argument "
                 f"'{p['name']}' holds addresses, which the CPU target "
                 "cannot follow")
            return _plain(kernel, args, kwargs, provided)
    try:
        twin = twin_of(kernel)
    except RuntimeError as e:
        with _lock:
            counts["no_twin"] += 1
        _say(f"{label} call {n + 1}: could not build CPU twin: {e}")
        return _plain(kernel, args, kwargs, provided)
    host = {k: host_copy(v) for k, v in values.items()}
    host_outputs = {i: host_copy(v) for i, v in provided.items()}
    _tls.poison = True
    try:
        result = _plain(kernel, args, kwargs, provided)
    finally:
        _tls.poison = False
    outs = [kernel.params[i]["name"] for i in kernel._outputs]
    device = dict(zip(outs, _as_list(result, len(outs))))
    for p in kernel.params:
        if p["kind"] == "tensor" and p["name"] in values and \
                (tz.is_torch(values[p["name"]]) or
                 tz.is_numpy(values[p["name"]])):
            device[p["name"]] = values[p["name"]]
    for hook in after_device_call:
        hook(kernel, device)
    _tls.inside = _tls.poison = True
    try:
        ref = twin._call([], host, host_outputs)
    except Exception as e:  # noqa: BLE001 - reported, the call goes on
        with _lock:
            counts["twin_failed"] += 1
        first = (str(e).strip().splitlines() or [""])[0]
        _say(f"{label} call {n + 1}: CPU twin failed: {type(e).__name__}: "
             f"{first}")
        if mode() == "strict":
            raise AssertionError(f"tlc-verify-cpu: the CPU twin of kernel "
                                 f"'{kernel.kernel_name}' failed: {e}") from e
        return result
    finally:
        _tls.inside = _tls.poison = False
    reference = dict(zip(outs, _as_list(ref, len(outs))))
    reference.update({k: v for k, v in host.items() if k not in reference})
    return _finish(kernel, label, n, result, device, reference)


def _finish(kernel, label, n, result, device, reference):
    written, inputs = [], 0
    results = []
    for p in kernel.params:
        name = p["name"]
        if name not in device or name not in reference:
            continue
        out, ref = _to_host(device[name]), reference[name]
        as_set = _as_set(kernel, name)
        if as_set:
            out, ref = sorted_rows(out), sorted_rows(ref)
        rtol, atol = tolerances(p)
        c = compare(name + (" (as sets per row)" if as_set else ""), out,
                    ref, p["dtype"], rtol, atol)
        results.append(c)
        if kernel.params.index(p) in kernel._outputs or \
                p.get("role", "inout") != "in":
            written.append(name)
        else:
            inputs += 1
    bad = [c for c in results if not c.ok]
    total = sum(c.total for c in results)
    max_abs = max((c.max_abs for c in results), default=0.0)
    rel = max((c.rel_err for c in results), default=0.0)
    what = f"{len(written)} written tensor(s) ({', '.join(written)})" + \
        (f" and {inputs} input(s)" if inputs else "")
    line = f"{label} call {n + 1}: {what}: max_abs={max_abs:.3e} " \
        f"rel_err={rel:.3e} "
    with _lock:
        counts["checked"] += 1
        counts["differ" if bad else "agree"] += 1
    if not bad:
        _say(line + "agree")
        return result
    nbad = sum(c.bad for c in bad)
    _say(line + f"DIFFER {nbad} of {total} ("
         + "; ".join(_describe(c) for c in bad) + ")")
    if mode() == "strict":
        c = bad[0]
        where = f"at index {list(c.first)}" if c.first is not None \
            else f"({c.shape_error})"
        raise AssertionError(
            f"tlc-verify-cpu: kernel '{kernel.kernel_name}' (instance "
            f"{kernel.manifest['name']}): tensor '{c.name}' differs from the "
            f"cpu target {where}: {c.bad} of {c.total} elements differ")
    return result


def _to_host(t):
    if tz.is_torch(t):
        return t.detach().cpu()
    return t
