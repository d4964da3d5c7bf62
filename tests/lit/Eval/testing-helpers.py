# tilelang.testing's public helpers as TileLang's tests use them: the
# requirement features of tvm.testing (requires_cuda, requires_rocm,
# requires_llvm, requires_gpu, ...: decorators, and `marks()` a list of
# pytest marks for a pytest.param case), requires_cuda_compute_version*,
# set_random_seed, torch_assert_close and main. --check reports nothing:
# were `marks()` not a list, the assertions on it would be reported.
# RUN: tlc-build --check %s 2>&1 | count 0
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang import testing


@tilelang.jit(out_idx=[1])
def copy(N=256):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float16), B: T.Tensor((N,), T.float16)):
        with T.Kernel(N // 128, threads=128) as bx:
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i]

    return main


@tilelang.testing.requires_cuda
@tilelang.testing.requires_cuda_compute_version_ge(8, 0)
def test_copy():
    tilelang.testing.set_random_seed(42)
    a = torch.randn(256, dtype=torch.float16)
    b = copy()(a)
    tilelang.testing.torch_assert_close(b, a, rtol=0, atol=0)


@pytest.mark.parametrize("n", [
    256,
    pytest.param(512, marks=tilelang.testing.requires_rocm.marks()),
])
def test_sizes(n):
    copy(n)


assert isinstance(testing.requires_rocm.marks(), list)
assert isinstance(tilelang.testing.requires_llvm.marks(), list)
assert isinstance(testing.requires_gpu.marks(), list)
assert len(testing.requires_cuda.marks()) == 1
assert testing.requires_cuda.marks()[0].name == "skipif"

# Still a decorator, with and without a call.
assert callable(tilelang.testing.requires_cuda(lambda: None))
assert callable(tilelang.testing.requires_cuda()(lambda: None))

if __name__ == "__main__":
    tilelang.testing.main()
