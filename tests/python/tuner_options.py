"""Options public TileLang scripts give the tuner and the profiler (CPU
target, against torch):

* a configuration's ``pass_configs`` reach that configuration's build
  (``AutoTuner.from_kernel`` over a plain factory and ``@autotune`` over a
  ``@jit`` factory): the tlc-build command of the chosen kernel carries
  them, and two configurations differing only in them are two builds;
* ``early_stop``: with a factor no configuration can meet, every
  configuration after the first is stopped early and the first is chosen;
  without it, all are timed;
* ``do_bench(dynamic_symbolic_constraints={"m": ...})`` under the name
  given to ``T.dynamic``, and the ``ValueError`` naming a missing symbol;
* a configuration key that names no parameter: TileLang's ValueError
  (ignored under the older set_compile_args(ref_prog=...) spelling, as
  TileLang of that time ignored it).
"""

import torch

import tilelang
import tilelang.language as T
from tilelang.autotuner import AutoTuner, autotune


def ref_program(A, B):
    return (A.float() @ B.float()).to(A.dtype)


def make_factory(M, N, K):
    def kernel(block_M=None, block_N=None, block_K=32):
        @T.prim_func
        def main(A: T.Tensor((M, K), T.float32), B: T.Tensor((K, N), T.float32),
                 C: T.Tensor((M, N), T.float32)):
            with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                          threads=128) as (bx, by):
                A_shared = T.alloc_shared((block_M, block_K), T.float32)
                B_shared = T.alloc_shared((block_K, block_N), T.float32)
                C_local = T.alloc_fragment((block_M, block_N), T.float32)
                T.clear(C_local)
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                    T.copy(A[by * block_M, k * block_K], A_shared)
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
                T.copy(C_local, C[by * block_M, bx * block_N])
        return main
    return kernel


CONFIGS = [{"block_M": 32, "block_N": 32},
           {"block_M": 64, "block_N": 32},
           {"block_M": 32, "block_N": 64}]


def tuner(configs, **run):
    return (AutoTuner.from_kernel(kernel=make_factory(96, 64, 64),
                                  configs=configs)
            .set_compile_args(out_idx=[-1], target="cpu")
            .set_profile_args(ref_prog=ref_program)
            .run(warmup=1, rep=3, **run))


def check_pass_configs():
    seen = set()
    for flag in (True, False):
        cfg = dict(CONFIGS[0], pass_configs={"tl.disable_tma_lower": flag})
        result = tuner([cfg])
        cmd = " ".join(result.kernel.build_result.command)
        assert f"--pass-config=tl.disable_tma_lower={flag}" in cmd, cmd
        seen.add(result.kernel.artifact_dir)
    assert len(seen) == 2, "the two pass_configs gave one build"

    @autotune(configs=[{"block_M": 32, "pass_configs":
                        {"tl.disable_warp_specialized": True}}],
              warmup=1, rep=3)
    @tilelang.jit(out_idx=[-1], target="cpu")
    def scale(M, block_M=64):
        @T.prim_func
        def main(A: T.Tensor((M,), T.float32), B: T.Tensor((M,), T.float32)):
            with T.Kernel(T.ceildiv(M, block_M), threads=32) as bx:
                for i in T.Parallel(block_M):
                    B[bx * block_M + i] = A[bx * block_M + i] * 3
        return main

    kernel = scale(100)
    cmd = " ".join(kernel.build_result.command)
    assert "--pass-config=tl.disable_warp_specialized=True" in cmd, cmd
    a = torch.randn(100)
    torch.testing.assert_close(kernel(a), a * 3)
    print("pass_configs per configuration: OK")


def check_early_stop():
    full = tuner(CONFIGS)
    timed = [c for c, lat, _ in full.results if lat is not None]
    assert len(timed) == 3, full.results
    stopped = tuner(CONFIGS, early_stop=True, early_stop_factor=1e-9)
    notes = [msg for _, _, msg in stopped.results]
    assert notes == [None, "stopped early", "stopped early"], notes
    assert stopped.config == CONFIGS[0], stopped.config
    print("early_stop: OK")


@tilelang.jit(out_idx=[-1], target="cpu")
def add_one(M, N, block_M=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(M, block_M), threads=32) as bx:
            for i, j in T.Parallel(block_M, N):
                B[bx * block_M + i, j] = A[bx * block_M + i, j] + 1
    return main


def check_dynamic_constraints():
    kernel = add_one(T.dynamic("m"), 16)
    profiler = kernel.get_profiler(
        tensor_supply_type=tilelang.TensorSupplyType.Normal)
    for m in (40, 100):
        assert profiler.do_bench(dynamic_symbolic_constraints={"m": m},
                                 warmup=1, rep=2) > 0
        (a,) = profiler._get_inputs(symbols={"m": m})
        assert tuple(a.shape) == (m, 16), a.shape
    try:
        profiler.do_bench(dynamic_symbolic_constraints={"wrong": 8})
    except ValueError as e:
        assert "m (parameter M)" in str(e), e
    else:
        raise AssertionError("a missing symbol was accepted")
    print("dynamic_symbolic_constraints: OK")


def check_unused_keys():
    # TileLang's AutoTuner.run: a key naming no parameter of the factory
    # (example_convolution.py's roller configurations add
    # 'enable_rasteration') is a ValueError before anything is built.
    try:
        tuner([dict(CONFIGS[0], enable_rasteration=True)])
    except ValueError as e:
        assert str(e) == "Unused keys in config: {'enable_rasteration'}", e
    else:
        raise AssertionError("an unused configuration key was accepted")
    # The older spelling, the profile options in set_compile_args
    # (example_convolution.py of that time): TileLang then ignored keys
    # naming no parameter; the configuration runs without them.
    a, b = torch.randn(96, 64), torch.randn(64, 64)
    result = (AutoTuner.from_kernel(kernel=make_factory(96, 64, 64),
                                    configs=[dict(CONFIGS[0],
                                                  enable_rasteration=True)])
              .set_compile_args(out_idx=[-1], target="cpu",
                                supply_type=tilelang.TensorSupplyType.Integer,
                                ref_prog=ref_program, skip_check=False)
              .run(warmup=1, rep=3))
    assert result.config == CONFIGS[0], result.config
    torch.testing.assert_close(result.kernel(a, b),
                               (a.double() @ b.double()).float(),
                               rtol=1e-2, atol=1e-2)
    print("unused keys: OK")


def main():
    check_unused_keys()
    check_pass_configs()
    check_early_stop()
    check_dynamic_constraints()
    print("tuner_options: OK")


if __name__ == "__main__":
    main()
