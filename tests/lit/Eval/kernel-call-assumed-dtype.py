# A tensor parameter whose dtype tlc could not evaluate (here a value read
# from a table keyed by the dtype of a tensor tlc knows nothing of, or a
# factory default that is a value from outside TileLang) is analysed as
# float32 with a warning; a
# call of the compiled kernel is then not checked against that assumed
# dtype (a bfloat16 tensor is no TypeError), while a parameter whose dtype
# tlc knows still is.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not="error:"
import torch
import tilelang
import tilelang.language as T

DTYPES = {torch.bfloat16: "bfloat16"}


def scale(N, in_dtype, out_dtype="float32"):
    @T.prim_func
    # CHECK: kernel-call-assumed-dtype.py:[[@LINE+1]]:32: warning: tlc cannot evaluate dtype 'in_dtype' (a value from outside TileLang); analysed as float32
    def main(X: T.Tensor((N,), in_dtype), Y: T.Tensor((N,), out_dtype)):
        with T.Kernel(1, threads=128):
            for i in T.Parallel(N):
                Y[i] = T.Cast(out_dtype, X[i]) * 2.0

    return main


x = torch.randn(256, dtype=torch.bfloat16)
y = torch.empty(256, dtype=torch.float32)
w = torch.load("weights.pt")
kernel = tilelang.compile(scale(256, DTYPES[w.dtype]))
kernel(x, y)

# The output's dtype is known (float32): a bfloat16 tensor for it is
# still TileLang's TypeError.
# CHECK: kernel-call-assumed-dtype.py:[[@LINE+1]]:11: error: TypeError: argument 'Y' of kernel 'main' must have dtype float32, got torch.bfloat16
kernel(x, x)
