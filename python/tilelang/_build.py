"""Driving ``tlc-build``: one kernel instance per call.

The package never traces kernels itself. A call such as ``matmul(1024,
1024, 1024)`` becomes ``tlc-build FILE --kernel=matmul -D M=1024 ... -o
DIR``: the call's argument values are the instance's ``-D`` bindings, so
what runs is what the editor shows for that call. tlc-build compiles the
generated source through its content-hash cache (shared with the command
line), and prints ``wrote DIR/NAME.so (cached)`` when the binary came from
it.
"""

import ast
import builtins
import contextlib
import hashlib
import json
import numbers
import os
import re
import shutil
import subprocess
import logging
import tempfile
import threading

from . import _ast_parse
from . import _batch, _build_lock, _env, _script_env

_log = logging.getLogger("tilelang")

# Newest manifest version (NAME.json) this package understands: 4 adds
# pointer parameters (`pointer`) and pointer tables (`pointee`), which
# callers pass as addresses / int64 tensors of addresses; 5 a launch's
# `dynamic_shared_memory` given as an expression of the symbols (shared
# buffers of symbolic shape), evaluated like a grid extent; 6 tensor
# parameters with `strides` (T.StridedTensor: the caller's view is passed
# when its strides are those) and symbols of kind `stride`, bound from
# them.
MANIFEST_VERSION = 6


class TLCBuildError(RuntimeError):
    """tlc-build could not build the kernel; the message carries its
    diagnostics."""

    def __init__(self, message, diagnostics="", command=None):
        super().__init__(message + ("\n" + diagnostics.rstrip()
                                    if diagnostics else ""))
        self.diagnostics = diagnostics
        self.command = command


_raised_classes = {}


def error_class(category):
    """TLCBuildError, or for an error whose diagnostic has a ``category``
    (tlc-build's JSON diagnostics: the Python exception type TileLang
    raises for it, or the one the kernel's Python code raised while tlc
    evaluated it) a subclass that is also that builtin exception, so
    ``except ValueError`` / ``pytest.raises(ValueError)`` catch what
    TileLang raises."""
    builtin = getattr(builtins, category or "", None)
    if builtin is None and category:
        # tvm.error's types (tlc's target errors TileLang raises as
        # tvm.error.InternalError when it lowers the kernel).
        from . import _shims
        builtin = _shims._TVM_ERRORS.get(category)
    if not (isinstance(builtin, type) and issubclass(builtin, Exception)) \
            or issubclass(TLCBuildError, builtin):
        return TLCBuildError
    if builtin not in _raised_classes:
        try:
            cls = type("TLCBuild" + builtin.__name__,
                       (TLCBuildError, builtin),
                       {"__module__": __name__})
        except TypeError:  # an incompatible layout (OSError, ...)
            cls = TLCBuildError
        _raised_classes[builtin] = cls
    return _raised_classes[builtin]


