"""``tilelang.contrib.nvcc``: the compute capability scripts key their
configurations on. Inside a kernel factory tlc evaluates the same calls
from the build target; here they read the CUDA device torch sees."""


def parse_compute_version(compute_version):
    """``"8.9"`` -> ``(8, 9)``; ValueError for text of another form."""
    parts = str(compute_version).split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        raise ValueError(f"compute version {compute_version!r} is not "
                         "MAJOR.MINOR")
    return int(parts[0]), int(parts[1])


def get_target_compute_version(target=None):
    """The compute capability ``"MAJOR.MINOR"`` of ``target`` (its
    ``-arch=sm_XY``) or, without one, of the current CUDA device.
    ValueError when neither names one (no CUDA device)."""
    if target is not None:
        text = str(getattr(target, "spec", target))
        for word in text.replace("=", " ").split():
            if word.startswith("sm_") and word[3:5].isdigit():
                return f"{word[3]}.{word[4]}"
    try:
        import torch
        if torch.cuda.is_available() and getattr(torch.version, "hip",
                                                 None) is None:
            major, minor = torch.cuda.get_device_capability()
            return f"{major}.{minor}"
    except ImportError:
        pass
    raise ValueError("no CUDA compute version: no target arch and no CUDA "
                     "device")


def get_cuda_version(cuda_path=None):
    """The CUDA toolkit's version ``(major, minor)``, from ``nvcc
    --version`` of ``cuda_path`` (default: the toolkit tlc uses,
    ``$CUDA_HOME`` / the ``nvcc`` on ``PATH`` / ``/usr/local/cuda``).
    RuntimeError when there is no nvcc or its output names no release."""
    import os
    import re
    import subprocess
    if cuda_path is None:
        from ..env import _find_cuda_home
        cuda_path = _find_cuda_home()
    if cuda_path is None:
        raise RuntimeError("get_cuda_version: no CUDA toolkit (set "
                           "CUDA_HOME or put nvcc on PATH)")
    nvcc = os.path.join(cuda_path, "bin", "nvcc")
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise RuntimeError(f"get_cuda_version: cannot run {nvcc}: {e}") \
            from None
    m = re.search(r"release (\d+)\.(\d+)", out)
    if m is None:
        raise RuntimeError(f"get_cuda_version: {nvcc} --version names no "
                           "release")
    return int(m.group(1)), int(m.group(2))
