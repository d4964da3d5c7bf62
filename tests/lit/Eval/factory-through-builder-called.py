# A plain factory that returns an inner builder's prim_func, called with
# integers (`build(256, 128)` returns `kernel_func(64)`): TileLang compiles
# the one prim_func that call makes. tlc traced it and then, because the
# instance is named after the inner builder, traced `build` again with its
# parameters as symbols: an instance the program never makes, whose
# made-up shapes gave false errors (corpus44b H9, G12). A top-level
# factory nothing calls still gets its instance with symbols (hints).
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECKED --allow-empty
# CHECKED-NOT: {{error|warning}}
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @kernel_func(%A: !tile.buffer<[256, 128], f32, global>)
# CHECK-NOT: tile.func @build
# CHECK: tile.func @uncalled(%A: !tile.buffer<[n], f32, global>) symbols(n: meta)
# CHECK-NOT: tile.func
import tilelang.language as T


def build(n, dim):
    n = T.int32(n)
    dim = T.int32(dim)

    def kernel_func(block_M):
        @T.prim_func
        def main(A: T.Tensor((n, dim), "float32")):
            with T.Kernel(T.ceildiv(n, block_M), threads=128) as bx:
                acc = T.alloc_fragment([block_M, dim], "float32")
                T.fill(acc, 0)
                T.copy(acc, A[bx * block_M, 0])

        return main

    return kernel_func(64)


def uncalled(n):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=32):
            A[0] = 1.0

    return main


def test():
    program = build(256, 128)


if __name__ == "__main__":
    test()