def read_diagnostics(path):
    """The diagnostics tlc-build wrote as JSON (``--diagnostics-file``,
    ``--format=json``); [] when there are none or the file is missing."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return []
    try:
        diags = json.loads(text) if text.strip() else []
    except ValueError:
        return []
    return diags if isinstance(diags, list) else []


def first_error(diagnostics, raised_at=None):
    """The first error of ``diagnostics``, or None; with ``raised_at``
    (``"definition"``), the first that has a category TileLang raises
    there (tlc-build's ``raisedAt``)."""
    for d in diagnostics:
        if d.get("severity") != "error":
            continue
        if raised_at is None or (d.get("category") and
                                 d.get("raisedAt") == raised_at):
            return d
    return None


# The note tlc-build puts on what a kernel's Python code raised while it
# evaluated an instance it could not treat as a call (no call site): the
# raise is a warning, and the instance's body ends where it was raised.
_INCOMPLETE_NOTE = "the analysis of this instance is incomplete"


def _function_lines(source_file, name):
    """The first and last line of module-level function ``name`` of
    ``source_file``, or None."""
    try:
        with open(source_file) as f:
            tree = _ast_parse.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == name:
            first = min([node.lineno] +
                        [d.lineno for d in node.decorator_list])
            return first, node.end_lineno
    return None


def _same_file(a, b):
    try:
        return bool(a) and os.path.samefile(a, b)
    except OSError:
        return False


def raised_in_instance(diagnostics, source_file=None, kernel=None):
    """The first warning of ``diagnostics`` that is a raise tlc-build
    demoted because it evaluated the instance without a call site (the
    instance written then lacks the rest of its body), or None. With
    ``source_file`` and ``kernel``, only a raise in the analysis of that
    kernel counts: tlc-build also analyses the file's other functions that
    define prim_funcs (a test file's other tests), whose raises do not
    touch the instance built."""
    lines = _function_lines(source_file, kernel) \
        if source_file and kernel else None
    for d in diagnostics:
        if d.get("severity") != "warning":
            continue
        notes = [n for n in d.get("notes", [])
                 if _INCOMPLETE_NOTE in n.get("message", "")]
        if not notes:
            continue
        if lines is not None and not any(
                _same_file(n.get("file"), source_file) and
                lines[0] <= (n.get("line") or 0) <= lines[1]
                for n in notes):
            continue
        return d
    return None


# The note tlc-build's target errors carry when TileLang refuses the same
# program with a tvm.error exception while lowering it.
_LOWERING_RAISES = re.compile(
    r"note: TileLang raises this as (?:tvm\.error\.)?(\w+) when it lowers")


def lowering_category(text):
    """(For a tlc-build that wrote no ``--diagnostics-file``: the file's
    ``category`` says it.) The tvm.error type (``"InternalError"``) the first target error of a
    failed build's output ``text`` notes TileLang raises, or None."""
    m = _LOWERING_RAISES.search(text or "")
    return m.group(1) if m else None


_LOCATED_ERROR = re.compile(r"^(.+?):(\d+):(\d+): error: (.*)$", re.M)


def target_error(text, source_file):
    """(For a tlc-build that wrote no ``--diagnostics-file``, which holds
    the target's diagnostics too.) The first ``FILE:LINE:COL: error: ...`` line of a failed build's
    output ``text`` located in ``source_file`` (the target's refusal of the
    program, printed by its lowering), as a diagnostic dict; None when
    there is none, or when it says the artifact could not be written (the
    device or host compiler failed, a tool or the disk is missing: not the
    program's fault, so not remembered as a refusal)."""
    for m in _LOCATED_ERROR.finditer(text or ""):
        path, line, col, message = m.groups()
        if message.startswith("cannot write the "):
            return None
        if not _same_file(path, source_file):
            continue
        return {"file": path, "line": int(line), "col": int(col),
                "severity": "error", "message": message}
    return None


def raised_category(d):
    """The Python exception type of a diagnostic: its ``category``, else
    the ``TypeName:`` its message starts with."""
    if d.get("category"):
        return d["category"]
    m = re.match(r"(\w+(?:Error|Exception)):", d.get("message", ""))
    return m.group(1) if m else None


def format_raise(d):
    """``FILE:LINE:COL: MESSAGE`` of a raise tlc-build reported."""
    return (f"{d.get('file')}:{d.get('line')}:{d.get('col')}: "
            f"{d.get('message')}")


def format_diagnostic(d):
    """``FILE:LINE:COL: error: MESSAGE``, as tlc-build prints one."""
    return (f"{d.get('file')}:{d.get('line')}:{d.get('col')}: "
            f"{d.get('severity')}: {d.get('message')}")


def find_tlc_build():
    """The tlc-build executable: ``$TLC_BUILD``, the ``build/bin`` of the
    checkout this package is in, or ``tlc-build`` on PATH."""
    env = os.environ.get("TLC_BUILD")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    local = os.path.join(os.path.dirname(os.path.dirname(here)), "build",
                         "bin", "tlc-build")
    if os.path.exists(local):
        return local
    found = shutil.which("tlc-build")
    if found:
        return found
    raise TLCBuildError("tlc-build not found: set TLC_BUILD, build tlc into "
                        "build/ or put tlc-build on PATH")


def cache_root():
    """The cache directory shared with tlc-build:
    ``tilelang.env.TILELANG_CACHE_DIR`` (assigned, or from the
    environment), else ``$TLC_CACHE_DIR``, else ``$XDG_CACHE_HOME/tlc``,
    else ``~/.cache/tlc`` (``tilelang/env.py``)."""
    from .env import env
    return env.TILELANG_CACHE_DIR


def tmp_root():
    """Where builds go while the cache is off:
    ``tilelang.env.TILELANG_TMP_DIR`` (default ``tmp`` under
    :func:`cache_root`), created when missing."""
    from .env import env
    path = env.TILELANG_TMP_DIR
    os.makedirs(path, exist_ok=True)
    return path


class IteratorValues(tuple):
    """What a one-shot iterator (a generator, ``zip``, ``map`` object) a
    kernel body reads yielded, passed to tlc as an iterator over them
    (``iter((...))``): loops over it resume where the last one stopped, as
    over the Python iterator."""


def format_define(value, callable_hook=None):
    """The ``-D`` text of a Python value (int, float, bool, None, str, a
    dtype, or a tuple / list of these), or None when tlc-build cannot take
    it (the caller then reports a TypeError). ``callable_hook`` names
    callables (``_callables.Representer.reference``); without it a callable
    is None."""
    from ._dtype import dtype
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, numbers.Integral):  # int, NumPy integers
        return str(int(value))
    if isinstance(value, numbers.Real) and \
            not isinstance(value, numbers.Rational):  # float, NumPy floats
        return repr(float(value))
    if value is None:
        return "None"
    if isinstance(value, dtype):
        return "T." + value.tlc_name
    if isinstance(value, str):
        # tlc-build reads a quoted -D value as a Python string literal.
        return repr(str(value))
    if isinstance(value, IteratorValues):
        # tlc-build reads `iter(TUPLE)` as an iterator over the tuple.
        items = format_define(tuple(value), callable_hook)
        return None if items is None else f"iter({items})"
    if isinstance(value, (tuple, list)):
        # tlc-build reads a tuple / list of -D values as Python prints one.
        items = [format_define(v, callable_hook) for v in value]
        if any(t is None for t in items):
            return None
        if isinstance(value, list):
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    torch_name = str(value)
    if torch_name.startswith("torch."):
        try:
            return "T." + dtype(value).tlc_name
        except (TypeError, ValueError):
            return None
    if callable_hook is not None and callable(value) and \
            (not isinstance(value, type) or is_builtin(value) or
             getattr(value, "_tlc_name", None)):
        return callable_hook(value)
    return None


