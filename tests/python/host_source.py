"""kernel.get_host_source(): the C++ host launcher compiles, and on the CPU
target a host program that calls it gets the kernel's results.

A lazy factory with a symbolic extent (T.dynamic) and a float scalar is
built for the CPU target; its host source is compiled with the system C++
compiler against the artifact's kernel library and called through ctypes on
NumPy arrays at two extents, and the results are compared with NumPy (float64)
and with the package's own call of the same kernel. When nvcc is installed,
the same factory and a TMA GEMM are also built for sm_90a and their host
sources are compiled (syntax and types) against tlc_cuda.h; they are run on
a GPU by cuda_host_source.py.
"""

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import tilelang
import tilelang.language as T

import shared_kernels

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


scale_add = tilelang.jit(out_idx=[-1])(shared_kernels.scale_add)
scale_add_cuda = tilelang.jit(out_idx=[-1],
                              target="cuda:sm_90a")(shared_kernels.scale_add)
matmul_cuda = tilelang.jit(out_idx=[-1],
                           target="cuda:sm_90a")(shared_kernels.matmul)


def compile_cpu(kernel, work):
    src = kernel.get_host_source()
    assert "extern \"C\" int scale_add_launch(" in src, src
    assert "long long m" in src, src   # the symbol is an argument
    art = kernel.artifact_dir
    path = os.path.join(work, "host.cpp")
    with open(path, "w") as f:
        f.write(src)
    lib = os.path.join(work, "host.so")
    binary = os.path.join(art, kernel.manifest["binary"])
    subprocess.run(["c++", "-std=c++17", "-shared", "-fPIC", "-I", art,
                    path, binary, f"-Wl,-rpath,{art}", "-o", lib],
                   check=True)
    host = ctypes.CDLL(lib)
    fn = host.scale_add_launch
    vp = ctypes.c_void_p
    fn.argtypes = [vp, vp, ctypes.c_float, vp, ctypes.c_longlong,
                   ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


def check_cpu(work):
    m = T.dynamic("m")
    kernel = scale_add(m, 48)
    launch = compile_cpu(kernel, work)
    rng = np.random.default_rng(7)
    for rows in (100, 7):
        a = rng.standard_normal((rows, 48)).astype(np.float32)
        b = rng.standard_normal((rows, 48)).astype(np.float32)
        c = np.full((rows, 48), np.nan, dtype=np.float32)
        err = ctypes.create_string_buffer(512)
        rc = launch(a.ctypes.data, b.ctypes.data, 1.5, c.ctypes.data, rows,
                    2, err, len(err))
        assert rc == 0, err.value
        ref = a.astype(np.float64) * 1.5 + b.astype(np.float64)
        np.testing.assert_allclose(c, ref, rtol=1e-6, atol=1e-6)
        ours = kernel(a, b, 1.5)
        ours = ours.numpy() if hasattr(ours, "numpy") else ours
        assert np.array_equal(ours, c), "host launcher and package differ"
    print("cpu host launcher: 2 extents match NumPy and the package")


def check_cuda_syntax(work):
    if shutil.which("nvcc") is None:
        print("nvcc not installed: CUDA host sources not compiled")
        return
    include = os.path.join(ROOT, "runtime", "cuda", "include")
    compiled = 0
    dynamic = matmul_cuda(T.dynamic("m"), 256, 256).get_host_source()
    assert "tlc_ceildiv(m, 128LL)" in dynamic, dynamic  # grid over m
    static = matmul_cuda(512, 256, 256).get_host_source()
    assert "tlc_cuda_tensor_map_encode" in static, static  # TMA loads
    for kernel in (scale_add_cuda(T.dynamic("m"), 48),
                   matmul_cuda(T.dynamic("m"), 256, 256),
                   matmul_cuda(512, 256, 256)):
        src = kernel.get_host_source()
        assert "tlc_cuda_kernel_launch_flags(kernels[0]" in src, src
        path = os.path.join(work, f"cuda_host_{compiled}.cpp")
        with open(path, "w") as f:
            f.write(src)
        subprocess.run(["c++", "-std=c++17", "-fsyntax-only", "-Wall",
                        "-Werror", "-Wno-unused-function", "-I", include,
                        path], check=True)
        compiled += 1
    print(f"cuda host launchers: {compiled} compiled against tlc_cuda.h")


def main():
    work = tempfile.mkdtemp(prefix="tlc-host-source-")
    try:
        check_cpu(work)
        check_cuda_syntax(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("host_source: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
