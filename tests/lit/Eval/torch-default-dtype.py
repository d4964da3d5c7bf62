# RUN: tlc-build --verify-diagnostics %s
# A torch factory without dtype= makes a tensor of torch's default dtype:
# float32 (torch.randn, rand, empty, zeros, ones, empty_strided, and full
# of a float), int64 for randint and full of an int, bool for full of a
# bool; torch.set_default_dtype changes the float default. A kernel's
# call checks its parameters' dtypes against them as TileLang's adapter
# does: the right ones pass, the others raise its TypeError.
import torch
import tilelang
import tilelang.language as T


def copy_kernel(dtype):

    @tilelang.jit(out_idx=[1])
    def copy(N):

        @T.prim_func
        def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
            with T.Kernel(1, threads=32):
                for i in T.Parallel(N):
                    B[i] = A[i]

        return main

    return copy(64)


def raises(text, fn, *args):
    try:
        fn(*args)
    except TypeError as e:
        assert text in str(e), str(e)
        return
    raise AssertionError(f"no TypeError ({text})")


f32 = copy_kernel(T.float32)
f16 = copy_kernel(T.float16)
i64 = copy_kernel(T.int64)

f32(torch.randn(64, device="cuda"))
f32(torch.rand(64))
f32(torch.empty(64))
f32(torch.zeros((64,)))
f32(torch.ones(size=(64,)))
f32(torch.full((64,), 0.5))
f32(torch.empty_strided((64,), (1,)))
i64(torch.randint(0, 8, (64,)))
i64(torch.full((64,), 3))
raises("must have dtype float16, got torch.float32", f16, torch.randn(64))
raises("must have dtype float16, got torch.float32", f16, torch.zeros(64))
raises("must have dtype float32, got torch.int64", f32, torch.randint(0, 8, (64,)))
raises("must have dtype float32, got torch.bool", f32, torch.full((64,), True))

torch.set_default_dtype(torch.float16)
f16(torch.randn(64))
f16(torch.empty(64))
raises("must have dtype float32, got torch.float16", f32, torch.ones(64))
