# Python-level APIs public TileLang scripts use outside kernel bodies, on the
# CPU target, each checked against torch: imports of modules whose names only
# kernels use (tilelang.intrinsics, tilelang.quantize, tvm), Carver hints
# turned into autotune configurations, kernels defined inside functions
# (their closure variables become the instance's bindings), the older
# AutoTuner.set_compile_args(ref_prog=...) spelling, element .astype(), bool
# local buffers, tilelang.tools.bench.

import importlib

import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang import tvm as tvm
from tilelang.autotuner import AutoTuner, autotune
from tilelang.carver.arch import CUDA, driver
from tilelang.carver.roller.rasterization import NoRasterization
from tilelang.carver.template import ConvTemplate, MatmulTemplate
from tilelang.intrinsics import make_mma_swizzle_layout  # noqa: F401
from tilelang.intrinsics.mma_macro_generator import TensorCoreIntrinEmitter  # noqa: F401
from tilelang.quantize import _tir_packed_int_to_int_convert  # noqa: F401
from tvm import DataType


def test_shim_modules():
    assert DataType("float16").bits == 16 and DataType("int8").bits == 8
    # Submodules of tilelang.language the package does not have import as
    # placeholder modules; its own submodules are still the real ones.
    from tilelang.language.builtin import access_ptr  # noqa: F401
    import tilelang.language._objects as objects
    assert hasattr(objects, "PrimFunc")
    try:
        importlib.import_module("tilelang.utils.no_such_module")
    except ImportError:
        pass
    else:
        raise AssertionError("only tilelang.language.* falls back")
    m = tvm.te.var("m")
    assert isinstance(m, tilelang.language._objects.Symbol) and m.name == "m"


@tilelang.jit(out_idx=[-1], target="cpu")
def dot_rows(N, K, dtype="float16", accum_dtype="float"):
    # Each thread sums one row with elements cast by .astype (gemv style).
    @T.prim_func
    def main(A: T.Tensor((N, K), dtype), x: T.Tensor((K,), dtype), y: T.Tensor((N,), accum_dtype)):
        with T.Kernel(1, threads=N) as _:
            tn = T.get_thread_binding(0)
            acc = T.alloc_local((1,), accum_dtype)
            keep = T.alloc_local((K,), "bool")
            T.clear(acc)
            for k in T.serial(K):
                keep[k] = x[k] > 0
            for k in T.serial(K):
                if keep[k]:
                    acc[0] += A[tn, k].astype(accum_dtype) * x[k].astype(accum_dtype)
            y[tn] = acc[0]

    return main


@tilelang.jit(out_idx=[2], target="cpu")
def torch_side_helper(a, b):
    # A torch function decorated as examples/grouped_gemm's torch_gmm is:
    # TileLang refuses out_idx on such an (eager) function when it is
    # called, not at the decorator.
    return a @ b


def test_eager_out_idx_refused_at_call():
    a = torch.ones(2, 2)
    for call in (lambda: torch_side_helper(a, a),
                 lambda: torch_side_helper.compile(a, a)):
        try:
            call()
        except ValueError as e:
            assert "out_idx" in str(e) and "T.empty()" in str(e), e
        else:
            raise AssertionError("out_idx on an eager function was accepted")


def test_astype_and_bool_local():
    torch.manual_seed(0)
    a = torch.randn(32, 24, dtype=torch.float16)
    x = torch.randn(24, dtype=torch.float16)
    y = dot_rows(32, 24)(a, x)
    ref = a.double() @ torch.where(x > 0, x, torch.zeros_like(x)).double()
    torch.testing.assert_close(y.double(), ref, rtol=1e-5, atol=1e-5)


