"""A build error reaches Python from tlc-build's --diagnostics-file, not
from its stderr: the exception names the FILE:LINE:COL of the first error
for a refusal of the target (the CUDA lowering's shared-memory budget,
counted after fragment exchanges) and for a host compilation that failed
(a stand-in compiler that exits 1). The first is remembered as a refusal
of the program; the second, a tool's failure, is not. A located error in
stderr that the file does not hold is not what the exception reports."""

import os
import stat
import subprocess
import tempfile

import tilelang
import tilelang.language as T
from tilelang import _build

HERE = os.path.abspath(__file__)


def scaled_gemm(cols):
    @T.prim_func
    def main(A: T.Tensor((128, 64), "float16"),
             B: T.Tensor((64, cols), "float16"),
             C: T.Tensor((128, cols), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((128, 64), "float16")
            B_shared = T.alloc_shared((64, cols), "float16")
            acc = T.alloc_fragment((128, cols), "float32")
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.gemm(A_shared, B_shared, acc, clear_accum=True)
            # A row per iteration (the inner loop serial): the accumulator
            # is exchanged through shared memory, which the budget counts.
            for i in T.Parallel(128):
                for j in T.serial(cols):
                    acc[i, j] *= 2
            T.copy(acc, C)

    return main


def line_of(text):
    """The 1-based line of this file that starts with ``text`` (once)."""
    with open(HERE) as f:
        found = [i + 1 for i, line in enumerate(f)
                 if line.strip().startswith(text)]
    assert len(found) == 1, found
    return found[0]


def build_error(cols, target):
    try:
        tilelang.compile(scaled_gemm(cols), out_idx=[-1], target=target)
    except _build.TLCBuildError as e:
        return e
    raise AssertionError(f"scaled_gemm({cols}) built for {target}")


def main():
    with tempfile.TemporaryDirectory(prefix="tlc-errloc-") as tmp:
        os.environ["TLC_CACHE_DIR"] = os.path.join(tmp, "cache")
        # A refusal of the CUDA target: the kernel's T.Kernel line.
        os.environ["TLC_CUDA_COMPILER"] = "none"
        e = build_error(512, "cuda -arch=sm_90a")
        where = f"{HERE}:{line_of('with T.Kernel(1, threads=128) as bx:')}:14: error:"
        head = str(e).splitlines()[0]
        assert where in head and "shared memory per block" in head, head
        assert e.diagnostic["stage"] == "artifact", e.diagnostic
        assert getattr(e, "refused", None) is not None, \
            "the target's refusal of the program is a refusal"

        # A failed host compilation: the prim_func's line; not a refusal.
        cxx = os.path.join(tmp, "cxx")
        with open(cxx, "w") as f:
            f.write("#!/bin/sh\necho broken compiler >&2\nexit 1\n")
        os.chmod(cxx, os.stat(cxx).st_mode | stat.S_IXUSR)
        os.environ.update(TLC_HOST_CXX=cxx, TLC_NO_PCH="1", TLC_NO_CACHE="1")
        try:
            e = build_error(64, "cpu")
        finally:
            for name in ("TLC_HOST_CXX", "TLC_NO_PCH", "TLC_NO_CACHE"):
                del os.environ[name]
        line = line_of('def main(A: T.Tensor((128, 64), "float16"),')
        where = f"{HERE}:{line}:"
        head = str(e).splitlines()[0]
        assert where in head and "host compilation failed" in head, head
        assert e.diagnostic.get("toolFailure") is True, e.diagnostic
        assert getattr(e, "refused", None) is None, \
            "a failed tool is not a refusal of the program"

    # The file decides, not stderr: a located error only in stderr is not
    # reported when the file was written (an older tlc-build without it
    # falls back to stderr).
    proc = subprocess.CompletedProcess(
        [], 1, "", f"{HERE}:3:1: error: not in the file\n")
    diag = {"file": HERE, "line": 7, "col": 2, "severity": "error",
            "message": "from the file", "stage": "lowering"}
    e = _build.build_failure([diag], True, proc, "k", HERE, "cpu", ["x"])
    assert f"{HERE}:7:2: error: from the file" in str(e).splitlines()[0]
    e = _build.build_failure([], True, proc, "k", HERE, "cpu", ["x"])
    assert getattr(e, "refused", None) is None and e.diagnostic is None
    e = _build.build_failure([], False, proc, "k", HERE, "cpu", ["x"])
    assert f"{HERE}:3:1: error: not in the file" in str(e).splitlines()[0]
    print("build_error_location: ok")


if __name__ == "__main__":
    main()
