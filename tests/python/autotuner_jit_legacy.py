# TileLang's older autotuning spellings on the CPU target:
# `from tilelang.autotuner import jit, autotune` with `@autotune(configs=...)`
# over `@jit(out_idx, distribution=..., ref_prog=..., skip_check=...)`
# (testing/python/autotune/test_tilelang_autotune_decorator.py of early
# 2025: the call returns an AutotuneResult whose config is the tuple of the
# function's arguments), the `keys=` form returning (latency, config,
# ref_latency), the positional `autotune(configs, keys)` and the star
# import of example_mha.py's time (`jit(..., profiler="auto")`). Each kernel
# is checked against a float64 torch reference; a configuration whose
# kernel is wrong is dropped by the reference check and kept by skip_check.

import tilelang
import tilelang.language as T
import torch
from tilelang.autotuner import autotune, jit, JITContext, AutotuneResult

M = N = K = 64


def gemm_ref(A, B):
    return (A.double() @ B.double().T).float()


def gemm_configs():
    return [dict(block_M=bm, block_N=32, block_K=32, num_stages=s)
            for bm, s in ((32, 0), (64, 1))]


def tuned_gemm():
    # As the scripts of that time: the decorators inside a function.

    @autotune(configs=gemm_configs(), warmup=2, rep=5)
    @jit(out_idx=[-1], distribution=tilelang.TensorDistribution.Integer,
         ref_prog=gemm_ref, target="cpu")
    def kernel(block_M=None, block_N=None, block_K=None, num_stages=None):
        return gemm(block_M, block_N, block_K, num_stages)

    return kernel()


def gemm(block_M, block_N, block_K, num_stages):

    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), B: T.Tensor((N, K), "float32"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), "float32")
            B_s = T.alloc_shared((block_N, block_K), "float32")
            C_l = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_l)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[bx * block_N, k * block_K], B_s)
                T.gemm(A_s, B_s, C_l, transpose_B=True)
            T.copy(C_l, C[by * block_M, bx * block_N])

    return main


def axpy_ref(X, Y):
    return (X.double() + Y.double()).float()


def axpy_func(rows, cols, block, scale):

    @T.prim_func
    def main(X: T.Tensor((rows, cols), "float32"),
             Y: T.Tensor((rows, cols), "float32"),
             Z: T.Tensor((rows, cols), "float32")):
        with T.Kernel(T.ceildiv(rows, block), threads=32) as bx:
            for i, j in T.Parallel(block, cols):
                Z[bx * block + i, j] = X[bx * block + i, j] * scale + \
                    Y[bx * block + i, j]

    return main


# scale=2 computes the wrong sum: the reference check drops it.
AXPY_CONFIGS = [dict(block=16, scale=1), dict(block=32, scale=2),
                dict(block=32, scale=1)]


def axpy_tuners():
    """(checked, unchecked): the `keys=` form and the positional one."""

    @autotune(configs=AXPY_CONFIGS, keys=["block", "scale"], warmup=2, rep=5)
    @jit(out_idx=[2], supply_type=tilelang.TensorSupplyType.Integer,
         ref_prog=axpy_ref, target="cpu")
    def checked(rows, cols, block=None, scale=None):
        return axpy_func(rows, cols, block, scale)

    @autotune(AXPY_CONFIGS, ["block", "scale"], 2, 5)
    @jit(out_idx=[2], ref_prog=axpy_ref, skip_check=True, target="cpu")
    def unchecked(rows, cols, block=None, scale=None):
        return axpy_func(rows, cols, block, scale)

    return checked, unchecked


