# An extent tlc cannot evaluate is its tensor's symbol (opaque-extent.py),
# and so is the value wherever the kernel reads it: `T.ceildiv(dhidden,
# block)` is an expression over the symbol, not an unknown. Before, it was
# "an arithmetic result" tlc could not evaluate, and building for a target
# failed ("cannot build this kernel: it uses a value from outside TileLang
# that tlc cannot evaluate"). Issue 12: examples/fusedmoe, whose sizes come
# from a config dict. The CPU build runs against NumPy at ragged sizes.
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @row_dot(%x: !tile.buffer<[x_shape0, x_shape1], f32, global>, %w: !tile.buffer<[x_shape1], f32, global>, %y: !tile.buffer<[x_shape0], f32, global>) symbols(x_shape0: dynamic, x_shape1: dynamic)
# CHECK: tile.pipelined %k = %c0 to %{{[0-9]+}} stages 1
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s --check-prefix=CUDA
# CUDA-NOT: error
# CUDA: long long x_shape0, long long x_shape1
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: tlc-run %t/art -D x_shape0=70 -D x_shape1=100 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/x.npy'); w=np.load(d+'inputs/w.npy'); y=np.load(d+'y.npy'); print(x.shape, bool(np.allclose(y, x @ w, rtol=1e-4, atol=1e-4)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: (70, 100) True
import sys

import tilelang
import tilelang.language as T


def row_dot(d_hidden, num_tokens, block_token=32, block_dhidden=32, num_stages=1):
    dhidden = d_hidden
    input_shape = (num_tokens, dhidden)

    @T.prim_func
    def kernel_shared(x: T.Tensor(input_shape, "float32"), w: T.Tensor((dhidden,), "float32"),
                      y: T.Tensor((num_tokens,), "float32")):
        with T.Kernel(T.ceildiv(num_tokens, block_token), threads=128) as bx:
            x_local = T.alloc_fragment((block_token, block_dhidden), "float32")
            acc = T.alloc_fragment((block_token,), "float32")
            part = T.alloc_fragment((block_token,), "float32")
            T.clear(acc)
            for k in T.Pipelined(T.ceildiv(dhidden, block_dhidden), num_stages=num_stages):
                for i, j in T.Parallel(block_token, block_dhidden):
                    x_local[i, j] = T.if_then_else(
                        bx * block_token + i < num_tokens and k * block_dhidden + j < dhidden,
                        x[bx * block_token + i, k * block_dhidden + j] * w[k * block_dhidden + j], 0)
                T.reduce_sum(x_local, part, dim=1)
                for i in T.Parallel(block_token):
                    acc[i] += part[i]
            for i in T.Parallel(block_token):
                if bx * block_token + i < num_tokens:
                    y[bx * block_token + i] = acc[i]

    return kernel_shared


def main(config):
    kernel = tilelang.compile(row_dot(config["d_hidden"], config["num_tokens"]))
    return kernel


if __name__ == "__main__":
    main(dict(arg.split("=") for arg in sys.argv[1:]))