def is_builtin(value):
    """Whether ``value`` is one of Python's builtins (``range``, ``min``,
    ``int``), which tlc's evaluator has under the same name."""
    name = getattr(value, "__name__", None)
    return isinstance(name, str) and getattr(builtins, name, None) is value


class BuildResult:
    """The artifact directory of one tlc-build run and its manifests."""

    def __init__(self, out_dir, manifests, log, command, diagnostics=()):
        self.out_dir = out_dir
        self.manifests = manifests
        self.log = log
        self.command = command
        self.diagnostics = list(diagnostics)
        # The environment variables the instance's evaluation read (None:
        # not known); build() sets it.
        self.environ_reads = None

    @property
    def cache_hits(self):
        """Binaries tlc-build took from its cache in this build."""
        return sum(1 for line in self.log.splitlines()
                   if line.startswith("wrote ") and line.endswith("(cached)"))


# Counters over the process, for tests and curious users.
stats = {"builds": 0, "cache_hits": 0, "compiled": 0,
         "refusals_skipped": 0, "processes": 0}
_stats_lock = threading.Lock()


def _out_dir(key_text):
    key = hashlib.sha256(key_text.encode()).hexdigest()[:24]
    if _env.cache_disabled():
        return tempfile.mkdtemp(prefix="tlc-py-", dir=tmp_root())
    path = os.path.join(cache_root(), "python", key)
    os.makedirs(path, exist_ok=True)
    return path


