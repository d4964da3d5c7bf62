"""Building a tuning sweep's configurations in few tlc-build processes.

One tlc-build process per configuration pays a process start, an MLIR
context and the file's parse every time (docs/perf/python-autotune-
sweep.md). For a large sweep the tuner first *plans* its builds: it makes
each configuration's build request as it would (:func:`planned`: the
build stops with :class:`Planned` where it would run tlc-build), then
:func:`run` builds them with ``tlc-build --configs`` (one process builds a
chunk of configurations of one file, kernel, target and options, one after
the other), as many processes at once as the tuner has workers. The
tuner's builds then find their outcome (:func:`take`: exit status, stdout,
stderr; the artifacts in their directory) instead of running tlc-build,
and go on as before, so a configuration's result is the same either way.
A configuration a batch did not finish (a crash, a timeout) is built alone.
``TLC_AUTOTUNE_BATCH``: the least number of configurations built so
(default 32; 0 turns it off).
"""

import contextlib
import json
import math
import os
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

from . import _build_lock

# Configurations one tlc-build --configs process builds at most (its
# chunk's directories are locked while it runs).
CHUNK = 64

stats = {"processes": 0, "configs": 0, "unfinished": 0}
_stats_lock = threading.Lock()


class Planned(BaseException):
    """Raised where a build planned by :func:`planned` would run tlc-build
    (a BaseException, so that the kernel's own ``except Exception`` does
    not take it for a build error)."""


class _Planning(threading.local):
    requests = None


_planning = _Planning()
_done = {}
_done_lock = threading.Lock()


def threshold():
    """The least number of configurations a tuner builds in batches."""
    text = os.environ.get("TLC_AUTOTUNE_BATCH", "").strip()
    try:
        return int(text) if text else 32
    except ValueError:
        return 32


def wanted(count):
    n = threshold()
    return n > 0 and count >= n


@contextlib.contextmanager
def planned():
    """Within it (in this thread), a build that would run tlc-build records
    its request in the list this yields and raises :class:`Planned`."""
    previous = _planning.requests
    _planning.requests = []
    try:
        yield _planning.requests
    finally:
        _planning.requests = previous


def plan(out_dir, cmd, timeout):
    """Called by a build before it runs tlc-build ``cmd`` into ``out_dir``:
    records it and raises :class:`Planned` while planning."""
    if _planning.requests is not None:
        _planning.requests.append((out_dir, list(cmd), timeout))
        raise Planned()


def take(cmd):
    """The outcome (a CompletedProcess) a batch gave build ``cmd``, once;
    None when none did."""
    with _done_lock:
        return _done.pop(tuple(cmd), None)


def discard(requests):
    """Forgets outcomes of ``requests`` that no build took."""
    with _done_lock:
        for _, cmd, _ in requests:
            _done.pop(tuple(cmd), None)


def _per_config(cmd):
    """``(shared arguments, -D texts)`` of a build command: its -o
    directory, diagnostics file and environment report are the
    configuration's own."""
    shared, defines, skip = [], [], False
    for arg in cmd[1:]:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg.startswith(("--diagnostics-file=", "--environ-report=")):
            pass
        elif arg.startswith("-D"):
            defines.append(arg[2:])
        else:
            shared.append(arg)
    return tuple([cmd[0]] + shared), defines


def _option(cmd, prefix):
    for arg in cmd:
        if arg.startswith(prefix):
            return arg[len(prefix):]
    return None


def _run_chunk(exe_args, chunk, environment):
    """Builds the requests ``chunk`` with one tlc-build --configs process;
    records each finished one's outcome."""
    with contextlib.ExitStack() as locks, \
            tempfile.TemporaryDirectory(prefix="tlc-configs-") as tmp:
        for out_dir, _, timeout in sorted(chunk, key=lambda r: r[0]):
            locks.enter_context(_build_lock.key_lock(out_dir, timeout))
        lines = []
        for i, (out_dir, cmd, _) in enumerate(chunk):
            from ._build import _clear_outputs
            _clear_outputs(out_dir)
            _, defines = _per_config(cmd)
            lines.append(json.dumps({
                "defines": defines, "out": cmd[cmd.index("-o") + 1],
                "diagnostics_file": _option(cmd, "--diagnostics-file="),
                "environ_report": _option(cmd, "--environ-report="),
                "stdout": os.path.join(tmp, f"{i}.out"),
                "stderr": os.path.join(tmp, f"{i}.err")}))
        listing = os.path.join(tmp, "configs.jsonl")
        with open(listing, "w") as f:
            f.write("\n".join(lines) + "\n")
        timeouts = [t for _, _, t in chunk]
        timeout = None if any(t is None for t in timeouts) else sum(timeouts)
        try:
            proc = subprocess.run(list(exe_args) + [f"--configs={listing}"],
                                  capture_output=True, text=True,
                                  timeout=timeout, env=environment)
            status_lines = proc.stdout
        except subprocess.TimeoutExpired as e:
            status_lines = e.stdout or ""
            if isinstance(status_lines, bytes):
                status_lines = status_lines.decode(errors="replace")
        except OSError:
            status_lines = ""
        with _stats_lock:
            stats["processes"] += 1
        finished = 0
        for line in status_lines.splitlines():
            try:
                record = json.loads(line)
                index, status = int(record["index"]), int(record["status"])
                out_dir, cmd, _ = chunk[index]
            except (ValueError, KeyError, TypeError, IndexError):
                continue
            texts = []
            for ext in ("out", "err"):
                try:
                    with open(os.path.join(tmp, f"{index}.{ext}"),
                              errors="replace") as f:
                        texts.append(f.read())
                except OSError:
                    texts.append("")
            with _done_lock:
                _done[tuple(cmd)] = subprocess.CompletedProcess(
                    cmd, status, texts[0], texts[1])
            finished += 1
        with _stats_lock:
            stats["configs"] += finished
            stats["unfinished"] += len(chunk) - finished


def chunk_size(count, workers):
    """Configurations a --configs process builds when ``count`` of them
    are built by ``workers`` processes at once: whole waves of
    ``workers`` chunks of at most CHUNK each (1,216 configurations on 16
    workers are 32 chunks of 38, two full waves, not 19 of 64, a second
    wave of 3 with 13 workers idle)."""
    workers = max(1, workers)
    waves = max(1, math.ceil(count / (workers * CHUNK)))
    return max(1, math.ceil(count / (waves * workers)))


def run(requests, workers):
    """Builds the planned ``requests`` (:func:`planned`) with tlc-build
    --configs, ``workers`` processes at once; returns how many ran."""
    from .env import env
    unique = {}
    for request in requests:
        unique.setdefault(tuple(request[1]), request)
    groups = {}
    for request in unique.values():
        shared, _ = _per_config(request[1])
        groups.setdefault(shared, []).append(request)
    chunks = []
    for shared, members in groups.items():
        size = chunk_size(len(members), workers)
        for start in range(0, len(members), size):
            chunks.append((shared, members[start:start + size]))
    if not chunks:
        return 0
    environment = env.build_environment()
    with ThreadPoolExecutor(max(1, min(workers, len(chunks)))) as pool:
        list(pool.map(lambda c: _run_chunk(c[0], c[1], environment), chunks))
    return len(chunks)