def test_carver_hints():
    arch = CUDA("cuda -arch=sm_90a")
    assert arch.compute_max_core > 0 and arch.smem_cap > 0
    template = MatmulTemplate(M=1024, N=512, K=256, in_dtype="float16", out_dtype="float16",
                              accum_dtype="float").with_arch(arch)
    assert template.equivalent_function() is not None
    hints = template.recommend_hints(topk=8)
    assert len(hints) == 8
    for h in hints:
        bm, bn = h.block
        wm, wn = h.warp
        assert bm % wm == 0 and bn % wn == 0
        assert (bm // wm) * (bn // wn) in (1, 2, 4, 8)
        assert h.pipeline_stage * (bm + bn) * h.rstep[0] * 2 <= arch.smem_cap
    assert [h.score for h in hints] == sorted([h.score for h in hints], reverse=True)
    conv = ConvTemplate(N=2, C=64, H=16, W=16, F=64, K=3, S=1, D=1, P=1, in_dtype="float16",
                        out_dtype="float16", accum_dtype="float").with_arch(arch)
    assert conv.equivalent_function().M == 2 * 16 * 16
    assert conv.recommend_hints(topk=3)


def carver_configs(M, N, K):
    hints = MatmulTemplate(M=M, N=N, K=K, in_dtype="float16", out_dtype="float16",
                           accum_dtype="float").with_arch(CUDA("cuda")).recommend_hints(topk=2)
    return [{
        "block_M": h.block[0],
        "block_N": h.block[1],
        "block_K": h.rstep[0],
        "num_stages": h.pipeline_stage,
        "threads": (h.block[0] // h.warp[0]) * (h.block[1] // h.warp[1]) * 32,
        "swizzle": not isinstance(h.rasterization_plan, NoRasterization),
    } for h in hints]


def tune_gemm(M, N, K, ref_prog):
    # The kernel is defined inside this function and uses its M, N, K.
    def kernel(block_M=None, block_N=None, block_K=None, num_stages=None, threads=None,
               swizzle=None):
        @T.prim_func
        def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((N, K), "float16"),
                 C: T.Tensor((M, N), "float16")):
            with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
                A_shared = T.alloc_shared((block_M, block_K), "float16")
                B_shared = T.alloc_shared((block_N, block_K), "float16")
                C_local = T.alloc_fragment((block_M, block_N), "float")
                T.use_swizzle(panel_size=10, enable=swizzle)
                T.clear(C_local)
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                    T.copy(A[by * block_M, k * block_K], A_shared)
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                    T.gemm(A_shared, B_shared, C_local, transpose_B=True)
                T.copy(C_local, C[by * block_M, bx * block_N])

        return main

    # Profile arguments given to set_compile_args, as older TileLang
    # scripts do, are the tuner's.
    return AutoTuner.from_kernel(kernel=kernel, configs=carver_configs(M, N, K)).set_compile_args(
        out_idx=[-1], target="cpu", supply_type=tilelang.TensorSupplyType.Integer,
        ref_prog=ref_prog, skip_check=False).run(warmup=1, rep=3)


def test_carver_autotune_nested_factory():
    M, N, K = 192, 160, 96
    result = tune_gemm(M, N, K, lambda a, b: a @ b.T if a.dtype != torch.float16 else
                       (a.float() @ b.float().T).half())
    assert result.config in carver_configs(M, N, K)
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(N, K, dtype=torch.float16)
    torch.testing.assert_close(result.kernel(a, b).float(), a.float() @ b.float().T,
                               rtol=1e-2, atol=1e-2)
    # A wrong reference rejects every configuration: ref_prog is used.
    try:
        tune_gemm(M, N, K, lambda a, b: (a.float() @ b.float().T + 1).half())
    except RuntimeError as e:
        assert "no configuration" in str(e) and "rejected" in str(e)
    else:
        raise AssertionError("a wrong ref_prog must reject every configuration")


def scaled_copy(M, N, scale):
    @autotune(configs=[{"block_M": 8}, {"block_M": 16}], warmup=1, rep=2)
    @tilelang.jit(out_idx=[-1], target="cpu")
    def kernel(block_M=None):
        @T.prim_func
        def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
            with T.Kernel(T.ceildiv(M, block_M), threads=32) as bx:
                for i, j in T.Parallel(block_M, N):
                    B[bx * block_M + i, j] = A[bx * block_M + i, j] * scale

        return main

    return kernel()


def test_nested_jit_closure_values():
    # Each call's closure values are that instance's bindings.
    for (m, n, scale) in [(32, 8, 2.0), (48, 4, -3.0)]:
        kernel = scaled_copy(m, n, scale)
        assert kernel.config in ({"block_M": 8}, {"block_M": 16})
        a = torch.randn(m, n)
        torch.testing.assert_close(kernel(a), a * scale)


def dynamic_triple():
    M = T.dynamic("m")

    @tilelang.jit(out_idx=[-1], target="cpu")
    def triple(block=16):
        @T.prim_func
        def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
            with T.Kernel(T.ceildiv(M, block), threads=32) as bx:
                for i in T.Parallel(block):
                    if bx * block + i < M:
                        B[bx * block + i] = A[bx * block + i] * 3.0

        return main

    return triple()


def test_nested_dynamic_closure():
    # A T.dynamic size of the enclosing function stays symbolic: one
    # instance serves every length.
    kernel = dynamic_triple()
    for n in (40, 100):
        a = torch.randn(n)
        torch.testing.assert_close(kernel(a), a * 3)


@tilelang.jit(out_idx=[-1], target="cpu")
def halve(M, block=16):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block), threads=32) as bx:
            for i in T.Parallel(block):
                if bx * block + i < M:
                    B[bx * block + i] = A[bx * block + i] * 0.5

    return main


