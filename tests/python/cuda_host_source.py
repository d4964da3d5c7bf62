"""kernel.get_host_source() on a CUDA GPU: the host launcher, compiled with
the system C++ compiler and linked with libtlc_cuda.so, launches the
kernels and gets what the package's own call gets (bit for bit) and what a
float64 torch reference says. Kernels: a TMA GEMM at static sizes, the same
GEMM with a symbolic M (grid from the symbol), an elementwise kernel with a
float scalar. Exit 77 (skip) without a CUDA device.
"""

import ctypes
import os
import subprocess
import sys
import tempfile

import torch

if not torch.cuda.is_available():
    print("SKIP: no CUDA device")
    sys.exit(77)

import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402
from tilelang import _runtime  # noqa: E402

import shared_kernels  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
INCLUDE = os.environ.get("TLC_CUDA_INCLUDE",
                         os.path.join(ROOT, "runtime", "cuda", "include"))


matmul = tilelang.jit(out_idx=[-1])(shared_kernels.matmul)
scale_add = tilelang.jit(out_idx=[-1])(shared_kernels.scale_add)


def host_launcher(kernel, work, tag, argtypes):
    src = kernel.get_host_source()
    path = os.path.join(work, f"{tag}.cpp")
    with open(path, "w") as f:
        f.write(src)
    lib = os.path.join(work, f"{tag}.so")
    runtime = _runtime._find_runtime("cuda")
    subprocess.run(["c++", "-std=c++17", "-shared", "-fPIC", "-I", INCLUDE,
                    path, runtime,
                    f"-Wl,-rpath,{os.path.dirname(os.path.abspath(runtime))}",
                    "-o", lib], check=True)
    fn = getattr(ctypes.CDLL(lib), f"{kernel.manifest['name']}_launch")
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p] + argtypes + \
        [ctypes.c_void_p]
    fn.restype = ctypes.c_int
    launcher = kernel._launcher("cuda:0")
    kernels = (ctypes.c_void_p * len(launcher.launches))(
        *[k.value for k, _ in launcher.launches])
    ctx = _runtime._cuda_context(0)
    stream = torch.cuda.current_stream().cuda_stream

    def call(*args):
        rc = fn(ctx, kernels, *args, stream)
        if rc != 0:
            raise RuntimeError(_runtime.cuda_library().tlc_cuda_last_error())
        torch.cuda.synchronize()
    return call, src


def main():
    torch.manual_seed(0)
    work = tempfile.mkdtemp(prefix="tlc-cuda-host-")
    vp = ctypes.c_void_p
    results = []

    # Static TMA GEMM and the same GEMM with a symbolic M.
    for tag, kernel, rows in (
            ("gemm_static", matmul(512, 256, 384), 512),
            ("gemm_dynamic", matmul(T.dynamic("m"), 256, 384), 300)):
        dyn = tag.endswith("dynamic")
        call, src = host_launcher(kernel, work, tag,
                                  [vp, vp, vp] +
                                  ([ctypes.c_longlong] if dyn else []))
        a = torch.randn(rows, 384, device="cuda", dtype=torch.float16)
        b = torch.randn(384, 256, device="cuda", dtype=torch.float16)
        c = torch.full((rows, 256), float("nan"), device="cuda",
                       dtype=torch.float16)
        call(a.data_ptr(), b.data_ptr(), c.data_ptr(), *([rows] if dyn
                                                          else []))
        ours = kernel(a, b)
        ref = (a.double() @ b.double())
        same = torch.equal(ours, c)
        err = (c.double() - ref).abs().max().item()
        ok = same and err < 0.1
        results.append(ok)
        print(f"{tag}: host launcher == package: {same}; max |err| vs "
              f"float64 {err:.4f}; TMA maps encoded in host source: "
              f"{'tlc_cuda_tensor_map_encode' in src}")

    kernel = scale_add(T.dynamic("m"), 96)
    call, _ = host_launcher(kernel, work, "scale_add",
                            [vp, vp, ctypes.c_float, vp, ctypes.c_longlong])
    a = torch.randn(1000, 96, device="cuda")
    b = torch.randn(1000, 96, device="cuda")
    c = torch.empty_like(a)
    call(a.data_ptr(), b.data_ptr(), 0.75, c.data_ptr(), 1000)
    ref = a.double() * 0.75 + b.double()
    same = torch.equal(kernel(a, b, 0.75), c)
    err = (c.double() - ref).abs().max().item()
    results.append(same and err < 1e-5)
    print(f"scale_add: host launcher == package: {same}; max |err| vs "
          f"float64 {err:.2e}")
    print("cuda_host_source:", "OK" if all(results) else "FAILED")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
