"""``@tilelang.autotune``: build every configuration in parallel, check
each against a reference, time them, keep the fastest.

Builds run as parallel tlc-build processes, one per core (a thread pool
whose threads wait on them: the package's own work per configuration is a
few per cent of tlc-build's); tlc-build's content-hash cache makes rebuilt
configurations free. A configuration's prim_func is not checked a second
time where it is defined (its build reports the same errors), and a
configuration tlc-build refuses is remembered and skipped, named with its
error, in later tunings (``_build.refusals_remembered``). The best
configuration of a (file, kernel, arguments, configurations, target) is
also written to ``<cache>/autotune/`` so a later process rebuilds only that
one (``autotune cache hit`` is printed).
"""

import contextlib
import hashlib
import inspect
import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from . import _batch, _build, _env, _jit, _script_env
from .env import env as _env_vars
from . import _tensors as tz
from ._jit import JITFunction, compile as _compile, resolve_target
from .language._objects import PrimFunc
from .profiler import Profiler, TensorSupplyType, do_bench

_autotune_inputs = []


@contextlib.contextmanager
def set_autotune_inputs(*tensors):
    """``with set_autotune_inputs(a, b):`` the tuner times and checks every
    configuration on these inputs instead of random ones."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    _autotune_inputs.append(list(tensors))
    try:
        yield
    finally:
        _autotune_inputs.pop()


class AutotuneResult:
    """The outcome of a tuning run."""

    def __init__(self, kernel, config, latency, ref_latency=None,
                 results=None):
        self.kernel = kernel
        self.func = kernel
        self.config = config
        self.latency = latency
        self.ref_latency = ref_latency
        self.results = results or []

    def __repr__(self):
        return (f"AutotuneResult(config={self.config}, "
                f"latency={self.latency:.4f} ms)")


def _clone_written(kernel, inputs):
    """Inputs with the tensors the kernel writes copied (each run then
    starts from the same values)."""
    out = []
    for p, x in zip(kernel.input_params, inputs):
        if tz.is_torch(x) and p.get("role", "in") != "in":
            x = x.clone()
        out.append(x)
    return out


def _outputs(kernel, inputs):
    result = kernel(*inputs)
    if result is None:
        return [x for p, x in zip(kernel.input_params, inputs)
                if p.get("role", "in") != "in"]
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _unwritten(kernel, outs):
    """Positions in ``outs`` (what a call returned) of outputs the kernel
    never writes (a ``T.empty`` it returns untouched: manifest role
    ``in``). Their contents are whatever the allocation held, so the
    comparisons skip them: two correct configurations would otherwise
    differ there."""
    order = getattr(kernel, "_outputs", None)
    params = getattr(kernel, "params", None)
    if not order or params is None or len(order) != len(outs):
        return set()
    return {k for k, i in enumerate(order)
            if params[i].get("role", "in") == "in"}


# Keys of a configuration that are build options, not factory arguments.
_BUILD_KEYS = ("pass_configs", "compile_flags")


def _split_config(cfg):
    """``(factory arguments, (pass_configs, compile_flags))`` of one
    configuration: a ``pass_configs`` / ``compile_flags`` entry configures
    that configuration's build (TileLang tunes compiler options this
    way)."""
    args = {k: v for k, v in cfg.items() if k not in _BUILD_KEYS}
    return args, (cfg.get("pass_configs"), cfg.get("compile_flags"))


def _check_config_keys(fn, configs):
    """TileLang's ``AutoTuner.run`` check: a configuration key that names
    no parameter of the tuned function (besides ``pass_configs`` /
    ``compile_flags``) is a ValueError, not a failed build of every
    configuration. A function taking ``**kwargs`` takes any key."""
    fn = getattr(fn, "fn", fn)
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    for cfg in configs:
        unused = set(_split_config(cfg)[0]) - set(params)
        if unused:
            raise ValueError(f"Unused keys in config: {unused}")


def _used_keys(fn, configs):
    """``configs`` without the keys that name no parameter of ``fn`` (the
    older ``AutoTuner.set_compile_args(ref_prog=...)`` spelling's
    meaning: TileLang then read each parameter from the configuration and
    ignored the rest, such as a roller's ``enable_rasteration`` for a
    kernel without that parameter)."""
    fn = getattr(fn, "fn", fn)
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return configs
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return configs
    return [{k: v for k, v in cfg.items() if k in params or k in _BUILD_KEYS}
            for cfg in configs]


class _TrialReporter:
    """``AutoTuner.run(on_trial=sink)``: one record per configuration, in
    the tuning thread, as a dict ``status`` (``"ok"``, ``"compile_error"``,
    ``"benchmark_error"``: the check failed or the run raised), ``index`` (the configuration's position), ``config`` (a
    detached JSON copy), ``latency_ms``, ``validation`` (``"passed"`` /
    ``"failed"`` against ``ref_prog`` or ``manual_check_prog``, else
    ``"not_run"``) and ``error`` (text, at most 2048 characters). A record
    that cannot be made (a configuration JSON cannot hold) or a sink that
    raises turns reporting off for the rest of the run, not the tuning."""

    def __init__(self, sink):
        self.sink = sink

    def emit(self, status, index=None, config=None, latency=None,
             validation="not_run", error=None):
        if self.sink is None:
            return
        try:
            record = {
                "status": status, "index": index,
                "config": json.loads(json.dumps(config, allow_nan=False)),
                "latency_ms": latency, "validation": validation,
                "error": None if error is None else str(error)[:2048],
            }
            self.sink(record)
        except Exception as e:  # reporting must not stop the tuning
            self.sink = None
            import logging
            logging.getLogger("tilelang").warning(
                "autotune: trial reporting failed (%s); the sink is off for "
                "the rest of this run", e)


class _Tuner:
    """Shared by the decorator and :class:`AutoTuner`."""

    def __init__(self, configs, warmup=25, rep=100, timeout=100,
                 supply_type=TensorSupplyType.Auto, ref_prog=None,
                 supply_prog=None, rtol=1e-2, atol=1e-2,
                 max_mismatched_ratio=0.01, skip_check=False,
                 manual_check_prog=None, cache_input_tensors=False,
                 verbose=True, early_stop=False, early_stop_factor=1.2,
                 **ignored):
        self.configs = configs
        self.warmup, self.rep, self.timeout = warmup, rep, timeout
        self.supply_type = supply_type
        self.ref_prog = ref_prog
        self.supply_prog = supply_prog
        self.rtol, self.atol = rtol, atol
        self.max_mismatched_ratio = max_mismatched_ratio
        self.skip_check = skip_check
        self.manual_check_prog = manual_check_prog
        self.verbose = verbose
        self.early_stop = bool(early_stop)
        self.early_stop_factor = float(early_stop_factor)

    def _log(self, text):
        if self.verbose:
            print(f"autotune: {text}", flush=True)

    def run(self, build_one, configs, inputs=None, cache_key=None,
            on_trial=None):
        """Builds ``build_one(config)`` for every config in parallel, then
        checks and times each; returns an :class:`AutotuneResult`.
        ``on_trial``: a function given one record per configuration
        (:class:`_TrialReporter`)."""
        if not configs:
            raise ValueError("autotune: no configurations to tune")
        if on_trial is not None and self.early_stop:
            raise ValueError("autotune: on_trial records every configuration "
                             "and cannot be combined with early_stop")
        report = _TrialReporter(on_trial)
        checked = not self.skip_check and (
            self.ref_prog is not None or self.manual_check_prog is not None)
        tuning_key = cache_key
        if tuning_key is not None:
            cache_key = self._checked_key(
                tuning_key.text(tuning_key.known_reads()), inputs)
            stored = _load_best(cache_key)
            if stored is not None:
                config = stored["config"]
                self._log(f"autotune cache hit: {config} "
                          f"({stored['latency']:.4f} ms)")
                kernel = build_one(config)
                kernel.config, kernel.latency = config, stored["latency"]
                kernel.ref_latency = stored.get("ref_latency")
                return AutotuneResult(kernel, config, stored["latency"],
                                      stored.get("ref_latency"))

        recorded = []

        def attempt(cfg):
            with _build.environ_reads_recorded() as reads:
                try:
                    with _build.refusals_remembered(), \
                            _jit.definition_checks_deferred():
                        return build_one(cfg), None
                except Exception as e:  # a configuration tlc cannot build
                    return None, e
                finally:
                    # A configuration that built nothing (it raised before
                    # a build) read what the script may read.
                    recorded.extend(reads or [None])
        started = time.monotonic()
        planned = _plan_builds(configs, build_one)
        with ThreadPoolExecutor(_build_workers(len(configs))) as pool:
            built = list(pool.map(attempt, configs))
        _batch.discard(planned)
        if tuning_key is not None:
            # Stored under the variables these builds read (see _TuningKey).
            cache_key = self._checked_key(
                tuning_key.text(tuning_key.learn(recorded)), inputs)
        failed = sum(1 for kernel, _ in built if kernel is None)
        self._log(f"built {len(configs) - failed} of {len(configs)} "
                  f"configurations in {time.monotonic() - started:.1f} s"
                  + (f" ({failed} refused)" if failed else ""))
        results = []
        reference = None
        best = None
        # Configurations that built the same kernel (a parameter the
        # kernel does not use; tlc-build's cache gave them one binary)
        # share the first one's check and timing: identity -> (config,
        # latency or None, message, validation, error).
        measured = {}
        for index, (cfg, (kernel, err)) in enumerate(zip(configs, built)):
            if kernel is None:
                first = _reason(err)
                self._log(f"{cfg}: build failed: {first}")
                results.append((cfg, None, f"build failed: {first}"))
                report.emit("compile_error", index, cfg, error=err)
                continue
            identity = _identity(kernel) if _share_identical else None
            if identity is not None and identity in measured:
                same, latency, message, validation, error = \
                    measured[identity]
                results.append((cfg, latency, message))
                if latency is None:
                    self._log(f"{cfg}: {message} (the kernel of {same})")
                    if error is not None:
                        report.emit("benchmark_error", index, cfg,
                                    validation=validation, error=error)
                    continue
                self._log(f"{cfg}: {latency:.4f} ms (the kernel of {same})")
                report.emit("ok", index, cfg, latency=latency,
                            validation=validation)
                continue
            validation = "not_run"
            if inputs is None:
                inputs = self._make_inputs(kernel)
            try:
                run_inputs = _clone_written(kernel, inputs)
                outs = _outputs(kernel, run_inputs)
                if not self.skip_check:
                    if checked:
                        validation = "failed"
                    if self.manual_check_prog is not None:
                        self.manual_check_prog(outs, inputs)
                    elif self.ref_prog is not None:
                        ref = self.ref_prog(*_clone_written(kernel, inputs))
                        self._compare(outs, ref, _unwritten(kernel, outs))
                    elif reference is None:
                        reference = outs
                    else:
                        self._compare(outs, reference,
                                      _unwritten(kernel, outs))
                    if checked:
                        validation = "passed"
                timed = _clone_written(kernel, inputs)
                cuda = kernel.target != "cpu"
                if self.early_stop and best is not None:
                    probe = do_bench(lambda: kernel(*timed), warmup=1, rep=1,
                                     _n_warmup=1, _n_repeat=3, cuda=cuda)
                    if probe > self.early_stop_factor * best[1]:
                        self._log(f"{cfg}: stopped early: {probe:.4f} ms > "
                                  f"{self.early_stop_factor:g} x best "
                                  f"{best[1]:.4f} ms")
                        results.append((cfg, None, "stopped early"))
                        if identity is not None:
                            measured[identity] = (cfg, None, "stopped early",
                                                  validation, None)
                        continue
                latency = do_bench(lambda: kernel(*timed), warmup=self.warmup,
                                   rep=self.rep, cuda=cuda)
            except Exception as e:
                first = str(e).splitlines()[0] if str(e) else repr(e)
                self._log(f"{cfg}: rejected: {first}")
                results.append((cfg, None, f"rejected: {first}"))
                report.emit("benchmark_error", index, cfg,
                            validation=validation, error=e)
                if identity is not None:
                    measured[identity] = (cfg, None, f"rejected: {first}",
                                          validation, e)
                continue
            if identity is not None:
                measured[identity] = (cfg, latency, None, validation, None)
            self._log(f"{cfg}: {latency:.4f} ms")
            results.append((cfg, latency, None))
            report.emit("ok", index, cfg, latency=latency,
                        validation=validation)
            if best is None or latency < best[1]:
                best = (cfg, latency, kernel)
        if best is None:
            raise RuntimeError(
                "autotune: no configuration built and passed the check:\n" +
                "\n".join(f"  {c}: {msg}" for c, _, msg in results))
        cfg, latency, kernel = best
        ref_latency = None
        if self.ref_prog is not None:
            ref_inputs = _clone_written(kernel, inputs)
            ref_latency = do_bench(lambda: self.ref_prog(*ref_inputs),
                                   warmup=self.warmup, rep=self.rep,
                                   cuda=kernel.target != "cpu")
        kernel.config, kernel.latency = cfg, latency
        kernel.ref_latency = ref_latency
        self._log(f"best {cfg}: {latency:.4f} ms")
        if cache_key is not None:
            _store_best(cache_key, cfg, latency, ref_latency)
        return AutotuneResult(kernel, cfg, latency, ref_latency, results)

    def _checked_key(self, key, inputs):
        """``key`` (the kernel's source, bindings and configurations)
        with what the stored best was checked and timed with: the
        reference and check programs, tolerances, supply, warmup and rep,
        and the shapes and dtypes of the tensors it ran on (the call's or
        ``set_autotune_inputs``'). A tuning under other checks or inputs
        is not a cache hit (TileLang's key has the checks, not the
        inputs)."""
        if inputs is None and _autotune_inputs:
            inputs = _autotune_inputs[-1]
        described = [(tuple(getattr(t, "shape", ())),
                      str(getattr(t, "dtype", type(t).__name__)))
                     for t in (inputs or [])]
        text = json.dumps([key, _callable_id(self.ref_prog),
                           _callable_id(self.manual_check_prog),
                           _callable_id(self.supply_prog),
                           str(self.supply_type), self.rtol, self.atol,
                           self.max_mismatched_ratio, bool(self.skip_check),
                           self.warmup, self.rep, described], default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def _make_inputs(self, kernel):
        if _autotune_inputs:
            return list(_autotune_inputs[-1])
        if self.supply_prog is not None:
            return list(self.supply_prog(kernel.input_params))
        return Profiler(kernel, self.supply_type)._supply_inputs()

    def _compare(self, outs, ref, skip=()):
        """Checks ``outs`` against ``ref`` output by output, leaving out
        the positions in ``skip`` (outputs the kernel never writes)."""
        from .testing import torch_assert_close
        refs = list(ref) if isinstance(ref, (list, tuple)) else [ref]
        if len(refs) != len(outs):
            raise AssertionError(f"{len(outs)} outputs, reference gave "
                                 f"{len(refs)}")
        for k, (o, r) in enumerate(zip(outs, refs)):
            if k in skip:
                continue
            try:
                torch_assert_close(
                    o, r, rtol=self.rtol, atol=self.atol,
                    max_mismatched_ratio=self.max_mismatched_ratio)
            except AssertionError as e:
                if len(outs) == 1:
                    raise
                raise AssertionError(f"output {k}: {e}") from None


# Whether configurations that built the same kernel share one check and
# timing (tests/bench/autotune_sweep.py turns it off to measure "before").
_share_identical = True


def _identity(kernel):
    """What ``kernel`` runs, as a digest: its manifest (entry, launches,
    parameters), the bytes of its generated source and binary, and how the
    Python call maps arguments and outputs; None when it cannot be told
    (not a tlc-built kernel, a file missing). Two configurations with the
    same identity run the same code on the same inputs."""
    manifest = getattr(kernel, "manifest", None)
    out_dir = getattr(kernel, "artifact_dir", None)
    if not isinstance(manifest, dict) or not out_dir:
        return None
    digest = hashlib.sha256()
    try:
        digest.update(json.dumps(manifest, sort_keys=True).encode())
        for key in ("generated_source", "binary"):
            name = manifest.get(key)
            if not name:
                continue
            with open(os.path.join(out_dir, name), "rb") as f:
                digest.update(f.read())
        digest.update(repr((type(kernel).__name__, kernel.target,
                            getattr(kernel, "_inputs", None),
                            getattr(kernel, "_outputs", None),
                            getattr(kernel, "_input_names", None),
                            sorted(getattr(kernel, "symbol_aliases",
                                           {}).items()))).encode())
    except (OSError, TypeError, ValueError):
        return None
    return digest.hexdigest()


def _reason(err):
    """One line saying why a configuration did not build: tlc's first
    error diagnostic when the build failed with one (file:line: error:
    ...), else the exception's first line."""
    again = " (refused before; not built again)" \
        if getattr(err, "remembered", False) else ""
    for line in str(getattr(err, "diagnostics", "") or "").splitlines():
        if ": error: " in line:
            return line.strip() + again
    text = str(err)
    return text.splitlines()[0] if text else repr(err)


def _plan_builds(configs, build_one):
    """For a large sweep (_batch.wanted), the build requests of
    ``configs``, built at once by tlc-build --configs processes
    (_batch.run); the tuner's builds then take their outcomes. [] when the
    sweep is built one process per configuration."""
    if not _batch.wanted(len(configs)) or _env.cache_disabled():
        return []
    with _batch.planned() as requests:
        for cfg in configs:
            try:
                with _build.refusals_remembered(), \
                        _jit.definition_checks_deferred():
                    build_one(cfg)
            except _batch.Planned:
                pass
            except Exception:  # noqa: BLE001 - built (and reported) below
                pass
    _batch.run(requests, _build_workers(len(configs)))
    return requests


def _build_workers(count):
    """Configurations built at once: one tlc-build process per core this
    process may run on (its affinity mask, else the machine's count),
    ``TLC_AUTOTUNE_JOBS`` if set, never more than there are
    configurations. tlc-build's content-hash cache is shared by all of
    them (an unchanged configuration is not compiled again)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        cores = int(os.environ.get("TLC_AUTOTUNE_JOBS", cores))
    except ValueError:
        pass
    return max(1, min(count, cores))


def _cache_file(key):
    return os.path.join(_build.cache_root(), "autotune", key + ".json")


def _load_best(key):
    if _env.cache_disabled():
        return None
    try:
        with open(_cache_file(key)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _store_best(key, config, latency, ref_latency):
    if _env.cache_disabled():
        return
    path = _cache_file(key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump({"config": config, "latency": latency,
                       "ref_latency": ref_latency}, f)
        os.replace(tmp, path)
    except (OSError, TypeError):
        pass


def _callable_id(fn):
    """A function by its module, name and code (its bytecode and
    constants): an edited reference program is another one."""
    if fn is None:
        return None
    code = getattr(fn, "__code__", None)
    body = "" if code is None else _code_digest(code)
    return f"{getattr(fn, '__module__', '')}." \
        f"{getattr(fn, '__qualname__', type(fn).__name__)}:{body}"


def _code_digest(code):
    """A digest of a code object's bytecode and constants, nested code
    objects (lambdas, comprehensions) by their own digest (their repr
    holds an address)."""
    consts = [_code_digest(c) if hasattr(c, "co_code") else repr(c)
              for c in code.co_consts]
    return hashlib.sha256(code.co_code + repr(consts).encode() +
                          repr(code.co_names).encode()).hexdigest()[:16]


class _TuningKey:
    """The tuning cache's key of one tuning: ``base`` (the kernel's file
    and source, bindings, configurations and target) and the values of
    the environment variables the tuned instances' evaluations read.
    Which those are is known once the configurations were built (each
    build's ``tlc-build --environ-report``): their union is remembered per
    ``base`` (under ``<cache>/autotune/environ/``), and a tuning is keyed
    by their values; before the first tuning, or where a build's reads
    are not known, by every variable the script reads that is set. A
    variable only another kernel reads does not move the tuning."""

    def __init__(self, base, source_file):
        self.base = base
        self.source_file = source_file

    def _reads_path(self):
        digest = hashlib.sha256(self.base.encode()).hexdigest()[:32]
        if _env.cache_disabled():
            return "memo:" + digest
        return os.path.join(_build.cache_root(), "autotune", "environ",
                            digest + ".json")

    def known_reads(self):
        """The remembered read variables (sorted names), or None."""
        path = self._reads_path()
        with _reads_lock:
            if path in _reads_memo:
                return _reads_memo[path]
        return _build._read_names_file(path)

    def learn(self, recorded):
        """Remembers the union of the builds' ``recorded`` reads (lists of
        names, None where unknown); returns it, or None (the script-wide
        key) when one is unknown or nothing was recorded."""
        if not recorded or any(r is None for r in recorded):
            reads = None
        else:
            reads = sorted({n for r in recorded for n in r})
        path = self._reads_path()
        with _reads_lock:
            _reads_memo[path] = reads
        if not path.startswith("memo:"):
            try:
                if reads is None:
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(path)
                else:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    tmp = f"{path}.{os.getpid()}.tmp"
                    with open(tmp, "w") as f:
                        json.dump(reads, f)
                    os.replace(tmp, path)
            except OSError:
                pass
        return reads

    def text(self, reads):
        """The key for the read variables ``reads`` (None: every variable
        the script reads) with their values in this process."""
        tlc_env = dict(_script_env.script_environ(self.source_file))
        return json.dumps([self.base, _build.environ_values(reads, tlc_env)])


_reads_memo = {}
_reads_lock = threading.Lock()


def _tuning_key(jit_fn, args, kwargs, configs):
    try:
        with open(jit_fn.source_file, "rb") as f:
            source = hashlib.sha256(f.read()).hexdigest()
        shapes = [tuple(getattr(a, "shape", ())) if hasattr(a, "shape")
                  else repr(a) for a in args]
        text = json.dumps([jit_fn.source_file, source, jit_fn.__name__,
                           repr(sorted(jit_fn._closure_defines().items())),
                           repr(shapes), repr(sorted(kwargs.items())),
                           repr(configs), resolve_target(jit_fn.target)],
                          default=str)
    except (OSError, TypeError):
        return None
    return _TuningKey(text, jit_fn.source_file)


class AutoTuneFunction:
    """What ``@tilelang.autotune(...)`` over ``@tilelang.jit`` returns."""

    def __init__(self, jit_fn, tuner):
        if not isinstance(jit_fn, JITFunction):
            raise TypeError("@tilelang.autotune must decorate a "
                            "@tilelang.jit function (put it above @jit)")
        self.jit_fn = jit_fn
        self.tuner = tuner
        self.__name__ = jit_fn.__name__
        self.__wrapped__ = jit_fn
        self._best = {}
        # Kernels tuned by compile(), by their bindings: strict compilation
        # (TILELANG_REQUIRE_EXPLICIT_COMPILE) runs only these.
        self._compiled = {}

    def _configs(self, args, kwargs):
        configs = self.tuner.configs
        if callable(configs):
            try:
                configs = configs(*args, **kwargs)
            except TypeError:
                configs = configs()
        return [dict(c) for c in configs]

    def __call__(self, *args, **kwargs):
        # TileLang's flag for an eager kernel: the tuned kernel, not run.
        return_kernel = kwargs.pop("__return_kernel", False)
        configs = self._configs(args, kwargs)
        tunables = set().union(*[c.keys() for c in configs]) if configs \
            else set()
        tunables -= set(_BUILD_KEYS)
        fn = self.jit_fn
        if tunables and tunables <= set(kwargs):
            if return_kernel and not fn.is_lazy:
                return fn.compile(*args, **kwargs)
            return fn(*args, **kwargs)  # explicit values: no tuning
        strict = _env_vars.is_explicit_compile_required()
        if fn.is_lazy:
            if strict:
                return self._compiled_for(("lazy", _lazy_key(args, kwargs)))
            return self._tuned_lazy(args, kwargs, configs)
        # Eager: tune on the call's own tensors, then run the best.
        values = fn._bind(args, {**kwargs, **{k: None for k in tunables
                                              if k not in kwargs}})
        runtime, compile_values, consts = fn._split_eager(values)
        if strict:
            kernel = self._compiled_for(
                _eager_key(compile_values, consts, tunables))
        else:
            probe = [runtime[n] for n in fn.eager.runtime if n in runtime]
            kernel = self._tuned_eager(args, kwargs, configs, tunables,
                                       compile_values, consts, probe)
        if return_kernel:
            return kernel
        return kernel(**{n: v for n, v in runtime.items()
                         if n in kernel._input_names})

    def _compiled_for(self, key):
        kernel = self._compiled.get(key)
        if kernel is None:
            raise RuntimeError(
                f"No explicitly compiled specialization of autotuned kernel "
                f"'{self.jit_fn.__name__}' matches this call: with "
                "TILELANG_REQUIRE_EXPLICIT_COMPILE set, tune it first with "
                "factory.compile(...) (the same arguments; for an eager "
                "kernel, matching tensor shapes or T.const values)")
        return kernel

    def _tuned_lazy(self, args, kwargs, configs):
        fn = self.jit_fn
        tuning_key = _tuning_key(fn, args, kwargs, configs)

        def memo_key():
            # A tuning in this process under other values of the variables
            # the instances read is another one.
            return (_lazy_key(args, kwargs), None if tuning_key is None else
                    tuning_key.text(tuning_key.known_reads()))
        best = self._best.get(memo_key())
        if best is None:
            def build_one(cfg):
                cfg, build = _split_config(cfg)
                target = fn._with_build_configs(*build) if any(build) else fn
                return target.compile(*args, timeout=self.tuner.timeout,
                                      **{**kwargs, **cfg})
            best = self.tuner.run(build_one, configs, cache_key=tuning_key)
            self._best[memo_key()] = best
        return best.kernel

    def _tuned_eager(self, args, kwargs, configs, tunables, compile_values,
                     consts, probe):
        """The best configuration's kernel of an eager kernel, timed on
        ``probe`` (the call's tensors; None: ``set_autotune_inputs``' or
        supplied ones). Candidates are compiled explicitly (strict
        compilation runs them)."""
        fn = self.jit_fn

        def build_eager(cfg):
            cfg, build = _split_config(cfg)
            cv = dict(compile_values)
            cv.update(cfg)
            for k in tunables:
                if cv.get(k) is None and k not in cfg:
                    cv[k] = fn._defaults.get(k)
            target = fn._with_build_configs(*build) if any(build) else fn
            return target._eager_kernel(cv, consts, self.tuner.timeout,
                                        explicit=True)
        return self.tuner.run(build_eager, configs, inputs=probe,
                              cache_key=_tuning_key(fn, args, kwargs,
                                                    configs)).kernel

    def compile(self, *args, **kwargs):
        """Tunes, then returns the best configuration's kernel without
        running it (an eager kernel's sizes by name or from placeholder
        tensors, as its ``compile``; timed on ``set_autotune_inputs``'
        tensors when given, else on supplied ones)."""
        configs = self._configs(args, kwargs)
        tunables = set().union(*[c.keys() for c in configs]) if configs \
            else set()
        tunables -= set(_BUILD_KEYS)
        fn = self.jit_fn
        if (tunables and tunables <= set(kwargs)) or not configs:
            return fn.compile(*args, **kwargs)
        if fn.is_lazy:
            kernel = self._tuned_lazy(args, kwargs, configs)
            self._compiled[("lazy", _lazy_key(args, kwargs))] = kernel
            return kernel
        compile_values, consts = fn.eager_bindings(args, kwargs, tunables)
        kernel = self._tuned_eager(args, kwargs, configs, tunables,
                                   compile_values, consts, None)
        self._compiled[_eager_key(compile_values, consts, tunables)] = kernel
        return kernel


def _lazy_key(args, kwargs):
    return repr((args, sorted(kwargs.items())))


def _eager_key(compile_values, consts, tunables):
    """An eager call's bindings apart from the tuned parameters."""
    return ("eager", repr(sorted((k, v) for k, v in compile_values.items()
                                 if k not in tunables)),
            repr(sorted(consts.items())))


def autotune(func=None, *legacy, configs=None, keys=None, warmup=25,
             rep=100, timeout=100, **options):
    """``@tilelang.autotune(configs=[...], warmup=25, rep=100,
    timeout=100, ref_prog=None, rtol=1e-2, atol=1e-2, ...)`` above
    ``@tilelang.jit``. ``timeout`` bounds each configuration's build (s).
    Above an older ``@tilelang.autotuner.jit`` function it is TileLang's
    older decorator, ``autotune(configs, keys=None, warmup, rep, timeout)``
    (``_legacy_autotune``)."""
    if func is not None and not callable(func):
        # The older positional form: autotune(configs, keys, warmup, ...).
        if configs is not None:
            raise TypeError("autotune() got configs twice")
        configs, func = func, None
        names = ("keys", "warmup", "rep", "timeout")
        if len(legacy) > len(names):
            raise TypeError(f"autotune() takes at most {len(names) + 1} "
                            "positional arguments")
        given = dict(zip(names, legacy))
        keys = given.get("keys", keys)
        warmup = given.get("warmup", warmup)
        rep = given.get("rep", rep)
        timeout = given.get("timeout", timeout)
    elif legacy:
        raise TypeError("autotune() takes the configurations as configs=")
    tuner = _Tuner(configs if configs is not None else [], warmup, rep,
                   timeout, **options)

    def wrap(fn):
        if isinstance(fn, LegacyJitFunction):
            if options:
                raise TypeError(
                    "autotune() over tilelang.autotuner.jit takes the check "
                    "options in jit(...), not "
                    f"{', '.join(sorted(options))}")
            return LegacyAutoTuner(fn, configs if configs is not None
                                   else [], keys, warmup, rep, timeout)
        if keys is not None:
            raise TypeError("autotune(keys=...) is the older decorator over "
                            "tilelang.autotuner.jit")
        return AutoTuneFunction(fn, tuner)
    if func is not None:
        return wrap(func)
    return wrap


class AutoTuner:
    """Imperative tuner: ``AutoTuner.from_kernel(kernel=factory,
    configs=...).set_compile_args(out_idx=[-1], target="auto")
    .set_profile_args(ref_prog=...).run(warmup=3, rep=20)``. ``factory`` is
    a ``@tilelang.jit`` factory or a plain function returning a
    ``@T.prim_func``."""

    def __init__(self, fn, configs):
        self.fn = fn
        self.configs = configs
        self.compile_args = {}
        self.profile_args = {}
        self.call_args = ((), {})
        self._ignore_unused_keys = False

    @classmethod
    def from_kernel(cls, kernel, configs):
        return cls(kernel, configs)

    _PROFILE_KEYS = ("supply_type", "ref_prog", "supply_prog", "rtol",
                     "atol", "max_mismatched_ratio", "skip_check",
                     "manual_check_prog", "cache_input_tensors")

    def set_compile_args(self, out_idx=None, target="auto",
                         execution_backend=None, target_host=None,
                         verbose=False, pass_configs=None,
                         compile_flags=None, **kwargs):
        """``tilelang.compile`` arguments of every configuration. Older
        TileLang scripts also pass the profile arguments here
        (``supply_type``, ``ref_prog``, ``skip_check``...): they are taken
        as :meth:`set_profile_args` would take them."""
        self.compile_args = dict(out_idx=out_idx, target=target,
                                 pass_configs=pass_configs,
                                 compile_flags=compile_flags)
        unknown = [k for k in kwargs if k not in self._PROFILE_KEYS]
        if unknown:
            raise TypeError("AutoTuner.set_compile_args() got unexpected "
                            f"argument(s) {', '.join(unknown)}")
        if kwargs:
            self.set_profile_args(**{**self.profile_args, **kwargs})
            # TileLang of that spelling (before set_profile_args) took
            # each parameter's value from a configuration and ignored the
            # configuration's other keys; the "Unused keys" ValueError
            # came with set_profile_args.
            self._ignore_unused_keys = True
        return self

    def set_profile_args(self, supply_type=TensorSupplyType.Auto,
                         ref_prog=None, supply_prog=None, rtol=1e-2,
                         atol=1e-2, max_mismatched_ratio=0.01,
                         skip_check=False, manual_check_prog=None,
                         cache_input_tensors=False, **kwargs):
        self.profile_args = dict(
            supply_type=supply_type, ref_prog=ref_prog,
            supply_prog=supply_prog, rtol=rtol, atol=atol,
            max_mismatched_ratio=max_mismatched_ratio, skip_check=skip_check,
            manual_check_prog=manual_check_prog)
        return self

    def set_kernel_parameters(self, *args, **kwargs):
        self.call_args = (args, kwargs)
        return self

    def run(self, warmup=25, rep=100, timeout=30, early_stop=False,
            early_stop_factor=1.2, on_trial=None):
        """Tunes; ``on_trial(record)``, if given, gets one dict per
        configuration (status, index, config, latency_ms, validation,
        error) in this thread; it cannot be combined with ``early_stop``."""
        tuner = _Tuner(self.configs, warmup, rep, timeout,
                       early_stop=early_stop,
                       early_stop_factor=early_stop_factor,
                       **self.profile_args)
        args, kwargs = self.call_args
        configs = self.configs() if callable(self.configs) else \
            list(self.configs)
        if self._ignore_unused_keys:
            configs = _used_keys(self.fn, configs)
        _check_config_keys(self.fn, configs)

        def build_one(cfg):
            cfg, (pass_configs, compile_flags) = _split_config(cfg)
            if isinstance(self.fn, JITFunction):
                fn = self.fn
                if pass_configs or compile_flags:
                    fn = fn._with_build_configs(pass_configs, compile_flags)
                return fn.compile(*args, **{**kwargs, **cfg})
            func = self.fn(*args, **{**kwargs, **cfg})
            if isinstance(func, PrimFunc):
                compile_args = dict(self.compile_args)
                compile_args["pass_configs"] = {
                    **(compile_args.get("pass_configs") or {}),
                    **(pass_configs or {})} or None
                if compile_flags:
                    compile_args["compile_flags"] = list(
                        compile_args.get("compile_flags") or []) + \
                        list(compile_flags)
                return _compile(func, **compile_args)
            return func
        return tuner.run(build_one, [dict(c) for c in configs],
                         on_trial=on_trial)


# TileLang's older spellings (``from tilelang.autotuner import jit``); at
# the end: the module uses _Tuner and AutotuneResult above.
from ._legacy_autotune import (  # noqa: E402
    JITContext, LegacyAutoTuner, LegacyJitFunction, jit)

__all__ = ["autotune", "AutoTuner", "AutotuneResult", "set_autotune_inputs",
           "jit", "JITContext"]
