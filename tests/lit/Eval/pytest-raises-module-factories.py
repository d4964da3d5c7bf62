# Kernels a test expects TileLang to refuse, reached another way than a
# prim_func defined in the test: a module-level @tilelang.jit factory the
# module calls only inside `with pytest.raises` (tlc instantiates it with
# its defaults), and a plain factory whose prim_func the test keeps in a
# variable it compiles only inside `with pytest.raises`. Their errors are
# warnings that say the test expects them; the same loop nest in a factory
# also called outside pytest.raises stays an error of the file.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: :[[# @LINE + 46]]:{{[0-9]+}}: error: {{.*}}T.Parallel nested in another T.Parallel
# CHECK-NOT: error:
import pytest

import tilelang
import tilelang.language as T
import tilelang.testing


@tilelang.jit(out_idx=[1])
def split_parallels(n=64, block=8):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=n):
            for i in T.Parallel(n // block):
                B[i] = 0
                # expected-warning@+1 {{T.Parallel nested in another T.Parallel must be the whole body of the enclosing T.Parallel (no other statement and no other loop between them) (the test expects this kernel to fail: it uses it only inside `with pytest.raises`)}}
                for j in T.Parallel(block):
                    B[i * block + j] = A[i * block + j] + 1.0

    return main


def pipelined_in_parallel(n=64):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=n):
            for _ in T.Parallel(1):
                # expected-warning@+1 {{T.Pipelined cannot be used inside T.Parallel (the test expects this kernel to fail: it uses it only inside `with pytest.raises`)}}
                for k in T.Pipelined(4):
                    B[k] = A[k]

    return main


@tilelang.jit(out_idx=[1])
def split_parallels_used(n=64, block=8):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=n):
            for i in T.Parallel(n // block):
                B[i] = 0
                # expected-error@+1 {{T.Parallel nested in another T.Parallel}}
                for j in T.Parallel(block):
                    B[i * block + j] = A[i * block + j] + 1.0

    return main


def test_refused():
    with pytest.raises(ValueError):
        split_parallels(n=64, block=8)
    program = pipelined_in_parallel()
    with pytest.raises(ValueError):
        tilelang.compile(program)


def test_used():
    split_parallels_used()


if __name__ == "__main__":
    tilelang.testing.main()
