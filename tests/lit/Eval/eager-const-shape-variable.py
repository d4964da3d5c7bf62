# An eager kernel's T.const sizes bound from the torch tensors it is called
# with when the annotation names its shape through a variable
# (`shape = [B, M, N]` then `x: T.Tensor(shape, ...)`, or a sum of lists,
# `T.Tensor(row + [R], ...)`), as MInference's vertical-slash attention
# writes it. tlc bound them only from a tuple or list written in the
# annotation itself: the sizes stayed symbols, `T.pow(N, -0.5)` computed
# before the annotations was an unknown value and the kernel could not be
# built. The CPU build checked against Python.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK-DAG: "name":"x","kind":"tensor","shape":[2,64,16]
# CHECK-DAG: "name":"bias","kind":"tensor","shape":[2,4]
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py scale-rows tlc-run %t/cpu %t/w | FileCheck %s --check-prefix=OUT
# OUT: scale-rows ok

import torch
import tilelang
import tilelang.language as T


@tilelang.jit
def scale_rows(x, bias):
    B, M, N, R = T.const("B, M, N, R")
    s = T.pow(N, -0.5)
    shape = [B, M, N]
    row = [B]
    x: T.Tensor(shape, T.float32)
    bias: T.Tensor(row + [R], T.float32)
    y = T.empty(shape, T.float32)
    with T.Kernel(T.ceildiv(M, 32), B, threads=128) as (bx, by):
        for i, j in T.Parallel(32, N):
            y[by, bx * 32 + i, j] = x[by, bx * 32 + i, j] * s + bias[by, j % R]
    return y


x = torch.randn(2, 64, 16, dtype=torch.float32, device="cuda")
bias = torch.randn(2, 4, dtype=torch.float32, device="cuda")
scale_rows(x, bias)
