"""``tilelang.contrib.nvcc``: the compute capability scripts key their
configurations on. Inside a kernel factory tlc evaluates the same calls
from the build target; here they read the CUDA device torch sees. Also
TileLang's helpers around the CUDA toolkit itself: ``find_cuda_path``,
``get_cuda_version`` and ``compile_cuda`` (nvcc on a CUDA source text)."""

import os
import re
import subprocess
import tempfile


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
        text = str(target)  # a Target prints its spec (-arch=sm_XY)
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
    if cuda_path is None:
        cuda_path = _toolkit("get_cuda_version")
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


def _toolkit(caller):
    from ..env import _find_cuda_home
    path = _find_cuda_home()
    if path is None:
        raise RuntimeError(f"{caller}: no CUDA toolkit (set CUDA_HOME or put "
                           "nvcc on PATH)")
    return path


def find_cuda_path():
    """The CUDA toolkit's root (``$CUDA_HOME``, the directory above the
    ``nvcc`` on ``PATH``, or ``/usr/local/cuda``); RuntimeError when there
    is none."""
    return _toolkit("find_cuda_path")


def get_nvcc_compiler():
    """The path of the toolkit's ``nvcc`` (RuntimeError without a
    toolkit)."""
    return os.path.join(_toolkit("get_nvcc_compiler"), "bin", "nvcc")


def default_compile_options():
    """The nvcc options tlc compiles its generated CUDA with
    (``-std=c++17 -O3 -lineinfo``) and the include directory of its device
    headers (``tlc_device/...``, which tlc's kernel sources include), so
    that :func:`compile_cuda` compiles ``get_kernel_source()``'s text."""
    options = ["-std=c++17", "-O3", "-lineinfo"]
    include = os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
        "runtime", "device", "include"))
    if os.path.isdir(os.path.join(include, "tlc_device")):
        options.append("-I" + include)
    return options


def get_target_arch(compute_version):
    """``"90a"`` of ``(9, 0)``, ``"80"`` of ``"8.0"``: the ``sm_`` suffix
    TileLang compiles for (the ``a`` features of sm_90, sm_100 and sm_120
    come with the major version)."""
    if isinstance(compute_version, str):
        compute_version = parse_compute_version(compute_version)
    major, minor = (int(v) for v in compute_version)
    return f"{major}{minor}" + ("a" if major in (9, 10, 12) else "")


def compile_cuda(code, target_format="ptx", arch=None, options=None,
                 path_target=None, verbose=False):
    """Compiles the CUDA source text ``code`` with the toolkit's nvcc into
    ``target_format`` (``"ptx"``, ``"cubin"`` or ``"fatbin"``) for
    ``arch`` (``"sm_90a"``, ``"90"``, a list of them; default: the current
    device's, as :func:`get_target_compute_version`), with the extra
    ``options`` (a string or a list), and returns the file's bytes
    (``bytearray``); ``path_target`` keeps the file there. RuntimeError
    with nvcc's output when it fails, or when there is no toolkit."""
    if target_format not in ("ptx", "cubin", "fatbin"):
        raise ValueError("target_format must be one of ptx, cubin and "
                         f"fatbin, got {target_format!r}")
    nvcc = os.path.join(_toolkit("compile_cuda"), "bin", "nvcc")
    if arch is None:
        arch = "sm_" + get_target_arch(get_target_compute_version())
    arches = [arch] if isinstance(arch, str) else list(arch)
    arch_flags = []
    for a in arches:
        a = str(a)
        if a.startswith("-"):
            arch_flags.append(a)  # a -gencode / -arch flag as given
            continue
        number = a[3:] if a.startswith(("sm_", "compute_")) else a
        number = number.split("_")[-1]
        if not re.fullmatch(r"\d+[af]?", number):
            raise ValueError(f"compile_cuda: cannot read the arch {a!r}")
        arch_flags.append(f"-arch=sm_{number}" if target_format != "fatbin"
                          else f"-gencode=arch=compute_{number},"
                               f"code=sm_{number}")
    if isinstance(options, str):
        options = options.split()
    with tempfile.TemporaryDirectory(prefix="tlc-nvcc-") as tmp:
        source = os.path.join(tmp, "my_kernel.cu")
        with open(source, "w") as f:
            f.write(code)
        out = path_target or os.path.join(tmp, f"my_kernel.{target_format}")
        cmd = [nvcc, f"--{target_format}", "-O3", *arch_flags,
               *(options or []), "-o", out, source]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise RuntimeError(f"compile_cuda: cannot run {nvcc}: {e}") \
                from None
        if verbose:
            print(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            raise RuntimeError(f"compile_cuda: nvcc failed (exit "
                               f"{proc.returncode}):\n{' '.join(cmd)}\n"
                               f"{proc.stdout}{proc.stderr}")
        try:
            with open(out, "rb") as f:
                data = bytearray(f.read())
        except OSError:
            raise RuntimeError(f"compile_cuda: nvcc wrote no {out}") \
                from None
        if not data:
            raise RuntimeError(f"compile_cuda: nvcc wrote an empty {out}")
        return data