def build(source_file, kernel, defines, target, timeout=None,
          extra_args=()):
    """Runs tlc-build for one instance of ``kernel`` in ``source_file``
    with the ``-D`` bindings ``defines`` (name -> text) for ``target``;
    returns a :class:`BuildResult` or raises :class:`TLCBuildError`."""
    exe = find_tlc_build()
    if timeout is None:
        from .env import env
        timeout = env.get_compile_timeout_seconds()
    extra_args = list(extra_args) + _env.cuda_compiler_args(target)
    # The environment variables the script reads that are set here are
    # the script's in tlc's evaluation too; the key holds the values of
    # those this kernel's evaluation read (_environ_key).
    tlc_env = dict(_script_env.script_environ(source_file))
    environ = [f"--environ={n}={v}" for n, v in sorted(tlc_env.items())]
    with open(source_file, "rb") as f:
        source_hash = hashlib.sha256(f.read()).hexdigest()
    defs = sorted(defines.items())
    from ._global_funcs import postproc_for
    postproc = postproc_for(target)
    # A post-processed build has its own directory: kernels built before
    # the callback was registered keep their source and binary.
    post_key = None if postproc is None else \
        f"{getattr(postproc, '__module__', '')}." \
        f"{getattr(postproc, '__qualname__', '')}#{id(postproc)}"
    base_text = json.dumps([source_file, source_hash, kernel, defs, target,
                            list(extra_args), post_key])
    reads_file = _reads_file(exe, base_text)
    reads = _known_reads(reads_file)
    key_text = _environ_key(base_text, reads, tlc_env)
    extra_args += environ
    refusal = _refusal_file(exe, key_text) if _remember.on else None
    if refusal is not None:
        try:
            _raise_refused(refusal)
        except TLCBuildError:
            note_environ(reads)  # the key it was refused under
            raise
    out_dir = _out_dir(key_text)
    if postproc is None and not _env.cache_disabled():
        _batch.plan(out_dir, _command(out_dir, exe, source_file, kernel, defs,
                                      target, extra_args), timeout)
    # Builds of one instance share its directory: they run one after the
    # other, in this process (par_compile of equal configurations raced,
    # one build clearing the directory while the other wrote its files)
    # and across processes (both compiled): the second finds the binary
    # in tlc-build's cache (_build_lock).
    with _build_lock.key_lock(out_dir, timeout,
                              processes=not _env.cache_disabled()):
        try:
            result = _build_in(out_dir, exe, source_file, kernel, defs,
                               target, timeout, extra_args)
        except TLCBuildError as e:
            learnt = _learn_reads(reads_file, out_dir, kernel)
            note_environ(learnt)
            if refusal is not None and getattr(e, "refused", None):
                _store_refusal(refusal, e)
                if learnt is not None and learnt != reads:
                    # Found again under the key the next build computes.
                    _store_refusal(_refusal_file(exe, _environ_key(
                        base_text, learnt, tlc_env)), e)
            raise
        learnt = _learn_reads(reads_file, out_dir, kernel)
        note_environ(learnt)
        if learnt is not None and learnt != reads:
            # The next build of this instance is keyed by what it read:
            # the artifact moves there, so that build is this one.
            result = _move_result(result, _out_dir(
                _environ_key(base_text, learnt, tlc_env)))
        if postproc is not None:
            result = _postprocess(result, postproc, exe, source_file, kernel,
                                  defs, target, timeout, extra_args)
        result.environ_reads = learnt
        return result


class _ReadsSink(threading.local):
    sink = None


_reads_sink = _ReadsSink()


@contextlib.contextmanager
def environ_reads_recorded():
    """Within it (in this thread), every build records the environment
    variables its instance's evaluation read in the list this yields: a
    sorted list of names, or None where they are not known (no report, or
    ``os.environ`` used other than by name: every variable the script
    reads may matter). A build the JIT cache answers records the reads
    of the build that made it (``note_environ``). The tuning cache keys a
    tuning by the union (autotuner._TuningKey)."""
    previous = _reads_sink.sink
    _reads_sink.sink = []
    try:
        yield _reads_sink.sink
    finally:
        _reads_sink.sink = previous


def note_environ(reads):
    """Records ``reads`` (see :func:`environ_reads_recorded`)."""
    if _reads_sink.sink is not None:
        _reads_sink.sink.append(None if reads is None else list(reads))


def environ_values(reads, tlc_env):
    """What an instance that read ``reads`` (None: unknown) depends on in
    the environment ``tlc_env`` (name -> value, the script's variables
    set in this process): a hashable value; two environments giving the
    same value evaluate that instance alike."""
    if reads is None:
        return ("script", tuple(sorted(tlc_env.items())))
    return ("read", tuple((n, tlc_env.get(n)) for n in reads))