def test_var_class():
    # T.Var is the class of symbolic sizes (isinstance checks of scripts
    # that take either an int or T.symbolic("m")); T.Var("n") makes one.
    for size in (T.dynamic("m"), T.symbolic("k"), T.Var("n", "int32")):
        assert isinstance(size, T.Var), size
    for size in (5, 2.0, "m", None):
        assert not isinstance(size, T.Var), size
    kernel = halve(T.Var("n", "int32"))  # stays symbolic: any length runs
    for n in (20, 77):
        a = torch.randn(n)
        torch.testing.assert_close(kernel(a), a * 0.5, rtol=0, atol=0)


def test_nested_closure_not_passable():
    table = torch.ones(4)

    @tilelang.jit(out_idx=[-1], target="cpu")
    def uses_tensor(N):
        @T.prim_func
        def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
            with T.Kernel(1, threads=32) as _:
                for i in T.Parallel(N):
                    B[i] = A[i] * table.shape[0]

        return main

    try:
        uses_tensor(8)
    except TypeError as e:
        assert "'table'" in str(e) and "inside" in str(e)
    else:
        raise AssertionError("a tensor closure variable must be refused")


def test_carver_sm_versions():
    # Arch names with a feature letter (sm_90a, sm_100a) and three-digit
    # capabilities: sm_100a was read as sm_10 (two digits only).
    from tilelang.carver.arch import cuda as carver_cuda
    from tilelang.carver.arch import check_sm_version, is_hopper_arch, has_mma_support
    cases = {"sm_70": 70, "sm_80": 80, "sm_89": 89, "sm_90": 90, "90": 90,
             "sm_90a": 90, "sm_100a": 100, "sm_103a": 103, "sm_120f": 120,
             "gfx942": -1, "gfx90a": -1, "sm_": -1, "": -1, "sm_9": -1}
    for text, want in cases.items():
        assert check_sm_version(text) == want, (text, check_sm_version(text))
    if not torch.cuda.is_available():  # else the current device's figures
        for target, version in (("cuda -arch=sm_100a", 100), ("cuda:sm_90a", 90),
                                ("cuda -arch=sm_120", 120), ("cuda", 80)):
            arch = CUDA(target)
            assert arch.sm_version == version, (target, arch.sm_version)
        hopper = CUDA("cuda -arch=sm_90a")
        assert is_hopper_arch(hopper) and has_mma_support(hopper)
        assert not carver_cuda.is_ampere_arch(hopper) and not carver_cuda.is_ada_arch(hopper)
        assert carver_cuda.is_ada_arch(CUDA("cuda:sm_89"))
        assert carver_cuda.is_volta_arch(CUDA("cuda:sm_70"))
        assert not has_mma_support(CUDA("cuda:sm_70"))
        assert has_mma_support(CUDA("cuda:sm_100a")) and not is_hopper_arch(CUDA("cuda:sm_100a"))


def _is_pow2(v):
    return v > 0 and v & (v - 1) == 0


