# RUN: tlc-build --verify-diagnostics %s
# A torch tensor's dtype follows it through the conversions and copies a
# script makes before calling a kernel, not only a factory's dtype=:
# `.half()`, `.float()`, `.bfloat16()`, `.int()`, `.to(torch.X)`,
# `.to(dtype=...)`, `.to(other)`, `.type(torch.X)` convert; `.cuda()`,
# `.to("cuda")`, `.contiguous()`, `.clone()` and the *_like factories keep
# it. The kernel checks a float16 parameter against each, as TileLang's
# adapter does: the right ones pass, the others raise its TypeError.
import torch
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def copy_half(N):

    @T.prim_func
    def main(A: T.Tensor((N,), T.float16), B: T.Tensor((N,), T.float16)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(N):
                B[i] = A[i]

    return main


def raises(text, fn, *args):
    try:
        fn(*args)
    except TypeError as e:
        assert text in str(e), str(e)
        return
    raise AssertionError(f"no TypeError ({text})")


kernel = copy_half(64)
x = torch.randn(64)
kernel(x.half())
kernel(x.to(torch.float16))
kernel(x.float().half().cuda())
kernel(torch.empty_like(x.half()))
kernel(x.to(dtype=torch.float16).contiguous())
kernel(x.type(torch.float16))
kernel(x.to(torch.float16).to("cuda").clone())
kernel(x.to(x.half()))
kernel(x.to(T.float16.as_torch()))

raises("must have dtype float16, got torch.bfloat16", kernel,
       x.to(torch.bfloat16))
raises("got torch.bfloat16", kernel, x.bfloat16().cuda())
raises("got torch.float32", kernel, x.half().float())
raises("got torch.float32", kernel, torch.zeros_like(x.half().float()))
raises("got torch.float32", kernel, torch.empty_like(x.half(),
                                                     dtype=torch.float32))
raises("got torch.int32", kernel, x.half().int().contiguous())
raises("got torch.float64", kernel, x.half().double())

# A binary operation's result type is torch's promotion: not modelled, so
# no dtype is assumed and the call is not refused; nor is a conversion to
# a dtype tlc cannot read.
kernel(x.half() * 2)
kernel(x.int().to(torch.float16 if x.sum().item() > 0 else torch.int8))
# expected-error@+1 {{TypeError: argument 'A' of kernel 'copy_half' must have dtype float16, got torch.float32}}
kernel(x.half().float().contiguous())