def _move_result(result, new_dir):
    """``result`` with its artifact directory moved to ``new_dir`` (its
    key once the variables the build read are known); the old directory
    is left empty for builds that wait on it."""
    old_dir = result.out_dir
    if new_dir == old_dir or _env.cache_disabled():
        return result
    with _build_lock.key_lock(new_dir):
        try:
            shutil.rmtree(new_dir, ignore_errors=True)
            os.replace(old_dir, new_dir)
        except OSError:
            return result
        os.makedirs(old_dir, exist_ok=True)
    return BuildResult(new_dir, result.manifests, result.log, result.command,
                       result.diagnostics)


# The environment variables a kernel's evaluation read (tlc-build
# --environ-report), by the build's key without them: in memory and, while
# the cache is on, under <cache>/python/environ/.
_reads_memo = {}
_reads_lock = threading.Lock()
ENVIRON_REPORT = "environ-report.json"


def _tool_identity(exe):
    try:
        st = os.stat(exe)
        return f"{os.path.abspath(exe)}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return exe


def _reads_file(exe, base_text):
    """Where the variables one build (``base_text``: everything its key
    holds but the environment) read are remembered; per tlc-build binary,
    whose evaluator decides what a script reads."""
    key = hashlib.sha256(json.dumps([_tool_identity(exe), base_text])
                         .encode()).hexdigest()
    if _env.cache_disabled():
        return "memo:" + key
    return os.path.join(cache_root(), "python", "environ", key[:32] + ".json")


def _known_reads(path):
    """The sorted variable names the last build of this key read, or None
    when not known (never built, a tlc-build without the report, or one
    that used ``os.environ`` other than by name)."""
    with _reads_lock:
        if path in _reads_memo:
            return _reads_memo[path]
    return _read_names_file(path)


def _read_names_file(path):
    """The list of variable names stored as JSON in ``path``, or None when
    it is missing, unreadable, not such a list, or a ``memo:`` key (kept in
    memory only)."""
    if path.startswith("memo:"):
        return None
    try:
        with open(path) as f:
            reads = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(reads, list) or \
            not all(isinstance(n, str) for n in reads):
        return None
    return reads


def _learn_reads(path, out_dir, kernel):
    """Reads the report tlc-build wrote into ``out_dir`` and remembers
    the variables ``kernel``'s instances read (the whole evaluation's where
    it traced none); returns them, or None when the report is missing or
    says every variable may matter."""
    try:
        with open(os.path.join(out_dir, ENVIRON_REPORT)) as f:
            report = json.load(f)
        file = report["files"][0]
        instances = [i for i in file["instances"] if i["kernel"] == kernel]
        parts = instances or [file]
        if any(p["all"] for p in parts):
            return None
        reads = sorted({n for p in parts for n in p["reads"]})
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None
    with _reads_lock:
        _reads_memo[path] = reads
    if not path.startswith("memo:"):
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
            with open(tmp, "w") as f:
                json.dump(reads, f)
            os.replace(tmp, path)
        except OSError:
            pass
    return reads


def _environ_key(base_text, reads, tlc_env):
    """The key of a build: ``base_text`` and the values tlc's evaluation
    sees (``tlc_env``; a name missing there is unset) of the variables
    ``reads`` the kernel's evaluation read; with ``reads`` None, of every
    variable the script may read (_script_env)."""
    if reads is None:
        return json.dumps([base_text, "script", sorted(tlc_env.items())])
    return json.dumps([base_text, "read",
                       [[n, tlc_env.get(n)] for n in reads]])


