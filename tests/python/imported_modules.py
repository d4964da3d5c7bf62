"""Modules newer TileLang scripts import at module level, with the values
their code computes with (CPU machine, no CUDA toolkit needed):

* the fp6 / fp4 shared-memory storage tags (test_tilelang_language_fp6_
  unpacked_dtype.py): ``custom[NAME]8`` names, 8 bits, TVM custom type
  codes 131-133, the ``is_*`` predicates, ``tilelang.language.dtypes``'s
  ``is_float6_unpacked`` / ``is_f8f6f4_family``; passed to tlc as
  ``T.NAME``;
* ``tilelang.cuda.target``'s architecture tests (sm ranges of the PTX ISA:
  cp.async from sm_80, ldmatrix sm_75, stmatrix and TMA sm_90);
* ``tilelang.cuda.intrinsics.macro``: ``select_wgmma_inst_n`` (issue 2928's
  table) and the MMA emitter's ``dtype_abbrv``;
* ``T.fma`` / ``T.fmul`` on ``tvm.tirx`` expressions (test_cuda_fma_fmul.
  py): a ``tl.fma`` / ``tl.fmul`` call, TypeError for integers,
  ValueError for mixed dtypes;
* ``tilelang.transform``: ``simplify.apply_simplify`` and ``Simplify()``
  over ``tvm.IRModule`` (the same prim_funcs: tlc simplifies what it
  builds; the result compiled and run); ``LowerKernelLaunchTo*`` and
  TileLang's other passes (``LetInline``, ...): made, refused when
  applied;
* ``tilelang.contrib.nvcc.compile_cuda`` against a fake nvcc that records
  its command line, and its errors (no toolkit, a failing nvcc);
  ``get_target_compute_version`` of a ``tvm.target.Target``,
  ``get_nvcc_compiler`` and ``default_compile_options`` (tlc's nvcc flags
  and the include directory of its device headers);
* ``from tilelang.tileop.base import GemmWarpPolicy`` (the AMD flash
  attention example): ``T.GemmWarpPolicy``, in Python and in a kernel tlc
  builds (a GEMM against torch).
"""

import os
import stat
import tempfile

import tilelang
import tilelang.language as T
from tilelang import _build
from tilelang.contrib import nvcc
from tilelang.cuda import target as cuda_target
from tilelang.cuda.intrinsics.macro.mma_macro_generator import \
    TensorCoreIntrinEmitter
from tilelang.cuda.intrinsics.macro.wgmma_macro_generator import \
    select_wgmma_inst_n
from tilelang.language.dtypes import is_f8f6f4_family, is_float6_unpacked
from tilelang.tileop.base import GemmWarpPolicy
from tilelang.transform.simplify import apply_simplify
from tvm.target import Target


def expect_raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise AssertionError(f"{fn}: no {exc.__name__}")


def dtypes():
    e2m3, e3m2 = T.float6_e2m3fn_unpacked, T.float6_e3m2fn_unpacked
    e2m1 = T.float4_e2m1_unpacked
    for d, code, name in ((e2m1, 131, "float4_e2m1_unpacked"),
                          (e2m3, 132, "float6_e2m3fn_unpacked"),
                          (e3m2, 133, "float6_e3m2fn_unpacked")):
        assert d.bits == 8 and d.lanes == 1 and d.itemsize == 1, d
        assert int(d.type_code) == code, (d, d.type_code)
        assert str(d) == f"custom[{name}]8", str(d)
        assert d == T.dtype(name) == T.dtype(f"custom[{name}]8")
        assert _build.format_define(d) == f"T.{name}"
    assert e2m3 != e3m2 and e2m3 != T.float6_e2m3fn
    assert T.float6_e2m3fn.bits == 6 and T.float6_e3m2fn.bits == 6
    assert e2m3.is_float6_e2m3fn_unpacked() and e2m3.is_float6_unpacked()
    assert not e2m3.is_float6_e3m2fn_unpacked()
    assert e3m2.is_float6_e3m2fn_unpacked() and e3m2.is_float6_unpacked()
    assert not T.float6_e2m3fn.is_float6_unpacked()
    assert e2m1.is_float4_e2m1_unpacked() and e2m1.is_float4()
    assert is_float6_unpacked("custom[float6_e2m3fn_unpacked]8")
    assert not is_float6_unpacked(T.float16)
    for d in (e2m3, e3m2, e2m1, T.float8_e4m3fn, T.float8_e5m2,
              T.float6_e2m3fn, T.float4_e2m1fn):
        assert is_f8f6f4_family(d), d
    for d in (T.bfloat16, T.int8, T.float8_e8m0fnu, T.float32):
        assert not is_f8f6f4_family(d), d


