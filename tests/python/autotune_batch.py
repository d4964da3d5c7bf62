"""A large sweep's builds in few tlc-build processes (tlc-build --configs,
_batch) give each configuration what its own tlc-build process gives:
built for cuda:sm_90a with TLC_CUDA_COMPILER=none (the source, no GPU or
CUDA compiler needed), twelve configurations of a GEMM (cols=512 is
refused by the target's lowering, block=... is unused by the kernel) are
built once one process per configuration into one cache, and once
planned and batched into another; the generated sources, manifests and
errors (type, diagnostic, refusal record) are the same, and the batched
builds ran in 2 processes. Then a CPU autotune with batching on returns a
kernel whose output equals NumPy's. (8-16 s on a loaded machine: the
autotune's two host compilations.)"""

import json
import os
import tempfile

import numpy as np
import tilelang
import tilelang.language as T
from tilelang import _batch, _build


@tilelang.jit(out_idx=[-1], target="cuda:sm_90a")
def scaled_gemm(cols=256, block=1):
    @T.prim_func
    def main(A: T.Tensor((128, 64), "float16"),
             B: T.Tensor((64, cols), "float16"),
             C: T.Tensor((128, cols), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((128, 64), "float16")
            B_shared = T.alloc_shared((64, cols), "float16")
            acc = T.alloc_fragment((128, cols), "float32")
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.gemm(A_shared, B_shared, acc, clear_accum=True)
            # A row per iteration (the inner loop serial): the accumulator
            # is exchanged through shared memory, which the budget counts.
            for i in T.Parallel(128):
                for j in T.serial(cols):
                    acc[i, j] *= 2
            T.copy(acc, C)

    return main


CONFIGS = [{"cols": c, "block": b} for c in (64, 128, 256, 512)
           for b in (1, 2, 3)]


def outcome(cfg):
    """What building ``cfg`` gave: its generated source and manifest
    (without the directory), or its error's type, diagnostic and refusal
    record (without the command line)."""
    try:
        kernel = scaled_gemm.compile(**cfg)
    except _build.TLCBuildError as e:
        refused = getattr(e, "refused", None)
        return ("error", type(e).__name__, json.dumps(e.diagnostic),
                None if refused is None else (refused[0],) + refused[2:])
    result = kernel.build_result
    manifest = result.manifests[0]
    with open(os.path.join(result.out_dir,
                           manifest["generated_source"])) as f:
        source = f.read()
    return ("built", source, json.dumps(manifest, sort_keys=True))


def check_chunk_sizes():
    """Chunks come in whole waves of the workers, none above CHUNK, sizes
    within one of each other; checked by enumeration over counts and
    worker numbers (the rule, not the formula)."""
    for workers in (1, 2, 3, 16):
        for count in list(range(1, 300)) + [1216, 1024, 1025, 5000]:
            size = _batch.chunk_size(count, workers)
            chunks = -(-count // size)
            assert 1 <= size <= _batch.CHUNK, (count, workers, size)
            if count >= workers:
                # As few waves as CHUNK allows, the last more than half
                # full (the old rule, chunks of CHUNK, left 1,216 on 16
                # workers a second wave of 3).
                waves = -(-chunks // workers)
                assert waves == -(-count // (workers * _batch.CHUNK)), \
                    (count, workers, size, chunks)
                assert chunks > (waves - 1) * workers + workers // 2, \
                    (count, workers, size, chunks)
            else:
                assert size == 1, (count, workers, size)
    assert _batch.chunk_size(1216, 16) == 38  # 32 chunks, 2 waves of 16
    assert _batch.chunk_size(80, 2) == 40
    print("chunk sizes: whole waves of the workers, at most CHUNK each")


def main():
    check_chunk_sizes()
    os.environ["TLC_CUDA_COMPILER"] = "none"
    with tempfile.TemporaryDirectory(prefix="tlc-batch-") as tmp:
        os.environ["TLC_CACHE_DIR"] = os.path.join(tmp, "single")
        runs = _build.stats["builds"]
        single = [outcome(cfg) for cfg in CONFIGS]
        assert _build.stats["builds"] == runs + 9, _build.stats  # 3 refused

        os.environ["TLC_CACHE_DIR"] = os.path.join(tmp, "batched")
        scaled_gemm._compiler._cache.clear()  # the first cache's kernels
        with _batch.planned() as requests:
            for cfg in CONFIGS:
                try:
                    scaled_gemm.compile(**cfg)
                except _batch.Planned:
                    pass
        assert len(requests) == len(CONFIGS), requests
        processes = _batch.stats["processes"]
        _batch.run(requests, 2)
        assert _batch.stats["processes"] == processes + 2, _batch.stats
        batched = [outcome(cfg) for cfg in CONFIGS]
        _batch.discard(requests)
        assert not _batch._done, "every batched outcome was taken"
        for cfg, a, b in zip(CONFIGS, single, batched):
            assert a == b, (cfg, a, b)
        assert sum(o[0] == "error" for o in batched) == 3
        assert all(o[3] is not None for o in batched if o[0] == "error")
        print("batched builds: the same sources, manifests and errors")

    # A CPU autotune with batching on (TLC_AUTOTUNE_BATCH=2).
    os.environ["TLC_AUTOTUNE_BATCH"] = "2"
    del os.environ["TLC_CUDA_COMPILER"]
    with tempfile.TemporaryDirectory(prefix="tlc-batch-cpu-") as tmp:
        os.environ["TLC_CACHE_DIR"] = tmp

        @tilelang.autotune(configs=[{"block": 32}, {"block": 64}],
                           warmup=1, rep=2)
        @tilelang.jit(out_idx=[-1], target="cpu")
        def axpb(N=128, block=32):
            @T.prim_func
            def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32),
                     Z: T.Tensor((N,), T.float32)):
                with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
                    for i in T.Parallel(block):
                        Z[bx * block + i] = X[bx * block + i] * 3.0 + \
                            Y[bx * block + i]
            return main

        configs = _batch.stats["configs"]
        kernel = axpb()
        assert _batch.stats["configs"] == configs + 2, _batch.stats
        x = np.random.rand(128).astype(np.float32)
        y = np.random.rand(128).astype(np.float32)
        np.testing.assert_allclose(kernel(x, y), x.astype(np.float64) * 3 + y,
                                   rtol=1e-6)
        print("batched autotune: the tuned kernel computes X * 3 + Y")
    print("autotune_batch: ok")


if __name__ == "__main__":
    main()