def _postprocess(result, postproc, exe, source_file, kernel, defs, target,
                 timeout, extra_args):
    """Passes the generated source of the instance ``result`` holds to the
    registered ``postproc(code, target)`` callback and, when it returns
    other text, builds the instance again compiling that text
    (``tlc-build --replace-source``)."""
    from ._target import Target
    if len(result.manifests) != 1:
        raise TLCBuildError(
            f"kernel '{kernel}' built {len(result.manifests)} instances; a "
            "source post-processing callback takes one", command=result.command)
    name = result.manifests[0]["generated_source"]
    with open(os.path.join(result.out_dir, name)) as f:
        code = f.read()
    kind, _, arch = target.partition(":")
    new = postproc(code, Target(f"{kind} -arch={arch}" if arch else kind))
    if not isinstance(new, str):
        raise TypeError(f"the {kind.upper()} post-processing callback "
                        f"{getattr(postproc, '__name__', postproc)!r} must "
                        f"return the source as a str, got {type(new).__name__}")
    if new == code:
        return result
    stem, ext = os.path.splitext(name)
    replacement = os.path.join(result.out_dir, f"{stem}.postproc{ext}")
    with open(replacement, "w") as f:
        f.write(new)
    return _build_in(result.out_dir, exe, source_file, kernel, defs, target,
                     timeout, list(extra_args) +
                     [f"--replace-source={replacement}"])


class _Remember(threading.local):
    on = False


_remember = _Remember()
_refused_memo = {}
_refused_lock = threading.Lock()


@contextlib.contextmanager
def refusals_remembered():
    """Within it (in this thread), a build tlc-build refused with a
    diagnostic of its own is recorded (in memory and, while the cache is
    on, under ``<cache>/python/refused/``, keyed by the tlc-build binary
    and everything the build's directory key holds), and the same build
    asked for again raises that error at once, without running tlc-build:
    the autotuner skips a configuration the compiler refuses instead of
    building it again in every tuning. Timeouts, crashes and missing tools
    are not recorded."""
    previous = _remember.on
    _remember.on = True
    try:
        yield
    finally:
        _remember.on = previous


def _refusal_file(exe, key_text):
    key = hashlib.sha256(json.dumps([_tool_identity(exe), key_text])
                         .encode()).hexdigest()
    if _env.cache_disabled():
        return "memo:" + key
    return os.path.join(cache_root(), "python", "refused", key[:32] + ".json")


def _raise_refused(path):
    with _refused_lock:
        found = _refused_memo.get(path)
    if found is None and not path.startswith("memo:"):
        try:
            with open(path) as f:
                found = tuple(json.load(f))
        except (OSError, ValueError, TypeError):
            found = None
    if found is None or len(found) != 4:
        return
    category, message = found[:2]
    with _stats_lock:
        stats["refusals_skipped"] += 1
    head, _, diagnostics = message.partition("\n")
    e = error_class(category)(
        head + " (refused before by this tlc-build; not built again)",
        diagnostics)
    e.refused = found
    e.remembered = True
    raise e


def _store_refusal(path, error):
    with _refused_lock:
        _refused_memo[path] = tuple(error.refused)
    if path.startswith("memo:"):
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "w") as f:
            json.dump(list(error.refused), f)
        os.replace(tmp, path)
    except OSError:
        pass


def _command(out_dir, exe, source_file, kernel, defs, target, extra_args):
    """The tlc-build command that builds one instance into ``out_dir``."""
    diag_file = os.path.join(out_dir, "diagnostics.json")
    cmd = [exe, source_file, f"--target={target}", f"--kernel={kernel}",
           "--defines-only", "-o", out_dir,
           f"--diagnostics-file={diag_file}",
           f"--environ-report={os.path.join(out_dir, ENVIRON_REPORT)}"]
    cmd += [f"-D{k}={v}" for k, v in defs]
    cmd += list(extra_args)
    if _env.cache_disabled():
        cmd.append("--no-cache")
    return cmd


def _clear_outputs(out_dir):
    """Removes the manifests and diagnostics of an earlier build: stale
    manifests of an older version of the file must not be read."""
    for name in os.listdir(out_dir):
        if name.endswith(".json"):
            os.remove(os.path.join(out_dir, name))