def targets():
    hopper = ({"kind": "cuda", "arch": "sm_90"}, "cuda:sm_90a",
              Target("cuda -arch=sm_90a"))
    for t in hopper:
        assert cuda_target.target_is_hopper(t), t
        assert cuda_target.target_has_bulk_copy(t), t
        assert cuda_target.target_has_stmatrix(t), t
        assert not cuda_target.target_has_stmatrix(t, is_m16n8=True), t
        assert not cuda_target.target_is_ampere(t), t
    ampere = Target({"kind": "cuda", "arch": "sm_80"})
    assert cuda_target.target_is_ampere(ampere)
    assert cuda_target.target_has_async_copy(ampere)
    assert not cuda_target.target_has_bulk_copy(ampere)
    assert cuda_target.target_is_turing("cuda:sm_75")
    assert cuda_target.target_has_ldmatrix("cuda:sm_75")
    assert not cuda_target.target_has_async_copy("cuda:sm_75")
    assert cuda_target.target_is_volta("cuda:sm_70")
    assert cuda_target.target_is_sm120("cuda:sm_120")
    assert not cuda_target.target_is_hopper("cuda:sm_120")
    for other in ("hip:gfx942", "cpu", {"kind": "hip", "arch": "gfx942"}):
        assert not cuda_target.target_is_hopper(other), other
        assert not cuda_target.target_has_async_copy(other), other
    assert cuda_target.normalize_cutedsl_target(
        {"kind": "cutedsl", "arch": "sm_90"}) is None
    assert nvcc.get_target_compute_version(Target("cuda -arch=sm_80")) \
        == "8.0"
    assert nvcc.get_target_arch((9, 0)) == "90a"
    assert nvcc.get_target_arch("8.6") == "86"


def intrinsics():
    table = {64: 64, 96: 96, 112: 112, 160: 160, 176: 176, 192: 192,
             256: 256, 24: 8, 40: 8, 88: 8, 384: 192, 512: 256}
    for n, want in table.items():
        assert select_wgmma_inst_n(n) == want, (n, select_wgmma_inst_n(n))
    expect_raises(ValueError, select_wgmma_inst_n, 12)
    abbrv = TensorCoreIntrinEmitter.dtype_abbrv
    assert abbrv["custom[float6_e2m3fn_unpacked]8"] == "e2m3"
    assert abbrv["custom[float6_e3m2fn_unpacked]8"] == "e3m2"
    assert abbrv["custom[float4_e2m1_unpacked]8"] == "e2m1"
    assert abbrv["float16"] == "fp16" and abbrv["float8_e4m3fn"] == "e4m3"


def passes():
    @T.prim_func
    def main(A: T.Tensor((8,), T.float32)):
        with T.Kernel(8) as bx:
            A[bx] = T.float32(1)
    assert apply_simplify(main) is main
    from tilelang import tvm
    mod = tvm.IRModule({"main": main})
    assert mod["main"] is main and "main" in mod
    assert tvm.IRModule.from_expr(main)["main"] is main
    simplified = tilelang.transform.Simplify()(mod)
    assert simplified is not mod and simplified["main"] is main
    assert tilelang.transform.Simplify()(main) is main
    expect_raises(TypeError, tilelang.transform.Simplify(), object())
    expect_raises(KeyError, mod.__getitem__, "other")
    # What is built from the simplified module's function runs (the CPU
    # target), checked against torch.
    import torch

    @T.prim_func
    def axpy(X: T.Tensor((64,), T.float32), Y: T.Tensor((64,), T.float32)):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(64):
                Y[i] = X[i] * 3.0 + Y[i]
    kernel = tilelang.compile(tilelang.transform.Simplify()(
        tvm.IRModule.from_expr(axpy))["main"], target="cpu")
    x = torch.randn(64)
    y = torch.randn(64)
    want = x.double() * 3.0 + y.double()
    kernel(x, y)
    torch.testing.assert_close(y.double(), want, rtol=1e-6, atol=1e-6)
    for make in (tilelang.transform.LowerKernelLaunchToThreadBinding,
                 tilelang.transform.LowerKernelLaunchToSerial,
                 tilelang.transform.LetInline,
                 tilelang.transform.VerifyParallelLoop):
        p = make()
        e = expect_raises(NotImplementedError, p, object())
        assert "tlc" in str(e) and make.__name__ in str(e), e
    expect_raises(AttributeError, getattr, tilelang.transform, "lower_name")


def rounded_ops():
    from tilelang import tvm
    x, y, z = (tvm.tirx.Var(n, "float32") for n in "xyz")
    assert T.fmul(x, y).op.name == "tl.fmul"
    assert T.fma(x, y, z).op.name == "tl.fma"
    assert T.fma(x, y, z).dtype == "float32"
    i = tvm.tirx.Var("i", "int32")
    for fn, args in ((T.fma, (i, i, i)), (T.fmul, (i, i))):
        e = expect_raises(TypeError, fn, *args)
        assert "only supports floating-point inputs" in str(e), e
    h = tvm.tirx.Var("h", "float16")
    for fn, args in ((T.fmul, (x, h)), (T.fma, (x, x, h))):
        e = expect_raises(ValueError, fn, *args)
        assert "same dtype" in str(e), e


