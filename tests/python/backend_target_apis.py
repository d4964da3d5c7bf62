# Target helpers newer TileLang scripts import: tilelang.backend.target
# (determine_target, target_is_gfx950: the gate of gfx950-only tests) and
# tilelang.contrib.nvcc.get_cuda_version (the gate of tests that need a
# CUDA 12.8 toolkit), here against fake nvcc programs whose --version text
# is known.

import os
import stat
import tempfile

import tilelang
from tilelang.backend.target import (determine_target, target_is_cuda,
                                     target_is_gfx950, target_is_hip)
from tilelang.contrib import nvcc


def fake_toolkit(root, text):
    bin_dir = os.path.join(root, "bin")
    os.makedirs(bin_dir)
    path = os.path.join(bin_dir, "nvcc")
    with open(path, "w") as f:
        f.write("#!/bin/sh\ncat <<'END'\n" + text + "\nEND\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return root


def main():
    assert target_is_gfx950("hip:gfx950")
    assert not target_is_gfx950("hip:gfx942")
    assert not target_is_gfx950("cuda:sm_90a")
    assert not target_is_gfx950("cpu")
    assert target_is_hip("hip:gfx950") and target_is_cuda("cuda:sm_90a")
    # determine_target is the package's own resolution of "auto".
    from tilelang._jit import resolve_target
    assert determine_target("auto", return_object=True) == \
        resolve_target("auto")
    assert tilelang.backend.target.determine_target is determine_target

    with tempfile.TemporaryDirectory() as tmp:
        ok = fake_toolkit(os.path.join(tmp, "ok"), (
            "nvcc: NVIDIA (R) Cuda compiler driver\n"
            "Cuda compilation tools, release 12.8, V12.8.93\n"
            "Build cuda_12.8.r12.8/compiler.35583870_0"))
        assert nvcc.get_cuda_version(ok) == (12, 8)
        assert nvcc.get_cuda_version(ok) < (12, 9)
        bad = fake_toolkit(os.path.join(tmp, "bad"), "no version here")
        for path in (bad, os.path.join(tmp, "missing")):
            try:
                nvcc.get_cuda_version(path)
            except RuntimeError as e:
                assert "get_cuda_version" in str(e), e
            else:
                raise AssertionError(f"{path}: expected RuntimeError")
    print("backend_target_apis: ok")


if __name__ == "__main__":
    main()
