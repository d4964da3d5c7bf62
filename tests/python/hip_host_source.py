"""kernel.get_host_source() of a HIP kernel: the C++ launcher over tlc_hip.h
compiles, and a host program calling it through libtlc_hip.so gets the
kernel's results.

A lazy factory with a symbolic extent (T.dynamic) and a float scalar is
built for hip:gfx942; its host source is compiled with the system C++
compiler against runtime/hip/include and linked with libtlc_hip.so, then
called through ctypes with the runtime on the sim device
(TLC_HIP_DEVICE=sim: host memory) on NumPy arrays at two extents, and the
results are compared with NumPy in float64. A GEMM's launcher (workspace-
free, grid over the symbol) is compiled with -Wall -Werror. No AMD GPU ran
any of it.
"""

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile

os.environ["TLC_HIP_DEVICE"] = "sim"

import numpy as np  # noqa: E402

import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402

import shared_kernels  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
INCLUDE = os.path.join(ROOT, "runtime", "hip", "include")


scale_add = tilelang.jit(out_idx=[-1],
                         target="hip:gfx942")(shared_kernels.scale_add)
_matmul = tilelang.jit(out_idx=[-1],
                       target="hip:gfx90a")(shared_kernels.matmul)


def matmul(M, N, K):
    return _matmul(M, N, K, threads=256, num_stages=2)


def check(rc, hip, what):
    assert rc == 0, f"{what}: {hip.tlc_hip_last_error().decode()}"


def main():
    runtime = os.environ.get("TLC_HIP_RUNTIME")
    if not runtime or not os.path.exists(runtime) or shutil.which("c++") is None:
        print("libtlc_hip.so (TLC_HIP_RUNTIME) or c++ missing: skipped")
        return 77
    work = tempfile.mkdtemp(prefix="tlc-hip-host-source-")
    try:
        kernel = scale_add(T.dynamic("m"), 48)
        src = kernel.get_host_source()
        assert "extern \"C\" int scale_add_launch(" in src, src
        assert "tlc_hip_kernel *kernel" in src and "long long m" in src, src
        assert "grid (tlc_ceildiv(m, 32LL))" in src, src  # the launch comment
        path = os.path.join(work, "host.cpp")
        with open(path, "w") as f:
            f.write(src)
        lib = os.path.join(work, "host.so")
        subprocess.run(["c++", "-std=c++17", "-shared", "-fPIC", "-Wall",
                        "-Werror", "-Wno-unused-function", "-I", INCLUDE,
                        path, runtime,
                        f"-Wl,-rpath,{os.path.dirname(runtime)}", "-o", lib],
                       check=True)
        hip = ctypes.CDLL(runtime, mode=ctypes.RTLD_GLOBAL)
        hip.tlc_hip_last_error.restype = ctypes.c_char_p
        host = ctypes.CDLL(lib)
        vp = ctypes.c_void_p
        launch = host.scale_add_launch
        launch.argtypes = [vp, vp, vp, ctypes.c_float, vp, ctypes.c_longlong,
                           vp]
        launch.restype = ctypes.c_int
        ctx, module, k = vp(), vp(), vp()
        check(hip.tlc_hip_context_create(0, ctypes.byref(ctx)), hip,
              "context")
        manifest = os.path.join(kernel.artifact_dir,
                                os.path.splitext(
                                    kernel.manifest["generated_source"])[0] +
                                ".json")
        check(hip.tlc_hip_module_load_file(ctx, manifest.encode(),
                                           ctypes.byref(module)), hip,
              "module")
        check(hip.tlc_hip_module_get_kernel(module, b"", ctypes.byref(k)),
              hip, "kernel")
        rng = np.random.default_rng(11)
        for rows in (100, 7):
            a = rng.standard_normal((rows, 48)).astype(np.float32)
            b = rng.standard_normal((rows, 48)).astype(np.float32)
            c = np.full((rows, 48), np.nan, dtype=np.float32)
            check(launch(k, a.ctypes.data, b.ctypes.data, 1.5, c.ctypes.data,
                         rows, None), hip, f"launch at m = {rows}")
            ref = a.astype(np.float64) * 1.5 + b.astype(np.float64)
            np.testing.assert_allclose(c, ref, rtol=1e-6, atol=1e-6)
        hip.tlc_hip_module_destroy(module)
        hip.tlc_hip_context_destroy(ctx)
        print("hip host launcher: 2 extents on sim match NumPy")

        gemm = matmul(T.dynamic("m"), 256, 256).get_host_source()
        assert "grid (2LL, tlc_ceildiv(m, 128LL))" in gemm, gemm
        assert "tlc_hip_kernel_launch(kernel, params, 3, symbols, 1, " \
               "nullptr, stream)" in gemm, gemm
        path = os.path.join(work, "gemm_host.cpp")
        with open(path, "w") as f:
            f.write(gemm)
        subprocess.run(["c++", "-std=c++17", "-fsyntax-only", "-Wall",
                        "-Werror", "-Wno-unused-function", "-I", INCLUDE,
                        path], check=True)
        print("hip gemm host launcher compiled against tlc_hip.h")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("hip_host_source: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
