# RUN: tlc-build --verify-diagnostics %s
# Wrong calls of a compiled kernel with no guard around them: each is the
# exception the tlc package raises, reported as an error at the call (the
# script stops there when it runs).
import tilelang
import tilelang.language as T
import torch

N = 64


@tilelang.jit(out_idx=[2])
def add(n):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32),
             C: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                C[i] = A[i] + B[i]

    return main


kernel = add(N)
a, b = torch.randn(N), torch.randn(N)
c = kernel(a, b)
# expected-error@+1 {{ValueError: Kernel expected 2 inputs, but 4 are provided. (kernel 'add' takes 2 argument(s) (A, B), or all 3 parameters with the output buffers)}}
kernel(a, b, c, c)
# expected-error@+1 {{ValueError: Kernel expected 2 inputs, but 1 are provided. (kernel 'add' takes 2 argument(s) (A, B), or all 3 parameters with the output buffers)}}
kernel(a)
# expected-error@+1 {{TypeError: kernel 'add' is missing argument(s) B (inputs: A, B; outputs C are allocated by the kernel)}}
kernel(A=a)
# expected-error@+1 {{TypeError: kernel 'add' takes 2 argument(s) (A, B), or all 3 parameters with the output buffers, got 4}}
kernel(a, b, c, c, B=b)
# expected-error@+1 {{ValueError: kernel 'add': output buffers were given both positionally and with out=}}
kernel(a, b, c, out=c)
# expected-error@+1 {{ValueError: argument 'B' of kernel 'add' must have shape (64,), got (32,)}}
kernel(a, torch.randn(32))
# expected-error@+1 {{TypeError: argument 'A' of kernel 'add' must have dtype float32, got torch.float16}}
kernel(torch.randn(N, dtype=torch.float16), b)