def test_carver_shape_templates():
    # Element-wise, reduction and attention templates (carver/shapes.py):
    # every hint within the device's shared memory, threads and tiles
    # whole, scores best first; the scores recomputed here for the best
    # hint (waves over the SMs x edge coverage), and bad shapes refused.
    import math
    from tilelang import carver
    arch = CUDA("cuda -arch=sm_90a")
    if torch.cuda.is_available():
        return  # the figures below are the sm_90a defaults
    sms = arch.compute_max_core
    for shape in ([1024, 1024], [1024], [96, 1000], [sms * 8 * 1024]):
        hints = carver.ElementwiseTemplate(shape=shape, dtype="float16").with_arch(arch).recommend_hints(topk=20)
        assert hints, shape
        assert [h.score for h in hints] == sorted((h.score for h in hints), reverse=True)
        for h in hints:
            assert len(h.block) == len(shape) and all(map(_is_pow2, h.block)), h
            assert 64 <= h.threads <= 512 and h.threads <= math.prod(h.block), h
            assert all(t <= b for t, b in zip(h.thread, h.block)), h
        best = hints[0]
        tiles = math.prod(math.ceil(e / b) for e, b in zip(shape, best.block))
        wave = tiles / (math.ceil(tiles / sms) * sms)
        edge = math.prod(shape) / math.prod(math.ceil(e / b) * b for e, b in zip(shape, best.block))
        assert best.score <= wave * edge + 1e-12, (shape, best, wave, edge)
    # A size of whole waves of 8 x 1024-element tiles is met exactly.
    best = carver.ElementwiseTemplate(shape=[sms * 8 * 1024], dtype="float16").with_arch(arch).recommend_hints(1)[0]
    assert best.score == 1.0, best
    for structure, shape in (("SSR", [1024, 1024, 1024]), ("SS", [1024, 1024]),
                             ("SRS", [64, 1000, 64]), ("RS", [4096, 10])):
        t = carver.GeneralReductionTemplate(structure=structure, shape=shape, dtype="float16").with_arch(arch)
        spatial = [e for e, c in zip(shape, structure) if c == "S"]
        reduce = [e for e, c in zip(shape, structure) if c == "R"]
        assert t.equivalent_function()["reduce"] == reduce
        hints = t.recommend_hints(topk=10)
        assert hints, structure
        for h in hints:
            assert len(h.block) == len(spatial) and len(h.rstep) == len(reduce), h
            assert math.prod(h.block) * max(1, math.prod(h.rstep)) * 2 <= arch.smem_cap
    for bad in (dict(structure="SXR", shape=[2, 2, 2]), dict(structure="SR", shape=[2, 2, 2]),
                dict(structure="SR", shape=[0, 4])):
        try:
            carver.GeneralReductionTemplate(**bad)
        except ValueError:
            pass
        else:
            raise AssertionError(f"accepted {bad}")
    for dtype, elem in (("float16", 2), ("int8", 1)):
        fa = carver.FlashAttentionTemplate(batch_size=4, num_heads=32, seq_length=512, seq_kv_length=512,
                                           head_dim=128, in_dtype=dtype).with_arch(arch)
        hints = fa.recommend_hints(topk=20)
        assert hints
        for h in hints:
            bm, bn = h.block
            assert (bm + 2 * h.pipeline_stage * bn) * 128 * elem <= arch.smem_cap, h
            assert h.rstep == [128] and h.threads % 32 == 0 and h.threads <= 256, h
        # 4 x 32 heads x 512 queries: 128-row blocks give 512 tiles (3.9
        # waves of 132); the best hint covers the rows without padding.
        assert 512 % hints[0].block[0] == 0 and 512 % hints[0].block[1] == 0
    try:
        carver.FlashAttentionTemplate(seq_length=0, seq_kv_length=4, head_dim=64)
    except ValueError:
        pass
    else:
        raise AssertionError("seq_length=0 accepted")


def test_driver_and_bench():
    if not torch.cuda.is_available():
        try:
            driver.get_num_sms()
        except RuntimeError as e:
            assert "no CUDA device" in str(e)
        else:
            raise AssertionError("driver without a device must raise")
    import tilelang.tools.bench as bench
    assert bench.process_func(lambda: 1.5) == 1.5
    assert bench.process_func(lambda: 1 / 0) is None
    assert bench.records[-1][2].startswith("ZeroDivisionError")


if __name__ == "__main__":
    tilelang.testing.main()