def fake_nvcc(root, script):
    os.makedirs(os.path.join(root, "bin"))
    path = os.path.join(root, "bin", "nvcc")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + script)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return root


def compile_cuda():
    code = "extern \"C\" __global__ void k(float *x) { x[0] = 1.0f; }\n"
    saved = {"CUDA_HOME": os.environ.get("CUDA_HOME"),
             "CUDA_PATH": os.environ.get("CUDA_PATH"),
             "PATH": os.environ.get("PATH")}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "args")
            # Records its arguments and the source, writes "PTX:" + source
            # to the -o file.
            ok = fake_nvcc(os.path.join(tmp, "ok"), (
                f"echo \"$@\" > {log}\n"
                "out=; prev=\n"
                "for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; prev=$a; "
                "src=$a; done\n"
                "{ printf 'PTX:'; cat \"$src\"; } > \"$out\"\n"))
            os.environ.pop("CUDA_PATH", None)
            os.environ["CUDA_HOME"] = ok
            data = nvcc.compile_cuda(code, target_format="ptx",
                                     arch="sm_90a", options=["-lineinfo"])
            assert isinstance(data, bytearray)
            assert bytes(data) == b"PTX:" + code.encode(), data
            args = open(log).read().split()
            assert args[0] == "--ptx" and "-arch=sm_90a" in args, args
            assert "-lineinfo" in args and args[-1].endswith(".cu"), args
            kept = os.path.join(tmp, "k.cubin")
            nvcc.compile_cuda(code, "cubin", arch="80", path_target=kept)
            assert open(kept, "rb").read() == b"PTX:" + code.encode()
            assert "-arch=sm_80" in open(log).read().split()
            nvcc.compile_cuda(code, "fatbin", arch=["sm_90a"])
            assert "-gencode=arch=compute_90a,code=sm_90a" in \
                open(log).read().split()
            expect_raises(ValueError, nvcc.compile_cuda, code, "sass")
            assert nvcc.get_nvcc_compiler() == os.path.join(ok, "bin", "nvcc")
            options = nvcc.default_compile_options()
            assert options[:3] == ["-std=c++17", "-O3", "-lineinfo"], options
            include = [o[2:] for o in options if o.startswith("-I")]
            assert len(include) == 1 and os.path.isfile(os.path.join(
                include[0], "tlc_device", "cpu.h")), options
            # nvcc failing: its output in the error.
            os.environ["CUDA_HOME"] = fake_nvcc(
                os.path.join(tmp, "bad"), "echo 'error: bad kernel' >&2\n"
                "exit 2\n")
            e = expect_raises(RuntimeError, nvcc.compile_cuda, code,
                              arch="sm_90a")
            assert "error: bad kernel" in str(e) and "exit 2" in str(e), e
            # No toolkit at all.
            os.environ.pop("CUDA_HOME")
            os.environ["PATH"] = tmp
            if not os.path.exists("/usr/local/cuda"):
                e = expect_raises(RuntimeError, nvcc.compile_cuda, code,
                                  arch="sm_90a")
                assert "no CUDA toolkit" in str(e), e
    finally:
        # Literal names: the package passes the variables a script reads
        # by name to tlc, and warns about computed ones.
        os.environ.pop("CUDA_HOME", None)
        os.environ.pop("CUDA_PATH", None)
        if saved["CUDA_HOME"] is not None:
            os.environ["CUDA_HOME"] = saved["CUDA_HOME"]
        if saved["CUDA_PATH"] is not None:
            os.environ["CUDA_PATH"] = saved["CUDA_PATH"]
        os.environ["PATH"] = saved["PATH"]


@tilelang.jit(out_idx=[-1], target="cpu")
def policy_gemm(M=32, N=64, K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), T.float32), B: T.Tensor((K, N), T.float32),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((M, K), T.float32)
            b = T.alloc_shared((K, N), T.float32)
            c = T.alloc_fragment((M, N), T.float32)
            T.copy(A, a)
            T.copy(B, b)
            T.clear(c)
            T.gemm(a, b, c, policy=GemmWarpPolicy.FullRow)
            T.copy(c, C)
    return main


def tileop():
    import torch
    assert GemmWarpPolicy is T.GemmWarpPolicy
    a = torch.randint(-3, 4, (32, 32)).float()
    b = torch.randint(-3, 4, (32, 64)).float()
    assert torch.equal(policy_gemm()(a, b), a @ b)


def main():
    tileop()
    dtypes()
    targets()
    intrinsics()
    passes()
    rounded_ops()
    compile_cuda()
    print("imported_modules: ok")


if __name__ == "__main__":
    main()
