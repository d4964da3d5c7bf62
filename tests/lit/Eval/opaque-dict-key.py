# A dict lookup with a key tlc cannot compare (the dtype of a tensor tlc
# knows nothing of) may find any entry: its value is unknown, not a KeyError, and a
# dtype tlc cannot evaluate is analysed as float32 with a warning, as a
# dtype parameter no call binds; the same torch attribute (`torch.float16`)
# is one object, so it finds its own entry. tlc raised KeyError in the autograd
# forward of TileLang's layernorm example, so neither of its kernels was
# traced; given the unknown value as a dtype, it was an error. (A tensor
# whose dtype tlc knows gives that dtype: autograd-tensor-dtype.py.)
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=error
# RUN: tlc-build --emit=tile %s 2>/dev/null | FileCheck %s --check-prefix=TILE
# CHECK: opaque-dict-key.py:[[@LINE+17]]:32: warning: tlc cannot evaluate dtype 'dtype' (a value from outside TileLang); analysed as float32
# TILE: tile.func @scale(%X: !tile.buffer<[64], f32, global>
import torch
import tilelang
import tilelang.language as T

TO_TL = {torch.float16: "float16", torch.bfloat16: "bfloat16"}
x = torch.load("activations.pt")
name = TO_TL[x.dtype]
assert TO_TL.get(x.dtype, "float32") is not None
assert TO_TL[torch.float16] == "float16"


@tilelang.jit
def scale(n, dtype):

    @T.prim_func
    def main(X: T.Tensor((n,), dtype)):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(n):
                X[i] = X[i] * 2

    return main


scale(64, name)
