"""One build of an instance at a time, across threads and processes.

Two processes (or two threads) that build the same instance into the
shared cache at once both ran tlc-build: both missed its content-hash
cache and both compiled, and each cleared the other's files in the
instance's directory. :func:`key_lock` serializes them: the second waits
for the first and then builds into a warm cache (tlc-build's ``(cached)``).

The lock is ``fcntl.flock`` on ``DIR.lock`` beside the instance's
directory ``DIR`` (an exclusive lock of one open file: the kernel drops it
when its holder exits or dies, so a crashed build never leaves it held).
The holder writes ``PID HOST`` into the file. A waiter gives up after
``TLC_BUILD_LOCK_TIMEOUT`` seconds (default: the compile timeout plus a
minute, else 15 minutes): when the holder named in the file is a process
of this host that no longer runs (a lock a file system without ``flock``
semantics kept), the lock is stale and the waiter removes the file and
takes a new one; otherwise it builds without the lock, with a warning.
"""

import contextlib
import errno
import fcntl
import logging
import os
import socket
import threading
import time

_log = logging.getLogger("tilelang")

_thread_locks = {}
_thread_locks_lock = threading.Lock()

# Counters for tests: waits for another build, stale locks broken, and
# waits given up.
stats = {"waited": 0, "stale": 0, "timed_out": 0}
_stats_lock = threading.Lock()

_POLL_SECONDS = 0.05


def _count(name):
    with _stats_lock:
        stats[name] += 1


def lock_timeout(compile_timeout=None):
    """How long a build waits for another build of its instance."""
    text = os.environ.get("TLC_BUILD_LOCK_TIMEOUT", "").strip()
    if text:
        try:
            value = float(text)
            if value >= 0:
                return value
        except ValueError:
            pass
        raise ValueError("TLC_BUILD_LOCK_TIMEOUT must be a non-negative "
                         f"number of seconds, got {text!r}")
    if compile_timeout:
        return float(compile_timeout) + 60.0
    return 900.0


def _holder(path):
    """``(pid, host)`` written in lock file ``path``, or None."""
    try:
        with open(path) as f:
            pid, host = f.read().split()[:2]
        return int(pid), host
    except (OSError, ValueError):
        return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_stale(path):
    """Whether the holder named in ``path`` is a process of this host that
    no longer runs."""
    holder = _holder(path)
    return holder is not None and holder[1] == socket.gethostname() and \
        not _alive(holder[0])


def _acquire(path, timeout):
    """An open file of ``path`` holding its flock, or None when the wait
    ran past ``timeout`` seconds and the holder still runs."""
    deadline = time.monotonic() + timeout
    waited = False
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            if not waited:
                waited = True
                _count("waited")
            if time.monotonic() < deadline:
                time.sleep(_POLL_SECONDS)
                continue
            if _is_stale(path):
                _count("stale")
                _log.warning("tilelang: removing the stale build lock %s "
                             "(its holder %s no longer runs)", path,
                             _holder(path))
                with contextlib.suppress(OSError):
                    os.unlink(path)
                deadline = time.monotonic() + timeout
                continue
            _count("timed_out")
            _log.warning("tilelang: waited %.0f s for the build lock %s (held "
                         "by %s); building without it", timeout, path,
                         _holder(path))
            return None
        # The file may have been removed as stale after this open: lock
        # the one at the path.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except OSError:
            same = False
        if not same:
            os.close(fd)
            continue
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        return fd


@contextlib.contextmanager
def key_lock(out_dir, compile_timeout=None, processes=True):
    """Holds the lock of the instance directory ``out_dir``: this thread's
    among the process's threads and, with ``processes``, ``out_dir.lock``'s
    flock among processes (see the module's docs)."""
    with _thread_locks_lock:
        lock = _thread_locks.setdefault(out_dir, threading.Lock())
    if not lock.acquire(blocking=False):
        _count("waited")
        lock.acquire()
    try:
        fd = _acquire(out_dir.rstrip(os.sep) + ".lock",
                      lock_timeout(compile_timeout)) if processes else None
        try:
            yield
        finally:
            if fd is not None:
                os.close(fd)  # drops the flock
    finally:
        lock.release()
