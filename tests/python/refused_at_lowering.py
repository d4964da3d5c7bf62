"""A configuration the target's lowering refuses is remembered like one
the analysis refuses. Examples/amd's k-blocked attention: 495 of its
configurations pass the analysis's shared-memory check but need more once
the CUDA lowering adds the buffers that exchange fragments between
threads ("the kernel needs 327680 bytes of shared memory per block"). That
error is printed by the lowering, not written to the analysis
diagnostics, so the package did not record it as a refusal, and every
tuning built those configurations again. Here `scaled_gemm(cols=512)`
needs 256 KiB that way (80 KiB of buffers, 256 KiB to exchange the
accumulator); cols=256 fits. Built for cuda:sm_90a with
TLC_CUDA_COMPILER=none (the source only: no GPU or CUDA compiler needed).
A failure to write the artifact (the CUDA or host compiler failed, a tool
is missing) is never remembered."""

import os
import tempfile

import tilelang
import tilelang.language as T
from tilelang import _build


@tilelang.jit(out_idx=[-1], target="cuda:sm_90a")
def scaled_gemm(cols=256):
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


def refusal(cols):
    """Builds scaled_gemm(cols) remembering refusals; the error, or None."""
    try:
        with _build.refusals_remembered():
            scaled_gemm.compile(cols=cols)
    except _build.TLCBuildError as e:
        return e
    return None


def main():
    with tempfile.TemporaryDirectory(prefix="tlc-lower-") as cache:
        os.environ["TLC_CACHE_DIR"] = cache
        os.environ["TLC_CUDA_COMPILER"] = "none"
        assert refusal(256) is None, "cols=256 fits in shared memory"
        first = refusal(512)
        assert first is not None and "shared memory per block" in \
            str(first.diagnostics), first
        assert getattr(first, "refused", None) is not None, \
            "the lowering's refusal is a refusal of the program"
        assert not getattr(first, "remembered", False)
        skipped = _build.stats["refusals_skipped"]
        second = refusal(512)
        assert getattr(second, "remembered", False), \
            "built again instead of skipped"
        assert _build.stats["refusals_skipped"] == skipped + 1

    src = "/tmp/k.py"
    text = (f"{src}:10:14: error: cannot write the cuda:sm_90a artifact of "
            "'k': nvcc exited with status 1\n")
    assert _build.target_error(text, src) is None
    print("refused_at_lowering: ok")


if __name__ == "__main__":
    main()
