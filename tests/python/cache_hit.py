# The build cache is shared by the package and tlc-build and survives the
# process: the same kernel built by a second Python process, and by the
# command line, takes its binary from the cache (tlc-build prints
# "wrote DIR/NAME.so (cached)"); TILELANG_DISABLE_CACHE=1 and
# tlc-build --no-cache compile again. The key is tlc's version, the target,
# the instance's Tile IR and the compiler flags: a comment that moves the
# kernel down the file (its generated source's location comments change)
# still hits; a change to the kernel's body misses.

import json
import os
import subprocess
import sys
import tempfile

CHILD = r'''
import json, sys
import tilelang
import tilelang.language as T
import torch

@tilelang.jit(out_idx=[-1], target="cpu")
def axpy(N, alpha=2.0, block=64):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32), Z: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                Z[bx * block + i] = X[bx * block + i] * alpha OP Y[bx * block + i]
    return main

k = axpy(300)
x, y = torch.randn(300), torch.randn(300)
torch.testing.assert_close(k(x, y), x * 2.0 OP y)
print(json.dumps({"stats": tilelang.build_stats, "command": k.build_result.command}))
'''


def run_child(script, env):
    out = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError(f"child failed:\n{out.stdout}\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "axpy_kernel.py")
        with open(script, "w") as f:
            f.write(CHILD.replace("OP", "+"))
        import tilelang
        package_dir = os.path.dirname(os.path.dirname(os.path.abspath(tilelang.__file__)))
        env = dict(os.environ, TLC_CACHE_DIR=os.path.join(tmp, "cache"),
                   PYTHONPATH=os.pathsep.join([package_dir, os.environ.get("PYTHONPATH", "")]))
        env.pop("TILELANG_DISABLE_CACHE", None)
        env.pop("TLC_NO_CACHE", None)
        first = run_child(script, env)["stats"]
        assert first["compiled"] == 1 and first["cache_hits"] == 0, first
        second = run_child(script, env)
        assert second["stats"]["compiled"] == 0 and second["stats"]["cache_hits"] == 1, second
        print("second process: cache hit")
        # The command line shares the cache: same instance, other directory.
        out_at = second["command"].index("-o")
        cmd = second["command"][:out_at] + ["-o", os.path.join(tmp, "cli")] + second["command"][out_at + 2:]
        cli = subprocess.run(cmd, env=env, capture_output=True, text=True)
        assert cli.returncode == 0, cli.stderr
        assert cli.stdout.strip().endswith("(cached)"), cli.stdout
        print("tlc-build: cache hit:", cli.stdout.strip())
        nocache = subprocess.run(cmd + ["--no-cache"], env=env, capture_output=True, text=True)
        assert nocache.returncode == 0 and "(cached)" not in nocache.stdout, nocache.stdout
        off = run_child(script, dict(env, TILELANG_DISABLE_CACHE="1"))["stats"]
        assert off["compiled"] == 1 and off["cache_hits"] == 0, off
        print("cache off: compiled again")
        with open(script, "w") as f:
            f.write("# This line moves every kernel of the file down.\n\n" + CHILD.replace("OP", "+"))
        moved = run_child(script, env)["stats"]
        assert moved["compiled"] == 0 and moved["cache_hits"] == 1, moved
        print("kernel moved down the file: cache hit")
        with open(script, "w") as f:
            f.write(CHILD.replace("OP", "-"))
        changed = run_child(script, env)["stats"]
        assert changed["compiled"] == 1 and changed["cache_hits"] == 0, changed
        print("kernel changed: compiled")


if __name__ == "__main__":
    main()