def _build_in(out_dir, exe, source_file, kernel, defs, target, timeout,
              extra_args):
    diag_file = os.path.join(out_dir, "diagnostics.json")
    cmd = _command(out_dir, exe, source_file, kernel, defs, target,
                   extra_args)
    from .env import env
    proc = _batch.take(cmd)  # built already by a batch (tlc-build --configs)
    if proc is None:
        _clear_outputs(out_dir)
        if env.is_print_on_compilation_enabled():
            _log.info("tlc-build: compiling kernel '%s' of %s for target "
                      "'%s'", kernel, source_file, target)
        with _stats_lock:
            stats["processes"] += 1
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=timeout,
                                  env=env.build_environment())
        except subprocess.TimeoutExpired as e:
            raise TLCBuildError(f"tlc-build timed out after {timeout} s "
                                f"building '{kernel}'", command=cmd) from e
        except OSError as e:
            raise TLCBuildError(f"cannot run tlc-build '{exe}': {e}",
                                command=cmd) from e
    if _env.verbose() and proc.stdout:
        print(proc.stdout, end="")
    if proc.returncode != 0:
        diagnostics = read_diagnostics(diag_file)
        raised = raised_in_instance(diagnostics, source_file, kernel)
        if raised is not None:
            # Tracing the body raised (tlc-build refuses to build the rest
            # of it): the call raises what the body raised.
            e = error_class(raised_category(raised))(
                f"kernel '{kernel}' raised while tlc built it: "
                f"{format_raise(raised)}", proc.stderr + proc.stdout,
                command=cmd)
            e.refused = (raised_category(raised), str(e), None, None)
            raise e
        raise build_failure(diagnostics, os.path.exists(diag_file), proc,
                            kernel, source_file, target, cmd)
    manifests = []
    for name in sorted(os.listdir(out_dir)):
        if name.endswith(".json"):
            with open(os.path.join(out_dir, name)) as f:
                m = json.load(f)
            if isinstance(m, dict) and m.get("format") == "tlc-kernel":
                if m.get("version", 1) > MANIFEST_VERSION:
                    raise TLCBuildError(
                        f"{os.path.join(out_dir, name)} has manifest "
                        f"version {m.get('version')}, but this package "
                        f"reads versions up to {MANIFEST_VERSION}; use the "
                        "package of the same tlc", "", command=cmd)
                manifests.append(m)
    if not manifests:
        raise TLCBuildError(
            f"tlc-build built no instance of kernel '{kernel}' in "
            f"{source_file} (is it a @tilelang.jit / @T.prim_func function "
            f"at module level?); command: {' '.join(cmd)}",
            proc.stderr + proc.stdout, command=cmd)
    result = BuildResult(out_dir, manifests, proc.stdout, cmd,
                         read_diagnostics(diag_file))
    with _stats_lock:
        stats["builds"] += 1
        stats["cache_hits"] += result.cache_hits
        stats["compiled"] += sum(
            1 for line in proc.stdout.splitlines()
            if line.startswith("wrote ") and not line.endswith("(cached)"))
    return result


def build_failure(diagnostics, have_file, proc, kernel, source_file, target,
                  cmd):
    """The exception for a failed tlc-build run ``proc``: its first error
    (``diagnostics``, the run's ``--diagnostics-file``: the analysis's and
    what the target reported while lowering and writing the artifacts)
    named ``FILE:LINE:COL`` in the message, the exception type TileLang
    raises for it (its ``category``), and, when the compiler refused the
    program (not a crash, a timeout or a failed tool: ``toolFailure``), a
    ``refused`` record a tuner may remember. Only a tlc-build that wrote no
    file (``have_file`` false: an older one, or one that crashed) has its
    stderr parsed instead."""
    error = first_error(diagnostics)
    refused = error is not None and not error.get("toolFailure")
    if error is not None:
        category = error.get("category")
    elif not have_file:
        category = lowering_category(proc.stderr)
        error = target_error(proc.stderr, source_file)
        refused = error is not None
    else:
        category = None
    where = f": {format_diagnostic(error).splitlines()[0]}" \
        if error is not None else ""
    e = error_class(category)(
        f"tlc-build could not build kernel '{kernel}' of {source_file} "
        f"for target '{target}'{where} (exit status {proc.returncode}); "
        f"command: {' '.join(cmd)}", proc.stderr + proc.stdout,
        command=cmd)
    e.diagnostic = error
    if refused:
        # The compiler refused the program (a diagnostic of its own, not a
        # crash or a missing tool): the same build is refused again, so a
        # tuner may skip it (refusals_remembered).
        e.refused = (category, str(e), error.get("file"), error.get("line"))
    return e


