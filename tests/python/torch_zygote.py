"""One ``import torch`` for all of ctest's ``python-*`` tests.

Every Python test is its own ctest entry and its own process, and each
process paid ``import torch`` (torch 1.13: ~2.5 CPU s, about 185 s of the
suite). This server imports torch and NumPy once and forks a child for each
test; the child is a copy of the server as it was after those imports, so
one test's state (the package's modules, monkeypatches, environment,
caches of its own) never reaches another, as with separate processes.

    torch_zygote.py start SOCKET   # ctest fixture: serve in the background
    torch_zygote.py run SOCKET SCRIPT [ARGS...]
    torch_zygote.py stop SOCKET    # ctest fixture cleanup

``run`` is what each test's ctest command calls: it hands its argument
list, environment, working directory and its stdin/stdout/stderr to the
server, whose child runs ``run_script.py SCRIPT ARGS`` exactly as the test
command did before (same ``sys.argv``, ``sys.path`` and exit status 77
without torch), and exits with the child's status. When no server answers
(a test run by hand, torch missing), or when the test's ``PYTHON*``
variables (read at interpreter start) differ from the server's, ``run``
runs ``run_script.py`` itself.
If ctest kills ``run`` (its timeout), the server kills the child's whole
process group (the child's tlc-build and compiler runs with it). The server
answers only its own user (``SO_PEERCRED``), leaves after ``stop`` or 30
idle minutes, and appends one line per test to ``SOCKET.log``: exit status,
wall and CPU seconds of the test's process tree (``os.wait4``), which
ctest cannot count (the test's process is the server's child, not ctest's);
``start`` begins a new log.
"""

import array
import atexit
import json
import os
import runpy
import signal
import socket
import struct
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_SCRIPT = os.path.join(HERE, "run_script.py")
IDLE_SECONDS = 30 * 60
# The server's own sockets, closed in each test's child.
_SOCKETS = set()


