# A @tilelang.jit function that returns what a plain factory returns
# (`return copy_scaled(N, ...)`) is a lazy factory, as TileLang finds by
# calling it: two jit wrappers of one factory each build their own kernel,
# with their own pass configs, and both run against torch on the CPU target.

import tilelang
import tilelang.language as T
import torch


def copy_scaled(N, scale, block=128, dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    B[bx * block + i] = A[bx * block + i] * scale
    return main


def through_two(N, scale):
    return copy_scaled(N, scale)


@tilelang.jit(out_idx=[-1], target="cpu")
def doubled(N):
    return copy_scaled(N, 2.0)


@tilelang.jit(out_idx=[-1], target="cpu", pass_configs={"tl.disable_wgmma": True})
def tripled(N):
    return through_two(N, 3.0)


def main():
    a = torch.randn(1000)
    k2, k3 = doubled(1000), tripled(1000)
    torch.testing.assert_close(k2(a), a * 2.0)
    torch.testing.assert_close(k3(a), a * 3.0)
    assert k2.get_kernel_source() != k3.get_kernel_source()
    print("factory_through_helper: all checks passed")


if __name__ == "__main__":
    main()
