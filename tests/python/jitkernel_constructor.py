"""TileLang's ``JITKernel(program, out_idx=..., target=...)``: a kernel
compiled straight from a prim_func (a plain factory's, as upstream's
gemv_simt tests build theirs), ``from tilelang.jit.kernel import
JITKernel``, ``JITKernel.from_tilelang_function``; results against torch;
wrong keywords raise. CPU target."""

import torch

import tilelang
import tilelang.language as T
from tilelang.jit.kernel import JITKernel


def scaled_rowsum(M, N, scale, block_M=16, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Out: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=32) as bx:
            acc = T.alloc_fragment((block_M, N), dtype)
            row = T.alloc_fragment((block_M,), dtype)
            T.copy(A[bx * block_M, 0], acc)
            T.reduce_sum(acc, row, dim=1)
            for i in T.Parallel(block_M):
                Out[bx * block_M + i] = row[i] * scale
    return main


def expect(error, fn, text):
    try:
        fn()
    except error as e:
        assert text in str(e), e
    else:
        raise AssertionError(f"no {error.__name__}")


def main():
    assert JITKernel is tilelang.JITKernel
    torch.manual_seed(0)
    a = torch.randn(40, 24)
    # Positional target keyword as upstream's tests write it; the program's
    # arguments (M=40, N=24, scale=0.5) are the instance's bindings.
    kernel = JITKernel(scaled_rowsum(40, 24, 0.5), target="cpu")
    assert isinstance(kernel, JITKernel)
    out = torch.empty(40)
    kernel(a, out)
    torch.testing.assert_close(out, a.sum(1) * 0.5, rtol=1e-5, atol=1e-5)
    # out_idx allocates the output; func= by keyword, another instance.
    k2 = JITKernel(func=scaled_rowsum(40, 24, 2.0), out_idx=[-1], target="cpu")
    torch.testing.assert_close(k2(a), a.sum(1) * 2.0, rtol=1e-5, atol=1e-5)
    k3 = JITKernel.from_tilelang_function(scaled_rowsum(40, 24, -1.0),
                                          out_idx=-1, target="cpu")
    torch.testing.assert_close(k3(a), -a.sum(1), rtol=1e-5, atol=1e-5)
    # The instance is the call's: its extents are in the generated code.
    source = kernel.get_kernel_source()
    assert "scaled_rowsum" in source and "{40, 24}" in source, source[:400]
    expect(TypeError, lambda: JITKernel(scaled_rowsum(40, 24, 1.0), targt="cpu"),
           "unexpected keyword argument 'targt'")
    expect(NotImplementedError,
           lambda: JITKernel(func=scaled_rowsum(40, 24, 1.0), from_database=True),
           "from_database")
    print("JITKernel(program, ...): all checks passed")


if __name__ == "__main__":
    main()
