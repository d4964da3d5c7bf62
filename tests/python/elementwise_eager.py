# Eager @tilelang.jit kernels: T.const sizes bound from the tensors'
# shapes at call time, T.empty output returned, compile-time keywords, an
# integer runtime scalar, float runtime scalars (eager and prim_func
# parameters, 32/64/16-bit), pass_configs from Python, and .compile() with
# consts by name. Then bad calls: each must raise the
# documented Python exception before anything runs.

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(target="cpu")
def scaled_add(A, B, alpha: float = 1.0, block_M: int = 16, block_N: int = 32, dtype: T.dtype = T.float32):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), dtype)
    B: T.Tensor((M, N), dtype)
    C = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        for i, j in T.Parallel(block_M, block_N):
            C[by * block_M + i, bx * block_N + j] = A[by * block_M + i, bx * block_N + j] * alpha + B[by * block_M + i, bx * block_N + j]
    return C


@tilelang.jit(target="cpu")
def shift(X, offset, block: int = 64):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    offset: T.int32
    Y = T.empty((N,), T.int32)
    with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
        for i in T.Parallel(block):
            Y[bx * block + i] = X[bx * block + i] + offset
    return Y


@tilelang.jit(target="cpu")
def affine(X, alpha, beta, block: int = 64):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    alpha: T.float32
    beta: T.float64
    Y = T.empty((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
        for i in T.Parallel(block):
            Y[bx * block + i] = X[bx * block + i] * alpha + T.cast(beta, T.float32)
    return Y


@tilelang.jit(out_idx=[-1], target="cpu")
def lerp(N, block=32):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32), t: T.float32, C: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = A[bx * block + i] + (B[bx * block + i] - A[bx * block + i]) * t
    return main


@tilelang.jit(out_idx=[-1], target="cpu")
def scale_shift_h(N, block=32):
    @T.prim_func
    def main(A: T.Tensor((N,), T.float16), a: T.float16, b: T.bfloat16, C: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = T.cast(A[bx * block + i] * a, T.float32) + T.cast(b, T.float32)
    return main


def expo(N, block=64):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                Y[bx * block + i] = T.exp(X[bx * block + i])
    return main


def expect(exc, fn, text):
    try:
        fn()
    except exc as e:
        assert text in str(e), f"{exc.__name__} without '{text}': {e}"
        print(f"ok: {exc.__name__}: {str(e).splitlines()[0]}")
        return
    raise AssertionError(f"expected {exc.__name__} ({text})")


def main():
    torch.manual_seed(0)
    for m, n in [(37, 50), (64, 64)]:
        a = torch.randn(m, n)
        b = torch.randn(m, n)
        c = scaled_add(a, b, 0.5)
        torch.testing.assert_close(c, a * 0.5 + b, rtol=1e-6, atol=1e-6)
        c = scaled_add(a, b, alpha=-2.0, block_M=8)
        torch.testing.assert_close(c, a * -2.0 + b, rtol=1e-6, atol=1e-6)
    # Another dtype is another instance.
    a64, b64 = torch.randn(20, 30, dtype=torch.float64), torch.randn(20, 30, dtype=torch.float64)
    c64 = scaled_add(a64, b64, 2.0, dtype=T.float64)
    assert c64.dtype == torch.float64
    torch.testing.assert_close(c64, a64 * 2.0 + b64)
    kernel = scaled_add.compile(M=37, N=50, alpha=3.0, block_M=8)
    a, b = torch.randn(37, 50), torch.randn(37, 50)
    torch.testing.assert_close(kernel(a, b), a * 3.0 + b, rtol=1e-6, atol=1e-6)
    # A runtime integer scalar: one instance serves every value.
    x = torch.randint(-100, 100, (100,), dtype=torch.int32)
    for off in (0, 7, -3):
        torch.testing.assert_close(shift(x, off), x + off)
    # Runtime float scalars: parameters of the kernel, one instance for all
    # values (a float32 and a float64 one; a 0-d tensor works too).
    xf = torch.randn(300)
    builds = tilelang.build_stats["builds"]
    for alpha, beta in [(0.5, 0.0), (-1.25, 3.5), (1e-3, -2.0)]:
        torch.testing.assert_close(affine(xf, alpha, beta), xf * alpha + beta, rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(affine(xf, torch.tensor(2.5), 1), xf * 2.5 + 1.0, rtol=1e-6, atol=1e-6)
    assert tilelang.build_stats["builds"] == builds + 1, tilelang.build_stats
    k = lerp(100)
    a1, b1 = torch.randn(100), torch.randn(100)
    for t in (0.0, 0.25, 1.0):
        torch.testing.assert_close(k(a1, b1, t), a1 + (b1 - a1) * t, rtol=1e-6, atol=1e-6)
    # 16-bit float scalars are passed as their dtype stores them.
    h = scale_shift_h(100)
    ah = torch.randn(100, dtype=torch.float16)
    for sa, sb in [(0.3, 1.7), (-2.5, 1e-3), (70000.0, 0.1)]:
        ref = (ah * torch.tensor(sa, dtype=torch.float16)).float() + torch.tensor(sb, dtype=torch.bfloat16).float()
        torch.testing.assert_close(h(ah, sa, sb), ref, rtol=0, atol=0)
    # pass_configs given from Python reach tlc-build (fast math; the CPU
    # target keeps IEEE math, so the values are torch's).
    fast = tilelang.compile(expo(256), out_idx=[-1], target="cpu", pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
    assert "--pass-config=tl.enable_fast_math=True" in fast.build_result.command, fast.build_result.command
    assert "--pass-config" not in " ".join(tilelang.compile(expo(256), target="cpu").build_result.command)
    # compile_flags and tl.device_compile_flags from Python become
    # --compile-flag options (device-compiler flags: the CPU target has no
    # device compiler, so the values stay torch's).
    flagged = tilelang.compile(expo(256), out_idx=[-1], target="cpu", compile_flags="-DA=1 -DB=2",
                               pass_configs={"tl.device_compile_flags": ["-DC=3"]})
    cmd = flagged.build_result.command
    assert [c for c in cmd if c.startswith("--compile-flag")] == ["--compile-flag=-DC=3", "--compile-flag=-DA=1", "--compile-flag=-DB=2"], cmd
    torch.testing.assert_close(flagged(xe := torch.randn(256)), torch.exp(xe))
    expect(TypeError, lambda: tilelang.compile(expo(256), target="cpu", compile_flags=3), "compile_flags")
    xe = torch.randn(256)
    torch.testing.assert_close(fast(xe), torch.exp(xe))
    print("elementwise_eager: all checks passed")

    # Bad calls on a compiled instance.
    expect(ValueError, lambda: kernel(torch.randn(36, 50), b), "shape")
    expect(ValueError, lambda: kernel(a.reshape(50, 37), b), "shape")
    expect(TypeError, lambda: kernel(a.double(), b), "dtype float32")
    # A positional call of another count: TileLang's adapters' ValueError.
    expect(ValueError, lambda: kernel(a), "Kernel expected 2 inputs, but 1")
    expect(ValueError, lambda: kernel(a, b, b), "Kernel expected 2 inputs, but 3")
    expect(TypeError, lambda: kernel(A=a), "missing")
    expect(TypeError, lambda: kernel(a, b, b, B=b), "takes 2")
    expect(TypeError, lambda: kernel(a, [1, 2]), "must be a tensor")
    # A sparse tensor (torch raised "Cannot access data pointer").
    expect(TypeError, lambda: kernel(a, b.to_sparse()), "dense (strided) tensor")
    expect(TypeError, lambda: kernel(a, C=b), "no input 'C'")
    if torch.cuda.is_available():
        expect(ValueError, lambda: kernel(a.cuda(), b.cuda()), "cpu target")
    else:
        # A tensor on another device: the meta device stands in for CUDA.
        expect(ValueError, lambda: kernel(torch.empty(37, 50, device="meta"), b), "cpu target")
    expect(TypeError, lambda: scaled_add(a), "B")
    expect(TypeError, lambda: shift(x, 1.5), "integer symbol")
    expect(TypeError, lambda: affine(xf, "2", 1.0), "must be a number")
    expect(TypeError, lambda: k(a1, b1, [0.5]), "must be a number")
    expect(ValueError, lambda: k(a1, b1), "but 2 are provided")
    print("elementwise_eager: bad calls raise")


if __name__ == "__main__":
    main()
