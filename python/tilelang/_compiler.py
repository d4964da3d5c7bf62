"""Building and memoizing the instances of one kernel: the tlc-build
arguments of pass configs and compile flags, the per-environment cache of
built kernels, strict (explicit) compilation."""

import threading

from . import _build, _script_env, _target_resolve
from .env import env as _env_vars
from .jit import compile_phase


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
        target = _target_resolve.resolve_target(self.target_spec)
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
