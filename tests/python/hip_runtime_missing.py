# A HIP kernel called without an AMD GPU and without the sim switch
# (TLC_HIP_DEVICE unset): the call raises a RuntimeError that names what is
# missing (tlc's libtlc_hip.so, the HIP runtime libamdhip64, or an AMD GPU)
# before anything runs, and never crashes. TLC_HIP_LIBRARY names a library
# that does not exist, as on a machine without ROCm; then the system's
# libamdhip64 is tried (Debian's ROCm 5.2 where it is installed: it finds
# no GPU here).

import ctypes
import os

os.environ.pop("TLC_HIP_DEVICE", None)

import pytest  # noqa: E402
import torch  # noqa: E402

torch.version.hip = "6.2.41133"  # ROCm torch, as far as the package asks

import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402
from tilelang import _jit, _runtime  # noqa: E402


@tilelang.jit(out_idx=[-1], target="hip:gfx942")
def add(N, block=64):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32), C: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = A[bx * block + i] + B[bx * block + i]
    return main


def call_fails(fn, *texts):
    """fn() raises a RuntimeError (never crashes) whose message has every
    one of texts; returns the message."""
    with pytest.raises(RuntimeError) as info:
        fn()
    message = str(info.value)
    for text in texts:
        assert text in message, f"RuntimeError without '{text}': {message}"
    print(f"ok: {type(info.value).__name__}: {message}")
    return message


def main():
    # Without a HIP device (no GPU, no sim switch) the default target under
    # ROCm torch is the CPU, as under CUDA torch without a GPU.
    assert _jit.resolve_target(None) == "cpu", _jit.resolve_target(None)
    assert not tilelang.utils.target.check_hip_availability()
    kernel = add(256)  # building needs no GPU
    assert kernel.target == "hip:gfx942", kernel.target
    a, b = torch.randn(256), torch.randn(256)

    # tlc's own HIP library missing.
    built = os.environ.get("TLC_HIP_RUNTIME")  # ctest names the build's
    os.environ["TLC_HIP_RUNTIME"] = "/nonexistent/libtlc_hip.so"
    call_fails(lambda: kernel(a, b), "cannot load tlc's HIP runtime '/nonexistent/libtlc_hip.so'",
           "ninja -C build lib/libtlc_hip.so")
    if built:
        os.environ["TLC_HIP_RUNTIME"] = built
    else:
        del os.environ["TLC_HIP_RUNTIME"]
    assert "hip" not in _runtime._libraries

    # The HIP runtime missing: named, and again on the next call.
    os.environ["TLC_HIP_LIBRARY"] = "/nonexistent/libamdhip64.so"
    for _ in range(2):
        call_fails(lambda: kernel(a, b), "cannot open HIP device 0: no HIP runtime found",
               "/nonexistent/libamdhip64.so")
    count = ctypes.c_int(7)
    lib = _runtime.hip_library()
    assert lib.tlc_hip_device_count(ctypes.byref(count)) == 0 and count.value == 0, count

    # The system's HIP runtime, if any: no GPU here either way.
    del os.environ["TLC_HIP_LIBRARY"]
    message = call_fails(lambda: kernel(a, b), "cannot open HIP device 0: no HIP")
    assert "finds no AMD GPU" in message or "no HIP runtime found" in message, message
    count.value = 7
    assert lib.tlc_hip_device_count(ctypes.byref(count)) == 0 and count.value == 0, count

    # A switch value the runtime does not know.
    os.environ["TLC_HIP_DEVICE"] = "gpu"
    call_fails(lambda: kernel(a, b), "TLC_HIP_DEVICE='gpu': expected 'hip' or 'sim'")
    print("hip_runtime_missing: all checks passed")


if __name__ == "__main__":
    main()