def _connect(path):
    """A client socket to SOCKET (bound relative to its directory: a build
    tree's path may exceed AF_UNIX's 108 bytes), or None."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    cwd = os.getcwd()
    try:
        os.chdir(os.path.dirname(os.path.abspath(path)))
        sock.connect(os.path.basename(path))
        return sock
    except OSError:
        sock.close()
        return None
    finally:
        os.chdir(cwd)


def _recv_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _send_msg(conn, obj, fds=()):
    data = json.dumps(obj).encode()
    head = struct.pack("!I", len(data))
    if fds:
        conn.sendmsg([head + data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                      array.array("i", fds))])
    else:
        conn.sendall(head + data)


def _recv_msg(conn, nfds=0):
    """A message and the file descriptors passed with it."""
    fds = array.array("i")
    msg, anc, _, _ = conn.recvmsg(
        4, socket.CMSG_SPACE(nfds * fds.itemsize) if nfds else 0)
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
    if len(msg) < 4:
        return None, list(fds)
    body = _recv_exact(conn, struct.unpack("!I", msg)[0])
    return (json.loads(body) if body is not None else None), list(fds)


def _startup_env(env):
    """The variables Python reads only when it starts."""
    return {k: v for k, v in env.items() if k.startswith("PYTHON")}


def _child(request, fds):
    """In the forked child: become the test process and never return."""
    code = 1
    try:
        os.setsid()
        for sock in list(_SOCKETS):
            sock.close()
        for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [RUN_SCRIPT] + request["args"]
        try:
            runpy.run_path(RUN_SCRIPT, run_name="__main__")
            code = 0
        except SystemExit as e:
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        # What the interpreter does at exit: wait for non-daemon threads,
        # run atexit handlers, flush.
        threading._shutdown()
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code & 0xFF)


def _serve_one(conn, state):
    try:
        request, fds = _recv_msg(conn, 3)
        if request is None or request.get("op") == "stop":
            if request is not None:
                state["stop"] = True
                _send_msg(conn, {"status": 0})
            return
        if len(fds) != 3:
            _send_msg(conn, {"status": 1, "error": "stdio not passed"})
            return
        if _startup_env(request["env"]) != _startup_env(os.environ):
            # PYTHONPATH, PYTHONHASHSEED, ...: read when an interpreter
            # starts, so the test needs one of its own.
            for fd in fds:
                os.close(fd)
            _send_msg(conn, {"fallback": True})
            return
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request, fds)
        for fd in fds:
            os.close(fd)
        # The client stays connected until it hears the status; an early
        # EOF means it was killed (ctest's timeout): so is the test.
        done = threading.Event()

        def watch():
            try:
                conn.recv(1)
            except OSError:
                pass
            if not done.is_set():
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
        threading.Thread(target=watch, daemon=True).start()
        start = time.monotonic()
        _, status, usage = os.wait4(pid, 0)
        done.set()
        if os.WIFSIGNALED(status):
            code = 128 + os.WTERMSIG(status)
        else:
            code = os.WEXITSTATUS(status)
        _send_msg(conn, {"status": code})
        # One line per test: its CPU seconds (the child and what it waited
        # for: tlc-build, the host compiler), which ctest cannot see here.
        with open(state["log"], "a") as log:
            log.write(f"{os.path.basename(request['args'][0])} "
                      f"status={code} wall={time.monotonic() - start:.2f}s "
                      f"cpu={usage.ru_utime + usage.ru_stime:.2f}s\n")
    except OSError:
        pass
    finally:
        state["active"] -= 1
        state["last"] = time.monotonic()
        _SOCKETS.discard(conn)
        conn.close()


def _serve(path, ready_fd):
    import numpy  # noqa: F401
    import torch  # noqa: F401
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    os.chdir(os.path.dirname(os.path.abspath(path)))
    name = os.path.basename(path)
    for old in (name, name + ".log"):
        if os.path.exists(old):
            os.unlink(old)
    _SOCKETS.add(server)
    server.bind(name)
    os.chmod(name, 0o600)
    server.listen(64)
    server.settimeout(5)
    os.write(ready_fd, b"1")
    os.close(ready_fd)
    state = {"stop": False, "active": 0, "last": time.monotonic(),
             "log": os.path.abspath(name + ".log")}
    lock = threading.Lock()
    while not state["stop"]:
        try:
            conn, _ = server.accept()
        except socket.timeout:
            if state["active"] == 0 and \
                    time.monotonic() - state["last"] > IDLE_SECONDS:
                break
            continue
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                struct.calcsize("3i"))
        if struct.unpack("3i", creds)[1] != os.getuid():
            conn.close()
            continue
        conn.settimeout(None)
        _SOCKETS.add(conn)
        with lock:
            state["active"] += 1
        threading.Thread(target=_serve_one, args=(conn, state),
                         daemon=True).start()
    try:
        os.unlink(name)
    except OSError:
        pass


def start(path):
    """Serve in a detached grandchild; return once it listens (or has
    failed: then ``run`` falls back to its own process)."""
    import importlib.util
    if importlib.util.find_spec("torch") is None:
        print("torch is not installed: the tests run without the server")
        return 0
    stop(path)
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(r)
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        try:
            _serve(path, w)
        finally:
            os._exit(0)
    os.close(w)
    os.wait()
    ok = os.read(r, 1) == b"1"
    print(f"torch server at {path}" if ok else
          "the torch server did not start: each test imports torch itself")
    return 0


def stop(path):
    conn = _connect(path)
    if conn is not None:
        _send_msg(conn, {"op": "stop"})
        _recv_msg(conn)
        conn.close()
    return 0


def run(path, args):
    conn = _connect(path)
    if conn is None:
        sys.argv = [RUN_SCRIPT] + args
        runpy.run_path(RUN_SCRIPT, run_name="__main__")
        return 0
    sys.stdout.flush()
    sys.stderr.flush()
    _send_msg(conn, {"args": args, "env": dict(os.environ),
                     "cwd": os.getcwd()}, fds=(0, 1, 2))
    reply, _ = _recv_msg(conn)
    if reply is not None and reply.get("fallback"):
        conn.close()
        sys.argv = [RUN_SCRIPT] + args
        runpy.run_path(RUN_SCRIPT, run_name="__main__")
        return 0
    if reply is None:
        print("torch_zygote: the server closed the connection",
              file=sys.stderr)
        return 1
    if reply.get("error"):
        print(f"torch_zygote: {reply['error']}", file=sys.stderr)
    return reply["status"]


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("start", "run", "stop"):
        print(__doc__)
        return 2
    op, path = sys.argv[1], sys.argv[2]
    if op == "start":
        return start(path)
    if op == "stop":
        return stop(path)
    return run(path, sys.argv[3:])


if __name__ == "__main__":
    sys.exit(main())