def emit_tile(source_file, kernel, defines, target="cpu", texts=False):
    """The Tile IR of one instance (``tlc-build --emit=tile``); ``defines``
    are values, or with ``texts`` their ``-D`` texts already."""
    exe = find_tlc_build()
    cmd = [exe, source_file, "--emit=tile", f"--target={target}",
           f"--kernel={kernel}", "--defines-only"]
    for k, v in sorted(defines.items()):
        text = v if texts else format_define(v)
        if text is not None:
            cmd.append(f"-D{k}={text}")
    cmd += _script_env.environ_args(source_file)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise TLCBuildError(f"tlc-build --emit=tile failed for '{kernel}'",
                            proc.stderr, command=cmd)
    return proc.stdout


def emit_tile_of(command):
    """The Tile IR of the instances a build ``command`` (a tlc-build
    argument list) made: the same file, kernel, bindings and options,
    with ``--emit=tile`` in place of writing artifacts."""
    cmd, skip = [], False
    for arg in command:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
            continue
        if arg.startswith(("--diagnostics-file=", "--environ-report=")):
            continue
        cmd.append(arg)
    cmd.append("--emit=tile")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise TLCBuildError("tlc-build --emit=tile failed", proc.stderr,
                            command=cmd)
    return proc.stdout


_checked = {}
_checked_lock = threading.Lock()


def _original_lines(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.read().splitlines()
    except OSError:
        return []


def _shared_prefix_lines(derived, path, original):
    """How many first lines of file ``derived`` are the lines of the
    script ``path`` (``original``): all of them for a copy the package
    derived by appending to it, else 0."""
    if not original or not derived:
        return 0
    lines = _original_lines(derived)
    if lines[:len(original)] == original:
        return len(original)
    return 0


def check_categorized(source_file, kernel, defines, target, within=None):
    """The error TileLang would raise while tracing this instance, as
    ``(exception class, diagnostic)``: the first error of ``tlc-build
    --check`` whose diagnostic has a category (a Python exception type)
    raised at the definition (``"raisedAt": "definition"``) and, with
    ``within`` = ``(file, first line, last line)``, located in those lines
    of that file (the prim_func being defined; errors elsewhere in a
    derived copy of the script are kept); None when there is none. The
    bodies of ``with pytest.raises(...)`` blocks are traced too (a
    prim_func defined there is one meant to fail). Other errors are left
    to the build, which reports them with the target's. Memoized per file
    content, bindings and lines."""
    exe = find_tlc_build()
    with open(source_file, "rb") as f:
        source_hash = hashlib.sha256(f.read()).hexdigest()
    defs = sorted(defines.items())
    environ = _script_env.environ_args(source_file)
    key = (source_file, source_hash, kernel, tuple(defs), target, within,
           tuple(environ))
    with _checked_lock:
        if key in _checked:
            return _checked[key]
    cmd = [exe, source_file, "--check", "--format=json", "--no-source-lines",
           "--trace-expected-failures", f"--target={target}",
           f"--kernel={kernel}", "--defines-only"]
    cmd += [f"-D{k}={v}" for k, v in defs] + environ
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:
        return None
    result = None
    diags = []
    # --check prints the JSON array on stdout.
    start = proc.stdout.find("[")
    if start >= 0:
        try:
            diags, _ = json.JSONDecoder().raw_decode(proc.stdout[start:])
        except ValueError:
            diags = []
    diags = diags if isinstance(diags, list) else []
    if within is not None:
        path, first, last = within
        kept_lines = _original_lines(path)

        def inside(d):
            file = d.get("file", "")
            line = d.get("line", 0)
            try:
                same = os.path.samefile(file, path)
            except OSError:
                same = False
            if not same and line <= _shared_prefix_lines(file, path,
                                                         kept_lines):
                # A derived copy (the script with definitions or a lifted
                # factory appended): its first lines are the script's.
                same = True
            return not same or first <= line <= last
        diags = [d for d in diags if inside(d)]
    error = first_error(diags, raised_at="definition")
    if error is not None:
        result = (error_class(error["category"]), error)
    with _checked_lock:
        _checked[key] = result
    return result
