"""Two builds of the same instance at once, into one cache: two Python
processes released together (a file they wait for), then two threads of
one process. Without a lock both missed tlc-build's cache and both
compiled; now the second waits for the first (_build_lock: flock on the
instance directory's lock file) and takes the binary from the cache: one
compile and one cache hit, and both kernels compute what NumPy does. The
host compiler is a stand-in that sleeps a second before running c++, so
that the two builds overlap; nothing here asserts a duration. (It takes
10-60 s on a loaded machine: two real host compilations, one per pair.)
The lock's wait limit: a holder that still runs is waited for
TLC_BUILD_LOCK_TIMEOUT seconds, then built past; a lock whose holder named
in the file is gone (a file system that kept the flock) is removed."""

import json
import os
import stat
import subprocess
import sys
import tempfile
import threading
import time

CHILD = r'''
import json, os, sys, time
import numpy as np
import tilelang
import tilelang.language as T
from tilelang import _build_lock

@tilelang.jit(out_idx=[-1], target="cpu")
def axpb(N, alpha=3.0, block=64):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32), Z: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                Z[bx * block + i] = X[bx * block + i] * alpha + Y[bx * block + i]
    return main

while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
k = axpb(256)
x = np.random.rand(256).astype(np.float32)
y = np.random.rand(256).astype(np.float32)
np.testing.assert_allclose(k(x, y), x.astype(np.float64) * 3.0 + y, rtol=1e-6)
print(json.dumps({"stats": tilelang.build_stats, "lock": _build_lock.stats}))
'''


HOLDER = r'''
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
os.write(fd, sys.argv[2].encode())
print("held", flush=True)
time.sleep(120)
'''


def held_lock(path, content):
    """A child process that holds the flock of ``path`` (which says
    ``content``)."""
    child = subprocess.Popen([sys.executable, "-c", HOLDER, path, content],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "held"
    return child


def lock_limits(tmp):
    import socket
    from tilelang import _build_lock
    os.environ["TLC_BUILD_LOCK_TIMEOUT"] = "0.2"
    try:
        out_dir = os.path.join(tmp, "instance")
        # Held by a process that runs: waited for, then built past.
        child = held_lock(out_dir + ".lock", f"{os.getpid()} "
                          f"{socket.gethostname()}\n")
        before = dict(_build_lock.stats)
        with _build_lock.key_lock(out_dir):
            pass
        assert _build_lock.stats["timed_out"] == before["timed_out"] + 1
        assert _build_lock.stats["stale"] == before["stale"]
        child.kill()
        child.wait()
        # Named a process of this host that no longer runs: stale.
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        child = held_lock(out_dir + ".lock",
                          f"{dead.pid} {socket.gethostname()}\n")
        before = dict(_build_lock.stats)
        with _build_lock.key_lock(out_dir):
            with open(out_dir + ".lock") as f:
                assert f.read().split()[0] == str(os.getpid())
        assert _build_lock.stats["stale"] == before["stale"] + 1
        assert _build_lock.stats["timed_out"] == before["timed_out"]
        child.kill()
        child.wait()
    finally:
        del os.environ["TLC_BUILD_LOCK_TIMEOUT"]
    print("lock limits: a live holder waited for, a dead one's lock removed")


def main():
    with tempfile.TemporaryDirectory(prefix="tlc-concurrent-") as tmp:
        lock_limits(tmp)
        script = os.path.join(tmp, "axpb_kernel.py")
        with open(script, "w") as f:
            f.write(CHILD)
        cxx = os.path.join(tmp, "slow-cxx")
        with open(cxx, "w") as f:
            f.write("#!/bin/sh\nsleep 1\nexec c++ \"$@\"\n")
        os.chmod(cxx, os.stat(cxx).st_mode | stat.S_IXUSR)
        import tilelang
        package_dir = os.path.dirname(os.path.dirname(
            os.path.abspath(tilelang.__file__)))
        env = dict(os.environ, TLC_CACHE_DIR=os.path.join(tmp, "cache"),
                   TLC_HOST_CXX=cxx,
                   PYTHONPATH=os.pathsep.join(
                       [package_dir, os.environ.get("PYTHONPATH", "")]))
        for name in ("TILELANG_DISABLE_CACHE", "TLC_NO_CACHE"):
            env.pop(name, None)

        # Two processes.
        go = os.path.join(tmp, "go")
        children = [subprocess.Popen([sys.executable, script, go], env=env,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
                    for _ in range(2)]
        time.sleep(0.5)  # both start importing; the file releases them
        open(go, "w").close()
        results = []
        for c in children:
            out, err = c.communicate(timeout=300)
            assert c.returncode == 0, f"child failed:\n{out}\n{err}"
            results.append(json.loads(out.strip().splitlines()[-1]))
        compiled = sorted(r["stats"]["compiled"] for r in results)
        hits = sorted(r["stats"]["cache_hits"] for r in results)
        assert compiled == [0, 1] and hits == [0, 1], results
        print("two processes: one compile, one cache hit;",
              "the second waited" if any(r["lock"]["waited"]
                                         for r in results) else
              "they did not overlap")

        # Two threads of one process, building the same new instance.
        os.environ.update(TLC_CACHE_DIR=os.path.join(tmp, "cache-threads"),
                          TLC_HOST_CXX=cxx)
        from tilelang import _build
        before = dict(_build.stats)
        outcome = []
        barrier = threading.Barrier(2)

        def build():
            barrier.wait()
            try:
                r = _build.build(script, "axpb", {"N": "128"}, "cpu")
                outcome.append(r)
            except Exception as e:  # reported below
                outcome.append(e)

        threads = [threading.Thread(target=build) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(isinstance(r, _build.BuildResult) for r in outcome), outcome
        assert _build.stats["compiled"] - before["compiled"] == 1, _build.stats
        assert _build.stats["cache_hits"] - before["cache_hits"] == 1, \
            _build.stats
        print("two threads: one compile, one cache hit")
    print("concurrent_builds: ok")


if __name__ == "__main__":
    main()
