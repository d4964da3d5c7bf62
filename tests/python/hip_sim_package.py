# The package on ROCm torch, without an AMD GPU: torch.version.hip and the
# device's properties are faked (a CPU torch 1.13 posing as ROCm torch on a
# gfx942), and the HIP runtime runs kernels on tlc's sim device
# (TLC_HIP_DEVICE=sim, tlc_hip.h), which reads and writes the CPU tensors'
# memory. Each kernel is built for hip:gfx942 (the default target under
# ROCm torch) or an explicit hip target and checked against torch / NumPy
# in float64; bad calls raise the package's usual exceptions.

import ctypes
import importlib.util
import os
import re
import subprocess

os.environ["TLC_HIP_DEVICE"] = "sim"

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402


class _FakeProperties:
    # What ROCm torch reports for an MI300X.
    name = "AMD Instinct MI300X"
    gcnArchName = "gfx942:sramecc+:xnack-"


torch.version.hip = "6.2.41133"
torch.cuda.current_device = lambda: 0
torch.cuda.get_device_properties = lambda device=None: _FakeProperties()

import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402
from tilelang import _jit, _runtime  # noqa: E402


def _load_example(name):
    """examples/NAME.py as a module (its kernels unchanged; no main run)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@tilelang.jit(out_idx=[-1])
def axpy(N, block=64):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32), alpha: T.float32, Z: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                Z[bx * block + i] = X[bx * block + i] * alpha + Y[bx * block + i]
    return main


@tilelang.jit(target="hip:gfx90a")
def accumulate(N, block=128):
    # No out_idx: the kernel writes an argument (copied back from the sim).
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Acc: T.Tensor((N,), T.int32)):
        with T.Kernel(T.ceildiv(N, block), threads=128) as bx:
            for i in T.Parallel(block):
                Acc[bx * block + i] = Acc[bx * block + i] + X[bx * block + i] * 3
    return main


@tilelang.jit(out_idx=[-1], target="hip")
def row_scale(block_M=16, block_N=64):
    M = T.dynamic("m")

    @T.prim_func
    def main(A: T.Tensor((M, 96), T.float32), s: T.Tensor((M,), T.float32), B: T.Tensor((M, 96), T.float32)):
        with T.Kernel(T.ceildiv(96, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                B[by * block_M + i, bx * block_N + j] = A[by * block_M + i, bx * block_N + j] * s[by * block_M + i]
    return main


@tilelang.jit(target="hip:gfx942")
def strided_scale(cols, block_rows=8):
    # A read view with a row pitch bound from its stride, and a transposed
    # written view: the sim gets each view's span, the written one back.
    rows = T.dynamic("rows")
    pitch = T.dynamic("pitch")

    @T.prim_func
    def main(Src: T.StridedTensor((rows, cols), (pitch, 1), T.float32),
             Dst: T.StridedTensor((rows, cols), (1, rows), T.float32)):
        with T.Kernel(T.ceildiv(rows, block_rows), threads=128) as by:
            for r, c in T.Parallel(block_rows, cols):
                Dst[by * block_rows + r, c] = Src[by * block_rows + r, c] * -3.0
    return main


def main():
    torch.manual_seed(0)
    # Target resolution under ROCm torch.
    assert _jit.resolve_target(None) == "hip:gfx942", _jit.resolve_target(None)
    assert _jit.resolve_target("auto") == "hip:gfx942"
    assert _jit.resolve_target("hip") == "hip:gfx942"
    assert _jit.resolve_target("hip:gfx90a") == "hip:gfx90a"
    assert _jit.resolve_target("cpu") == "cpu"
    assert tilelang.utils.target.check_hip_availability()
    assert not tilelang.utils.target.check_cuda_availability()
    assert tilelang.utils.target.determine_target() == "hip:gfx942"

    # examples/gemm.py's GEMM with MFMA at sizes its tiles do not divide,
    # against float64.
    M, N, K = 100, 70, 96
    kernel = _load_example("gemm").matmul(M, N, K, block_M=64, block_N=64, num_stages=2, threads=256)
    assert kernel.target == "hip:gfx942", kernel.target
    source = kernel.get_kernel_source()
    assert "tlc::hip::mfmaF32x32x32x8(" in source, "no MFMA in the HIP source"
    code_object = os.path.join(kernel.artifact_dir, kernel.manifest["binary"])
    assert code_object.endswith(".hsaco"), code_object
    objdump = "/usr/lib/llvm-22/bin/llvm-objdump"
    if os.path.exists(objdump):
        isa = subprocess.run([objdump, "-d", "--mcpu=gfx942", code_object], capture_output=True, text=True, check=True).stdout
        assert "v_mfma_f32_32x32x8_f16" in isa, "no v_mfma_f32_32x32x8_f16 in the code object"
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = kernel(a, b)
    assert c.shape == (M, N) and c.dtype == torch.float16 and c.device.type == "cpu"
    ref = (a.double() @ b.double()).numpy()
    np.testing.assert_allclose(c.double().numpy(), ref, rtol=1e-2, atol=2e-2)
    print(f"gemm {M}x{N}x{K} on sim (hip:gfx942, MFMA): matches float64")

    # Elementwise with out_idx and a float scalar.
    k = axpy(1000)
    assert k.target == "hip:gfx942"
    x, y = torch.randn(1000), torch.randn(1000)
    for alpha in (0.5, -3.25):
        z = k(x, y, alpha)
        np.testing.assert_allclose(z.numpy(), x.double().numpy() * alpha + y.double().numpy(), rtol=1e-6, atol=1e-6)
    # A non-contiguous input runs on a dense copy.
    xs = torch.randn(2000)[::2]
    np.testing.assert_allclose(k(xs, y, 2.0).numpy(), xs.double().numpy() * 2 + y.double().numpy(), rtol=1e-6, atol=1e-6)
    print("axpy on sim: matches NumPy")

    # The profiler on the sim device: CPU inputs, the host's clock, and its
    # checks against a reference (a wrong one fails).
    prof = k.get_profiler()
    assert prof.device == "cpu", prof.device
    ms = prof.do_bench(n_warmup=1, n_repeat=2)
    assert isinstance(ms, float) and ms > 0, ms
    prof.assert_allclose(lambda X, Y, alpha: X * alpha + Y)
    with pytest.raises(AssertionError):
        prof.assert_allclose(lambda X, Y, alpha: X * alpha - Y)
    print(f"profiler on sim: do_bench {ms:.3g} ms (simulated), assert_allclose checks")

    # An explicit architecture, a written argument copied back.
    acc_kernel = accumulate(300)
    assert acc_kernel.target == "hip:gfx90a", acc_kernel.target
    xi = torch.randint(-1000, 1000, (300,), dtype=torch.int32)
    acc = torch.randint(-1000, 1000, (300,), dtype=torch.int32)
    expected = acc.numpy().astype(np.int64) + 3 * xi.numpy().astype(np.int64)
    assert acc_kernel(xi, acc) is None
    np.testing.assert_array_equal(acc.numpy(), expected)
    print("accumulate on sim (hip:gfx90a): argument written in place, exact")

    # A symbolic extent bound from the tensor's shape: one instance, three m.
    rs = row_scale()
    assert rs.target == "hip:gfx942"
    for m in (1, 37, 130):
        A = torch.randn(m, 96)
        s = torch.randn(m)
        B = rs(A, s)
        assert B.shape == (m, 96)
        np.testing.assert_allclose(B.numpy(), A.double().numpy() * s.double().numpy()[:, None], rtol=1e-6, atol=1e-6)
    print("row_scale (m symbolic) on sim: m = 1, 37, 130 match NumPy")

    # Strided views, passed as they are: spans copied in, the written one
    # out; the padding of the read view and nothing else changes.
    ss = strided_scale(24)
    for rows, pitch in ((29, 31), (3, 24)):
        storage = torch.full((rows * pitch,), float("nan"))
        src = storage.as_strided((rows, 24), (pitch, 1))
        src.copy_(torch.randn(rows, 24))
        dst = torch.full((24, rows), float("nan")).t()
        before = storage.clone()
        assert ss(src, dst) is None
        np.testing.assert_array_equal(dst.numpy(), src.numpy() * -3.0)
        assert torch.equal(storage.isnan(), before.isnan()) and torch.equal(storage.nan_to_num(), before.nan_to_num())
    print("strided_scale on sim: pitched and transposed views match NumPy")

    # Bad calls raise before anything runs.
    with pytest.raises(ValueError, match=re.escape("must have shape (100, 96)")):
        kernel(torch.randn(M + 1, K).half(), b)
    with pytest.raises(TypeError, match="must have dtype float16"):
        kernel(a.float(), b)
    with pytest.raises(ValueError, match=re.escape("must have shape (5,)")):
        rs(torch.randn(5, 96), torch.randn(6))
    with pytest.raises(ValueError, match="Kernel expected 3 inputs, but 2"):
        k(x, y)
    with pytest.raises(TypeError, match="missing argument"):
        k(x, Y=y)
    with pytest.raises(TypeError, match="must be a number"):
        k(x, y, "two")
    with pytest.raises(TypeError, match="NumPy arrays only run on the cpu target"):
        k(x.numpy(), y, 1.0)
    print("bad calls: ValueError / TypeError before anything runs")

    # The C API refuses an artifact of another target.
    cpu_kernel = tilelang.compile(_negate_prim(4, 32), out_idx=[-1], target="cpu")
    lib = _runtime.hip_library()
    ctx, simulated = _runtime.hip_context(0)
    assert simulated
    module, handle = ctypes.c_void_p(), ctypes.c_void_p()
    path = os.path.join(cpu_kernel.artifact_dir, cpu_kernel.manifest["name"] + ".json")
    assert lib.tlc_hip_module_load_file(ctx, path.encode(), ctypes.byref(module)) == 0
    assert lib.tlc_hip_module_get_kernel(module, None, ctypes.byref(handle)) != 0
    message = lib.tlc_hip_last_error().decode()
    assert "kernel '_negate_prim' was built for target 'cpu', not for HIP" in message, message
    print(f"ok: C API: {message}")

    # An AMD GPU tlc does not build for is named.
    _FakeProperties.gcnArchName = "gfx1100"
    _jit._HIP_ARCH.clear()
    with pytest.raises(ValueError, match="the current AMD GPU is gfx1100"):
        _jit.resolve_target("auto")
    print("hip_sim_package: all checks passed")


def _negate_prim(M, N):
    @T.prim_func
    def negate(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(M, threads=N) as bx:
            for j in T.Parallel(N):
                Y[bx, j] = -X[bx, j]
    return negate


if __name__ == "__main__":
    main()
