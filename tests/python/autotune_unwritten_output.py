# @autotune over an eager kernel that returns a T.empty output it never
# writes (a flag turns that output's computation off, as kda/wy_fast.py's
# QG with use_qg=False). Without a ref_prog the tuner checks every
# configuration against the first one's outputs; the unwritten output holds
# whatever its allocation held, so it must be left out of that comparison,
# while a configuration that computes a written output wrongly is still
# rejected. The allocations here are filled with a different value on every
# call, so an unwritten output differs between any two configurations.

import itertools

import tilelang
import tilelang.language as T
import torch
from tilelang import _tensors as tz
from tilelang.autotuner import autotune

fresh = itertools.count(1)
real_empty = tz.empty


def garbage_empty(shape, dtype, use_numpy, device):
    t = real_empty(shape, dtype, use_numpy, device)
    t.fill_(float(next(fresh)))
    return t


tz.empty = garbage_empty
# Every run tunes (a stored best configuration would skip the checks).
tilelang.disable_cache()

CONFIGS = [{"block": 32}, {"block": 64}, {"block": 128}]


@autotune(configs=CONFIGS, warmup=1, rep=2)
@tilelang.jit(target="cpu")
def twice(X, block: int = 32, with_aux: bool = False):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    Aux = T.empty((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
        for i in T.Parallel(block):
            Y[bx * block + i] = X[bx * block + i] * 2.0
            if with_aux:
                Aux[bx * block + i] = X[bx * block + i]
    return Y, Aux


# The 128-wide configuration adds one to Y: a wrong written output.
@autotune(configs=CONFIGS, warmup=1, rep=2)
@tilelang.jit(target="cpu")
def twice_wrong_at_128(X, block: int = 32):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    Aux = T.empty((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
        for i in T.Parallel(block):
            Y[bx * block + i] = X[bx * block + i] * 2.0 + (1.0 if block == 128 else 0.0)
    return Y, Aux


def tuned(fn, x):
    log = []
    import tilelang.autotuner as at
    real_log = at._Tuner._log
    at._Tuner._log = lambda self, text: log.append(text)
    try:
        y, _ = fn(x)
    finally:
        at._Tuner._log = real_log
    return y, log


x = torch.randn(512)
y, log = tuned(twice, x)
torch.testing.assert_close(y, x * 2)
assert not [line for line in log if "rejected" in line], log
assert len([line for line in log if line.startswith("{") and line.endswith(" ms")]) == 3, log

y, log = tuned(twice_wrong_at_128, x)
rejected = [line for line in log if "rejected" in line]
assert len(rejected) == 1 and "'block': 128" in rejected[0], log
assert "output 0" in rejected[0], rejected[0]
torch.testing.assert_close(y, x * 2)
print("ok")
