# tvm.transform.PassContext entered around builds (TileLang scripts lower
# their kernels inside `with tvm.transform.PassContext(config=...),
# tvm.target.Target(...)`): its config reaches tlc-build as --pass-config
# options of the builds made inside it, inner contexts win over outer ones,
# the kernel's own pass_configs win over the context's, and an empty
# context changes nothing. Values: torch's exp (the CPU target keeps IEEE
# math under fast math).

import torch

import tilelang
import tilelang.language as T
from tilelang import tvm

FAST = tilelang.PassConfigKey.TL_ENABLE_FAST_MATH


def expo_source(n):
    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, 64), threads=64) as bx:
            for i in T.Parallel(64):
                B[bx * 64 + i] = T.exp(A[bx * 64 + i])
    return main


expo = tilelang.jit(out_idx=[-1], target="cpu")(expo_source)
expo_slow = tilelang.jit(out_idx=[-1], target="cpu",
                         pass_configs={FAST: False})(expo_source)


def pass_configs_of(kernel):
    return [c for c in kernel.build_result.command
            if c.startswith("--pass-config")]


def main():
    plain = expo(128)
    assert pass_configs_of(plain) == [], plain.build_result.command
    with tvm.transform.PassContext():
        assert expo(128) is plain  # nothing changed: the same instance
    with tvm.transform.PassContext(opt_level=3, config={FAST: True}):
        assert tvm.transform.PassContext.current().opt_level == 3
        fast = expo(128)
        with tvm.transform.PassContext(config={FAST: False}):
            inner = expo(128)
        own = expo_slow(128)
    assert tvm.transform.PassContext.current().config == {}
    assert pass_configs_of(fast) == ["--pass-config=tl.enable_fast_math=True"]
    assert pass_configs_of(inner) == [
        "--pass-config=tl.enable_fast_math=False"]
    assert pass_configs_of(own) == ["--pass-config=tl.enable_fast_math=False"]
    assert fast is not plain and expo(128) is plain
    x = torch.randn(128)
    for kernel in (plain, fast, inner, own):
        torch.testing.assert_close(kernel(x), torch.exp(x))
    # The form scripts use: a context and a target entered together.
    with tvm.transform.PassContext(), tvm.target.Target("c"):
        torch.testing.assert_close(expo(128)(x), torch.exp(x))
    print("pass_context: ok")


if __name__ == "__main__":
    main()