def check_result_form():
    result = tuned_gemm()
    assert isinstance(result, AutotuneResult), type(result)
    # TileLang's config: the function's arguments in parameter order.
    assert result.config in [(c["block_M"], c["block_N"], c["block_K"],
                              c["num_stages"]) for c in gemm_configs()], \
        result.config
    assert result.latency > 0 and result.ref_latency > 0
    assert isinstance(result.libcode, str) and result.libcode
    assert isinstance(result.func, JITContext)
    # Small integers: every product and sum is exact (also in tf32, which
    # a float32 T.gemm may use).
    a = torch.randint(-4, 5, (M, K)).float()
    b = torch.randint(-4, 5, (N, K)).float()
    torch.testing.assert_close(result.kernel(a, b), gemm_ref(a, b),
                               rtol=0, atol=0)
    print(f"AutotuneResult: config {result.config}, "
          f"{result.latency:.4f} ms (reference {result.ref_latency:.4f} ms)")


def check_keys_form():
    axpy_checked, axpy_unchecked = axpy_tuners()
    latency, config, ref_latency = axpy_checked(64, 16)
    assert config[:2] == (64, 16) and config[3] == 1, config
    assert config[2] in (16, 32), config
    assert latency > 0 and ref_latency > 0
    kernel = axpy_checked.jit_fn.compile_kernel(*config)
    x, y = torch.randn(64, 16), torch.randn(64, 16)
    torch.testing.assert_close(kernel(x, y), axpy_ref(x, y))
    # The same call's wrong configuration was rejected, not timed.
    rejected = [c for c in AXPY_CONFIGS if c["scale"] == 2]
    assert rejected
    # skip_check: every configuration is timed, the wrong one too.
    tuned = []
    import tilelang.autotuner as at
    original = at._Tuner.run

    def recording(self, build_one, configs, **kw):
        result = original(self, build_one, configs, **kw)
        tuned.append(result.results)
        return result
    at._Tuner.run = recording
    try:
        axpy_unchecked(64, 16)
        axpy_checked(64, 16)
    finally:
        at._Tuner.run = original
    unchecked, checked = tuned
    assert all(latency is not None for _, latency, _ in unchecked), unchecked
    assert [c["scale"] for c, latency, _ in checked if latency is None] == [2], \
        checked
    print(f"keys form: {config}, {latency:.4f} ms")


def check_errors():
    @autotune(configs=[dict(block=16)], warmup=1, rep=1)
    @jit(out_idx=[2], target="cpu")
    def missing(block=None, scale=None):
        return axpy_func(16, 4, block, scale)
    try:
        missing()
    except ValueError as e:
        assert "does not contain key scale" in str(e), e
    else:
        raise AssertionError("a configuration without a parameter ran")
    try:
        jit(out_idx=[2], supply_type=tilelang.TensorSupplyType.Integer,
            distribution=tilelang.TensorSupplyType.Normal)
    except ValueError as e:
        assert "one option" in str(e), e
    else:
        raise AssertionError("two supply types accepted")
    try:
        @autotune(configs=[dict(block=16)], keys=["block"])
        @tilelang.jit(out_idx=[2], target="cpu")
        def modern(block=16):
            return axpy_func(16, 4, block, 1)
    except TypeError as e:
        assert "older decorator" in str(e), e
    else:
        raise AssertionError("keys= over tilelang.jit accepted")


def check_direct_call_and_star_import():
    @jit(out_idx=[2], supply_type=tilelang.TensorSupplyType.Integer,
         target="cpu", profiler="auto")
    def plain(block):
        return axpy_func(32, 8, block, 1)
    context = plain(16)
    assert isinstance(context, JITContext)
    assert context.supply_type == tilelang.TensorSupplyType.Integer
    x, y = torch.randn(32, 8), torch.randn(32, 8)
    torch.testing.assert_close(context.kernel(x, y), axpy_ref(x, y))
    context.profiler.assert_allclose(axpy_ref)
    namespace = {}
    exec("from tilelang.autotuner import *", namespace)
    assert namespace["jit"] is jit and namespace["autotune"] is autotune


if __name__ == "__main__":
    torch.manual_seed(0)
    check_errors()
    check_direct_call_and_star_import()
    check_keys_form()
    check_result_form()
    print("OK")
